//! The kernel and hardware state at one instant, for the inspector: what each CPU's TLB holds
//! (stale entries marked), `cpu_tlbstate` slots against each mm's `tlb_gen`, `mm_cpumask`,
//! lazy flags, pending IPIs and locked csds; on arm64 the ASID generation, active/reserved
//! ASIDs, `nr_active_mm` and the stale mask. The trace records events, not state, so the
//! session rebuilds the world from the same config and seed and runs it up to `t`: the run is
//! deterministic, so this is exactly the state the trace passed through.

use serde::Serialize;

#[derive(Serialize, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Snapshot {
    pub time_ns: u64,
    pub arch: &'static str,
    pub cpus: Vec<CpuState>,
    pub mms: Vec<MmState>,
    /// csds still locked: the sender's request to the target has not finished.
    pub locked_csds: Vec<[u16; 2]>,
    /// The ASID allocator of an architecture that has one; its wire name is the one
    /// architecture that does, which the inspector reads.
    #[serde(rename = "arm64")]
    pub asid_allocator: Option<AsidAllocator>,
}

#[derive(Serialize, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CpuState {
    pub cpu: u16,
    /// Name of the running task, if any.
    pub task: Option<String>,
    /// The mm whose tables CR3 points at (during a switch, still the previous one).
    pub loaded_mm: u16,
    pub loaded_asid: u16,
    pub lazy: bool,
    /// x86, between `switch_mm_irqs_off()`'s publishing and its CR3 write: the mm it switches
    /// to. The kernel's `cpu_tlbstate.loaded_mm` reads `LOADED_MM_SWITCHING` then.
    pub switching_to: Option<u16>,
    /// Those stores (`LOADED_MM_SWITCHING`, `is_lazy = false`) still sit in the CPU's store
    /// buffer: other CPUs read the previous values (`switch_mm_barrier = none`, R7).
    pub switch_buffered: bool,
    pub preempt_count: u32,
    pub irqs_off: bool,
    /// An IPI waits in the APIC (interrupts off) or is being handled.
    pub ipi_pending: bool,
    /// Senders of requests queued on this CPU's `call_single_queue`.
    pub queued_from: Vec<u16>,
    /// Per-CPU tag slots (x86 `cpu_tlbstate.ctxs[]`): which mm each belongs to and how fresh.
    pub slots: Vec<Slot>,
    pub tlb_entries: usize,
    pub stale_entries: usize,
    pub entries: Vec<TlbEntry>,
}

#[derive(Serialize, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Slot {
    pub slot: u16,
    /// The mm whose `ctx_id` the slot holds (None: empty or a freed mm).
    pub mm: Option<u16>,
    pub tlb_gen: u64,
}

#[derive(Serialize, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TlbEntry {
    pub mm: u16,
    /// PCID slot (x86) or hardware ASID (arm64) the entry is tagged with.
    pub tag: u16,
    pub vpn: u32,
    /// The PTE version the entry caches; stale when the page table has moved on.
    pub version: u32,
    pub stale: bool,
}

#[derive(Serialize, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MmState {
    pub mm: u16,
    pub tlb_gen: u64,
    /// x86 `mm_cpumask` (lazily trimmed); on arm64 with skip-broadcast, the stale-ASID mask.
    pub cpumask: Vec<u16>,
    #[serde(flatten)]
    pub context: MmContext,
}

/// The architecture's context of one mm (all `None` where it has none).
#[derive(Serialize, Debug, Default)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MmContext {
    /// arm64 `context.id` split into generation and ASID, and `nr_active_mm`.
    pub asid: Option<u64>,
    pub asid_generation: Option<u64>,
    pub nr_active_mm: Option<u32>,
}

/// An ASID allocator's global state (`mm/context.c`).
#[derive(Serialize, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AsidAllocator {
    pub generation: u64,
    pub active_asids: Vec<u64>,
    pub reserved_asids: Vec<u64>,
    pub flush_pending: Vec<u16>,
}
