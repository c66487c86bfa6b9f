//! Newtypes for the quantities the simulator must never mix up: a CPU index is not an ASID,
//! and a generation is not a time. Each is a plain integer underneath.

/// Simulated time in nanoseconds since the start of the run.
pub type Ns = u64;

/// `a.saturating_mul(b)` for the costs of the per-event path (`n` pages × ns a page): wasm32
/// has no 64 × 64 → 128-bit multiply, so `u64::saturating_mul` calls `__multi3` there, 1 % of
/// a WASM bench run. Factors that both fit in 32 bits cannot overflow and take one multiply.
#[inline]
pub fn mul_sat(a: u64, b: u64) -> u64 {
    if (a | b) >> 32 == 0 {
        a * b
    } else {
        a.saturating_mul(b)
    }
}

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

#[cfg(test)]
mod tests {
    use super::mul_sat;

    #[test]
    fn mul_sat_is_saturating_mul_on_both_sides_of_32_bits() {
        let xs = [
            0,
            1,
            7,
            0xFFFF_FFFF,
            1 << 32,
            (1 << 32) + 3,
            u64::MAX / 3,
            u64::MAX,
        ];
        for a in xs {
            for b in xs {
                assert_eq!(mul_sat(a, b), a.saturating_mul(b), "{a} × {b}");
            }
        }
    }
}
