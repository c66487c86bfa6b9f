//! The validated, typed configuration of one run. Built only by `scenario::parse` from a
//! scenario file plus `--set` overrides, so every `Config` satisfies its documented ranges.
//!
//! Defaults (used when the scenario omits a field):
//! - `arch = x86`, `cpus = 4`, `flush_info = percpu`, `preempt = pinned`, `pcid = on`
//! - workload `flushes = 1`, `pages = 1`, `initiator = 0`, `period_ns = 20_000`,
//!   `irqs_off_probability = 0.0`, `irqs_off_max_ns = 0`
//! - costs: see [`Costs`]; each default names its source (kernel-mechanics.md §9–§10).

use crate::ids::CpuId;

/// The most CPUs a scenario may ask for (the 1..=512 range).
pub const MAX_CPUS: u16 = 512;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    X86,
    Arm64,
}

/// Where `flush_tlb_mm_range()` keeps its `struct flush_tlb_info`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlushInfo {
    /// 2019–2026: one per-CPU, cache-line aligned descriptor (3db6d5a5ecaf).
    PerCpu,
    /// 2026: on the caller's stack, aligned to `FLUSH_TLB_INFO_ALIGN` (ed15468787dd, c86f522bb57b).
    Stack,
    /// On the stack without alignment: may straddle two cache lines.
    StackUnaligned,
}

/// Whether the initiator may be preempted while waiting for remote CPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preempt {
    /// Pre-2026: preemption off for the whole flush, including the remote wait.
    Pinned,
    /// 2026 series: preemptible after dispatch, waiting on a task-local mask.
    PreemptibleWait,
}

/// Named cost-model parameters in nanoseconds. Every one is overridable from a scenario's
/// `[costs]` table or `--set costs.<name>=<ns>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Costs {
    /// Initiator cost to queue a csd and write the ICR for one target. Estimate 0.1–0.3 µs (§10).
    pub ipi_send_ns: u64,
    /// From the ICR write until the target's handler starts, target IRQs on. 0.5–1.5 µs
    /// ("ACK from remote core takes ≥ 1000 cycles", Amit ATC'17; §9.2).
    pub ipi_delivery_ns: u64,
    /// IRQ entry + `flush_tlb_func` bookkeeping + exit on the target. Estimate 0.3–1 µs (§10).
    pub ipi_handler_ns: u64,
    /// One INVLPG. "about 100 ns" (kernel comment above the ceiling); 260 cycles (Molnar 2015).
    pub invlpg_ns: u64,
    /// Direct cost of a CR3-reload full flush: 96 cycles ≈ 32 ns at 3 GHz (Molnar 2015).
    pub full_flush_ns: u64,
    /// Initiator's poll period on a csd while waiting: ~50 ns per cache-line bounce (§10).
    pub csd_poll_ns: u64,
}

impl Default for Costs {
    fn default() -> Self {
        Costs {
            ipi_send_ns: 200,
            ipi_delivery_ns: 1_000,
            ipi_handler_ns: 500,
            invlpg_ns: 100,
            full_flush_ns: 32,
            csd_poll_ns: 50,
        }
    }
}

/// The workload of the walking-skeleton model: one initiator flushing a range of its mm,
/// which every CPU runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    pub flushes: u32,
    pub pages: u32,
    pub initiator: CpuId,
    pub period_ns: u64,
    /// Chance that a remote CPU has interrupts off when an IPI arrives.
    pub irqs_off_probability: f64,
    /// Longest interrupts-off window a remote CPU may be in (uniform draw).
    pub irqs_off_max_ns: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub title: String,
    pub description: String,
    pub arch: Arch,
    pub cpus: u16,
    pub flush_info: FlushInfo,
    pub preempt: Preempt,
    pub pcid: bool,
    pub workload: Workload,
    pub costs: Costs,
}
