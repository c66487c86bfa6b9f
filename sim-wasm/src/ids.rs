//! Newtypes for the quantities the simulator must never mix up: a CPU index is not an ASID,
//! and a generation is not a time. Each is a plain integer underneath.

/// Simulated time in nanoseconds since the start of the run.
pub type Ns = u64;

/// Index of a simulated CPU (0-based, < `Config::cpus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CpuId(pub u16);

/// An address space (`struct mm_struct`); 0 is reserved for `init_mm`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MmId(pub u16);

/// A TLB flush generation (`mm->context.tlb_gen`, `cpu_tlbstate.ctxs[].tlb_gen`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TlbGen(pub u64);

impl CpuId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl MmId {
    /// The kernel's own address space, which CPUs load when they leave a user mm.
    pub const INIT_MM: MmId = MmId(0);
}

/// Index of a simulated task (thread) in `World::tasks`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TaskId(pub u32);

impl TaskId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of a `struct flush_tlb_info` slot: per-CPU slots first, then one stack slot per task.
pub type DescId = u32;

/// `TLB_GENERATION_INVALID`: "no generation" (batched and kernel flushes).
pub const TLB_GENERATION_INVALID: u64 = 0;

/// Base virtual address of user pages in the trace's `addr` column.
pub const USER_BASE: u64 = 0x7f00_0000_0000;
