//! `kernel=<version>`: every x86 design toggle as a given kernel had it, each step with the
//! commit that changed it. A toggle the scenario sets itself wins; toggles not listed here
//! (the +1 rule, the ceiling, lazy TLB and `freed_tables`) keep their present values for every
//! kernel: the model's lazy TLB is the one since 4.19.

use crate::config::{FlushInfo, Preempt, SwitchMmBarrier, TlbGenRead, WaitMask};

/// What one kernel sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub name: &'static str,
    pub flush_info: FlushInfo,
    pub preempt: Preempt,
    pub pcid: bool,
    pub wait_mask: WaitMask,
    /// Whether the kernel has PTI; it is on only where the machine needs it.
    pub has_pti: bool,
    /// Whether the kernel uses INVLPGB; it is on only where the CPU has it.
    pub has_invlpgb: bool,
    /// `switch_mm_irqs_off()`'s barrier before its `tlb_gen` read (R7): always there (the
    /// unconditional atomic `cpumask_set_cpu()`) until 209954cbc7d0 (6.14) skipped the atomic
    /// when the bit is set, and again since 83b0177a6c48 (6.18) added `smp_mb()` for that case.
    pub switch_mm_barrier: SwitchMmBarrier,
    /// When a remote `flush_tlb_func()` reads the shared `tlb_gen`: always until
    /// aa44284960d5 (5.18) skipped the read for requests the CPU has already covered.
    pub tlb_gen_read: TlbGenRead,
    /// The commit of this step's change and what it changed.
    pub change: &'static str,
}

/// The kernels `kernel=` knows, oldest first: the history slider's steps.
pub const KERNELS: &[Kernel] = &[
    Kernel {
        name: "4.13",
        flush_info: FlushInfo::StackUnaligned,
        preempt: Preempt::Pinned,
        pcid: false,
        wait_mask: WaitMask::PerCpu,
        has_pti: false,
        has_invlpgb: false,
        switch_mm_barrier: SwitchMmBarrier::Full,
        tlb_gen_read: TlbGenRead::Always,
        change: "before PCID: every switch of address space flushes the TLB; the flush descriptor is an unaligned local variable",
    },
    Kernel {
        name: "4.14",
        pcid: true,
        change: "10af6235e0d3 x86/mm: Implement PCID based optimization: six ASID slots per CPU keep their entries across switches",
        ..KERNELS_4_13
    },
    Kernel {
        name: "4.15",
        pcid: true,
        has_pti: true,
        change: "aa8c6248f8c7 x86/mm/pti: Add infrastructure for page table isolation (with 6fd166aae78c, a user PCID per slot): on for Meltdown-affected CPUs",
        ..KERNELS_4_13
    },
    Kernel {
        name: "5.3",
        flush_info: FlushInfo::PerCpu,
        pcid: true,
        has_pti: true,
        change: "3db6d5a5ecaf x86/mm/tlb: Remove 'struct flush_tlb_info' from the stack: one cache-line aligned descriptor per CPU, so the whole flush must stay pinned",
        ..KERNELS_4_13
    },
    Kernel {
        name: "5.18",
        flush_info: FlushInfo::PerCpu,
        pcid: true,
        has_pti: true,
        tlb_gen_read: TlbGenRead::WhenNeeded,
        change: "aa44284960d5 x86/mm/tlb: Avoid reading mm_tlb_gen when possible (Nadav Amit, 2022): a remote flush_tlb_func() whose request this CPU has already covered returns without reading the mm's contended tlb_gen line",
        ..KERNELS_4_13
    },
    Kernel {
        name: "6.15",
        flush_info: FlushInfo::PerCpu,
        pcid: true,
        has_pti: true,
        has_invlpgb: true,
        switch_mm_barrier: SwitchMmBarrier::None,
        tlb_gen_read: TlbGenRead::WhenNeeded,
        change: "4afeb0ed1753 x86/mm: Enable broadcast TLB invalidation for multi-threaded processes: INVLPGB and global ASIDs on AMD CPUs that have them; since 209954cbc7d0 x86/mm/tlb: Update mm_cpumask lazily (6.14) a switch back to an mm whose cpumask bit is still set has no barrier before its tlb_gen read (R7)",
        ..KERNELS_4_13
    },
    Kernel {
        name: "7.3",
        flush_info: FlushInfo::Stack,
        preempt: Preempt::PreemptibleWait,
        pcid: true,
        wait_mask: WaitMask::Task,
        has_pti: true,
        has_invlpgb: true,
        switch_mm_barrier: SwitchMmBarrier::Full,
        tlb_gen_read: TlbGenRead::WhenNeeded,
        change: "ed15468787dd x86/mm: Move flush_tlb_info back to the stack (aligned, c86f522bb57b), 9a560af15fd3 smp: task-local IPI cpumask, a5a162fe1ae1 x86/mm: Re-enable preemption before flush_tlb_multi(): the wait for remote CPUs is preemptible; 83b0177a6c48 x86/mm: Fix SMP ordering in switch_mm_irqs_off() (6.18): smp_mb() where the cpumask bit was already set",
    },
];

const KERNELS_4_13: Kernel = Kernel {
    name: "4.13",
    flush_info: FlushInfo::StackUnaligned,
    preempt: Preempt::Pinned,
    pcid: false,
    wait_mask: WaitMask::PerCpu,
    has_pti: false,
    has_invlpgb: false,
    switch_mm_barrier: SwitchMmBarrier::Full,
    tlb_gen_read: TlbGenRead::Always,
    change: "",
};

/// The names `kernel=` accepts, oldest first.
pub const NAMES: &[&str] = &["4.13", "4.14", "4.15", "5.3", "5.18", "6.15", "7.3"];

pub fn by_name(name: &str) -> Option<Kernel> {
    KERNELS.iter().copied().find(|k| k.name == name)
}

/// Whether a preset's CPU has INVLPGB (AMD Zen 3 and later).
pub fn has_invlpgb(preset: &str) -> bool {
    matches!(preset, "zen3-epyc-7763-128")
}
