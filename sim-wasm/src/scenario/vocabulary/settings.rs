//! Every setting, declared once. The order of [`SETTINGS`] is the order `--set`'s error lists
//! the keys in.

use super::setting::{Default, Kind, Setting, MAX_NS};
use crate::budget;
use crate::config::{
    Arch, CpuIdImpl, Dist, FlushInfo, LockMode, Mapping, Preempt, PtiUserFlush, SkipRule,
    SwitchMmBarrier, TlbGenRead, TlbIndex, WaitMask, WorkOp, MAX_CPUS,
};
use crate::presets;

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

const fn int(min: i64, max: i64) -> Kind {
    Kind::Int {
        min,
        max,
        max_of: None,
    }
}

const fn int_of(min: i64, max: i64, of: &'static str) -> Kind {
    Kind::Int {
        min,
        max,
        max_of: Some(of),
    }
}

const fn setting(
    key: &'static str,
    section: &'static str,
    kind: Kind,
    default: Default,
) -> Setting {
    Setting {
        key,
        aliases: &[],
        section,
        field: key,
        kind,
        default,
        arch: None,
        doc: "",
        value: None,
    }
}

pub static ARCH: Setting = Setting {
    doc: "The architecture modelled: x86 (IPI shootdowns) or arm64 (broadcast TLBI). `--set arch=<other>` retargets a scenario and drops its other-architecture toggles (listed in the summary's notes).",
    value: Some(|c| c.arch.name().into()),
    ..setting("arch", "", Kind::Choice(Arch::NAMES), Default::Name("x86"))
};
pub static CPUS: Setting = Setting {
    doc: "Simulated CPUs.",
    value: Some(|c| c.cpus.to_string()),
    ..setting(
        "cpus",
        "machine",
        int(1, MAX_CPUS as i64),
        Default::Derived("the preset's"),
    )
};
pub static PRESET: Setting = Setting {
    key: "machine",
    aliases: &["preset"],
    field: "preset",
    doc: "The machine preset: CPUs, TLB geometry and every cost parameter of a measured (or generic) machine of the scenario's architecture.",
    value: Some(|c| c.preset.clone()),
    ..setting("preset", "machine", Kind::Choice(&presets::IDS), Default::Derived("generic-x86 on x86, generic-arm64 on arm64"))
};
pub static TLB_ENTRIES: Setting = Setting {
    doc: "TLB entries per CPU (CPUs × entries at most 4194304).",
    value: Some(|c| c.tlb_entries.to_string()),
    ..setting(
        "tlb_entries",
        "machine",
        int(8, 65_536),
        Default::Derived("the preset's"),
    )
};
pub static TLB_WAYS: Setting = Setting {
    doc: "TLB associativity (at most 255, and at most tlb_entries).",
    value: Some(|c| c.tlb_ways.to_string()),
    ..setting(
        "tlb_ways",
        "machine",
        int_of(1, crate::tlb::Tlb::MAX_WAYS as i64, "tlb_entries"),
        Default::Derived("the preset's"),
    )
};
pub static SOCKETS: Setting = Setting {
    doc: "Sockets the CPUs are spread over, numbered socket by socket (CPUs 0 to cpus / sockets − 1 on the first): a cache line that changes hands between sockets costs costs.socket_transfer_ns instead of costs.cacheline_transfer_ns. At most cpus.",
    value: Some(|c| c.sockets.to_string()),
    ..setting(
        "sockets",
        "machine",
        int_of(1, 64, "cpus"),
        Default::Derived("the preset's: 2 on icelake-8336c-128, skylake-sp-56 and thunderx2-2s, 1 elsewhere"),
    )
};
pub static TLB_INDEX: Setting = Setting {
    doc: "TLB set-index function: hash (a stand-in for an unpublished index) or xor7 (Skylake's STLB, TLBleed 2018: 128 sets, vpn[6:0] XOR vpn[13:7]; needs tlb_entries / tlb_ways = 128).",
    value: Some(|c| c.tlb_index.name().into()),
    ..setting("tlb_index", "machine", Kind::Choice(TlbIndex::NAMES), Default::Derived("the preset's: xor7 on the Skylake presets (skylake-laptop-kvm, skylake-desktop-4, skylake-sp-56), hash elsewhere"))
};
pub static STACK_OFFSET: Setting = Setting {
    doc: "Where an unaligned on-stack flush descriptor starts within its cache line, in bytes.",
    value: Some(|c| c.stack_offset.to_string()),
    ..setting("stack_offset", "machine", int(0, 4095), Default::Int(48))
};
pub static MAX_TIME_NS: Setting = Setting {
    doc: "Stop the run at this simulated time.",
    ..setting(
        "max_time_ns",
        "machine",
        int(1, MAX_NS),
        Default::Int(10_000_000_000),
    )
};
pub static MAX_EVENTS: Setting = Setting {
    doc: "The run's event budget.",
    ..setting(
        "max_events",
        "machine",
        int(1, budget::MAX_EVENTS),
        Default::Int(budget::DEFAULT_EVENTS),
    )
};
pub static MAX_MEMORY_MB: Setting = Setting {
    doc: "The run's memory budget in MiB (the machine's state plus the trace).",
    ..setting(
        "max_memory_mb",
        "machine",
        int(1, budget::MAX_MEMORY_MB),
        Default::Int(budget::DEFAULT_MEMORY_MB),
    )
};
pub static CACHELINE_BYTES: Setting = Setting {
    key: "machine.cacheline_bytes",
    field: "cacheline_bytes",
    doc: "Cache line size in bytes.",
    ..setting("cacheline_bytes", "machine", int(8, 4096), Default::Int(64))
};
pub static FLUSH_INFO_BYTES: Setting = Setting {
    key: "machine.flush_info_bytes",
    field: "flush_info_bytes",
    doc: "sizeof(struct flush_tlb_info) in bytes.",
    ..setting(
        "flush_info_bytes",
        "machine",
        int(1, 4096),
        Default::Int(40),
    )
};
pub static FLUSH_INFO: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "Where flush_tlb_mm_range() keeps its descriptor: per CPU (2019–2026, 3db6d5a5ecaf), on the stack aligned (2026, ed15468787dd), or on the stack unaligned.",
    value: Some(|c| c.design.flush_info.name().into()),
    ..setting("flush_info", "design", Kind::Choice(FlushInfo::NAMES), Default::Name("percpu"))
};
pub static PREEMPT: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "pinned: preemption off for the whole flush including the remote wait (pre-2026); preemptible_wait: preemptible after dispatch and the local flush (2026).",
    value: Some(|c| c.design.preempt.name().into()),
    ..setting("preempt", "design", Kind::Choice(Preempt::NAMES), Default::Name("pinned"))
};
pub static PCID: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "Process-context identifiers: six ASID slots per CPU let switches keep TLB entries (CR3_NOFLUSH); off: every mm change flushes.",
    value: Some(|c| on_off(c.design.pcid)),
    ..setting("pcid", "design", Kind::OnOff, Default::OnOff(true))
};
pub static WAIT_MASK: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "task: the 2026 task-local IPI mask (9a560af15fd3); percpu: the per-CPU cfd->cpumask, which a preemptible wait lets another flush overwrite (R2).",
    value: Some(|c| c.design.wait_mask.name().into()),
    ..setting("wait_mask", "design", Kind::Choice(WaitMask::NAMES), Default::Name("task"))
};
pub static PLUS_ONE_RULE: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "flush_tlb_func() flushes partially only when new_tlb_gen == local_gen + 1; off: partially whenever the request is a range (R8).",
    value: Some(|c| on_off(c.design.plus_one_rule)),
    ..setting("plus_one_rule", "design", Kind::OnOff, Default::OnOff(true))
};
pub static LAZY_FREED_TABLES: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "ipi: flushes that free page tables interrupt lazy CPUs too (mainline); skip: lazy CPUs are always skipped (R6).",
    value: Some(|c| if c.design.lazy_freed_tables_ipi { "ipi" } else { "skip" }.into()),
    ..setting("lazy_freed_tables", "design", Kind::Choice(&["ipi", "skip"]), Default::Name("ipi"))
};
pub static CEILING: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "tlb_single_page_flush_ceiling: ranges of more pages become full flushes.",
    value: Some(|c| c.design.ceiling.to_string()),
    ..setting("ceiling", "design", int(0, 1 << 20), Default::Int(33))
};
pub static PTI: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "Page-table isolation (Meltdown mitigation, 4.15+ on affected Intel CPUs): each PCID slot has a kernel and a user PCID, every kernel entry and exit switches CR3 (costs.pti_cr3_ns), kernel translations are no longer global, and each flushed user page is flushed in both PCIDs (R11). The default follows the machine: on with skylake-desktop-4 and skylake-sp-56 (Meltdown-affected CPUs under a 4.15+ kernel), off with every other preset (their source machines ran without it: the Ice Lake flush_tlb_info measurements (Chuyi Zhou, 2026) ran with pti off, the Skylake ping-pong predates PTI, AMD is not affected).",
    value: Some(|c| on_off(c.design.pti)),
    ..setting("pti", "design", Kind::OnOff, Default::Derived("on with skylake-desktop-4 and skylake-sp-56, off with the other presets"))
};
pub static PTI_USER_FLUSH: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "With pti=on, how a flushed user page leaves the user PCID: invpcid (INVPCID at once, CPUs that have it), deferred (user_pcid_flush_mask: the next return to user space flushes the whole user PCID), none (INVLPG only, replaying R11).",
    value: Some(|c| c.design.pti_user_flush.name().into()),
    ..setting("pti_user_flush", "design", Kind::Choice(PtiUserFlush::NAMES), Default::Name("invpcid"))
};
pub static SWITCH_MM_BARRIER: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "What orders switch_mm_irqs_off()'s stores (loaded_mm = LOADED_MM_SWITCHING, is_lazy = false) before its read of next's tlb_gen: full (the kernel since 83b0177a6c48, 2025: the atomic cpumask_set_cpu() or an explicit smp_mb()); none (no smp_mb() when the CPU's bit is already in mm_cpumask, as after 209954cbc7d0's lazy cpumask and before that fix): the stores wait in the store buffer (costs.store_buffer_drain_ns), a flush that increments tlb_gen meanwhile does not see the CPU and sends no IPI, and the CPU keeps its stale entries with CR3_NOFLUSH (R7).",
    value: Some(|c| c.design.switch_mm_barrier.name().into()),
    ..setting("switch_mm_barrier", "design", Kind::Choice(SwitchMmBarrier::NAMES), Default::Name("full"))
};
pub static TLB_GEN_READ: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "When a remote flush_tlb_func() reads the mm's shared tlb_gen: when_needed (the kernel since aa44284960d5, x86/mm/tlb: Avoid reading mm_tlb_gen when possible, Nadav Amit, 2022, in 5.18: a request this CPU's generation already covers returns without the read), always (before it: every call reads the contended line first of all, a lazy CPU's too, paying costs.cacheline_transfer_ns when another CPU wrote it last, and a CPU behind the mm catches up to the newest generation with a full flush even when this request was covered).",
    value: Some(|c| c.design.tlb_gen_read.name().into()),
    ..setting("tlb_gen_read", "design", Kind::Choice(TlbGenRead::NAMES), Default::Name("when_needed"))
};
pub static INVLPGB: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "AMD broadcast invalidation (Zen 3 and later; the 2025 series): an mm active on more than 3 CPUs gets a global ASID, and its flushes become INVLPGB + TLBSYNC instead of IPIs. Needs pcid=on.",
    value: Some(|c| on_off(c.design.invlpgb)),
    ..setting("invlpgb", "design", Kind::OnOff, Default::OnOff(false))
};
pub static GLOBAL_ASID: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "With invlpgb=on, when an eligible mm gets its global ASID: sampled (the kernel: about one flush in 32, pid & 0x1f == jiffies & 0x1f, here the run's RNG) or first_flush (at its first flush on more than 3 active CPUs, a shortcut for short runs).",
    value: Some(|c| if c.design.global_asid_first_flush { "first_flush" } else { "sampled" }.into()),
    ..setting("global_asid", "design", Kind::Choice(&["sampled", "first_flush"]), Default::Name("sampled"))
};
pub static ASID_TRANSITION: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "With invlpgb=on, while some CPU still runs the mm under a per-CPU ASID its flushes IPI those CPUs as well (asid_transition); off replays R13: the INVLPGB of the global ASID misses them.",
    value: Some(|c| on_off(c.design.asid_transition)),
    ..setting("asid_transition", "design", Kind::OnOff, Default::OnOff(true))
};
pub static TLBSYNC_PINNED: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "With invlpgb=on, the flush stays on its CPU until TLBSYNC (cant_migrate()); off replays R12: the wait is preemptible, the task may move, and TLBSYNC on the new CPU does not wait for the old CPU's INVLPGBs.",
    value: Some(|c| on_off(c.design.tlbsync_pinned)),
    ..setting("tlbsync_pinned", "design", Kind::OnOff, Default::OnOff(true))
};
pub static KERNEL: Setting = Setting {
    arch: Some(Arch::X86),
    doc: "Sets every x86 design toggle the scenario leaves out as this kernel had it: 4.13 (no PCID, unaligned descriptor on the stack, pinned, per-CPU wait mask), 4.14 (PCID, 10af6235e0d3), 4.15 (PTI where the CPU is Meltdown-affected, aa8c6248f8c7), 5.3 (per-CPU descriptor, 3db6d5a5ecaf), 5.18 (tlb_gen_read when_needed, aa44284960d5; before it always), 6.15 (INVLPGB where the CPU has it, 4afeb0ed1753; switch_mm_barrier none since the lazy mm_cpumask of 209954cbc7d0), 7.3 (2026: aligned stack descriptor ed15468787dd, task-local wait mask 9a560af15fd3, preemptible wait a5a162fe1ae1; switch_mm_barrier full again since 83b0177a6c48). Absent: each toggle's own default.",
    ..setting("kernel", "design", Kind::Choice(crate::arch::x86::kernels::NAMES), Default::Derived("none: each toggle's own default"))
};
pub static THREADS: Setting = Setting {
    doc: "Op threads of mm 1 looping touch + the op, on CPUs from the initiator on.",
    value: Some(|c| c.workload.threads.to_string()),
    ..setting(
        "threads",
        "workload",
        int_of(0, MAX_CPUS as i64, "cpus − initiator"),
        Default::Derived("1, or 0 when [[tasks]] are given"),
    )
};
pub static BUSY_THREADS: Setting = Setting {
    doc: "Threads of mm 1 spinning on the following CPUs (they make each flush IPI them).",
    value: Some(|c| c.workload.busy_threads.to_string()),
    ..setting(
        "busy_threads",
        "workload",
        int_of(
            0,
            MAX_CPUS as i64,
            "cpus − initiator − threads − lazy_cpus − victims",
        ),
        Default::Derived("all remaining CPUs (0 with [[tasks]] or no op threads)"),
    )
};
pub static LAZY_CPUS: Setting = Setting {
    doc: "CPUs left idle in lazy-TLB mode on mm 1 after running one of its threads.",
    value: Some(|c| c.workload.lazy_cpus.to_string()),
    ..setting(
        "lazy_cpus",
        "workload",
        int_of(0, MAX_CPUS as i64, "cpus − initiator − threads"),
        Default::Int(0),
    )
};
pub static FLUSHES: Setting = Setting {
    doc: "Ops (flushes) per op thread.",
    value: Some(|c| c.workload.flushes.to_string()),
    ..setting("flushes", "workload", int(0, 10_000_000), Default::Int(1))
};
pub static PAGES: Setting = Setting {
    doc: "Pages per op; more than the ceiling makes x86 flush the whole PCID.",
    value: Some(|c| c.workload.pages.to_string()),
    ..setting("pages", "workload", int(1, 1 << 16), Default::Int(1))
};
pub static INITIATOR: Setting = Setting {
    doc: "First CPU of the op threads.",
    value: Some(|c| c.workload.initiator.0.to_string()),
    ..setting(
        "initiator",
        "workload",
        int_of(0, MAX_CPUS as i64 - 1, "cpus − 1"),
        Default::Int(0),
    )
};
pub static PERIOD_NS: Setting = Setting {
    doc: "Minimum time from one op's start to the next (0: back to back).",
    value: Some(|c| c.workload.period_ns.to_string()),
    ..setting("period_ns", "workload", int(0, MAX_NS), Default::Int(0))
};
pub static FREED_TABLES: Setting = Setting {
    doc: "Op threads free page tables (munmap) instead of madvise.",
    value: Some(|c| on_off(c.workload.freed_tables)),
    ..setting(
        "freed_tables",
        "workload",
        Kind::OnOff,
        Default::OnOff(false),
    )
};
pub static IRQS_OFF_PROBABILITY: Setting = Setting {
    doc: "Busy threads: chance per gap of an interrupts-off window, during which an IPI stays pending.",
    value: Some(|c| c.workload.irqs_off_probability.to_string()),
    ..setting("irqs_off_probability", "workload", Kind::Float { min: 0.0, max: 1.0 }, Default::Float(0.0))
};
pub static IRQS_OFF_GAP_NS: Setting = Setting {
    doc: "Busy threads: user-mode spin between interrupts-off draws.",
    value: Some(|c| c.workload.irqs_off_gap_ns.to_string()),
    ..setting(
        "irqs_off_gap_ns",
        "workload",
        int(1, MAX_NS),
        Default::Int(20_000),
    )
};
pub static IRQS_OFF_DIST: Setting = Setting {
    doc: "Shape of the interrupts-off windows: uniform in [1, max], exponential or Pareto (α = 2) with the mean, capped at the max.",
    value: Some(|c| c.workload.irqs_off_dist.name().into()),
    ..setting("irqs_off_dist", "workload", Kind::Choice(Dist::NAMES), Default::Name("uniform"))
};
pub static IRQS_OFF_MEAN_NS: Setting = Setting {
    doc: "Mean of exp / pareto interrupts-off windows.",
    value: Some(|c| c.workload.irqs_off_mean_ns.to_string()),
    ..setting(
        "irqs_off_mean_ns",
        "workload",
        int(0, MAX_NS),
        Default::Derived("irqs_off_max_ns / 4"),
    )
};
pub static IRQS_OFF_MAX_NS: Setting = Setting {
    doc: "Longest interrupts-off window (0: none).",
    value: Some(|c| c.workload.irqs_off_max_ns.to_string()),
    ..setting(
        "irqs_off_max_ns",
        "workload",
        int(0, MAX_NS),
        Default::Int(0),
    )
};
pub static WAKEUP_PERIOD_NS: Setting = Setting {
    doc: "A high-priority task wakes on wakeup_cpu this often (0: none); its wakeup latency measures how long flushes keep preemption off.",
    value: Some(|c| c.workload.wakeup_period_ns.to_string()),
    ..setting("wakeup_period_ns", "workload", int(0, MAX_NS), Default::Int(0))
};
pub static WAKEUP_CPU: Setting = Setting {
    doc: "The CPU the high-priority task wakes on.",
    value: Some(|c| c.workload.wakeup_cpu.0.to_string()),
    ..setting(
        "wakeup_cpu",
        "workload",
        int_of(0, MAX_CPUS as i64 - 1, "cpus − 1"),
        Default::Derived("the initiator"),
    )
};
pub static WAKEUP_WORK_NS: Setting = Setting {
    doc: "How long the high-priority task works per wakeup.",
    value: Some(|c| c.workload.wakeup_work_ns.to_string()),
    ..setting(
        "wakeup_work_ns",
        "workload",
        int(0, MAX_NS),
        Default::Int(2_000),
    )
};
pub static MM_PAGES: Setting = Setting {
    doc: "Pages per address space (grown to fit the op threads' ranges).",
    value: Some(|c| c.workload.mm_pages.to_string()),
    ..setting("mm_pages", "workload", int(1, 1 << 20), Default::Int(64))
};
pub static OP: Setting = Setting {
    doc: "The op the op threads loop on.",
    value: Some(|c| c.workload.op.name().into()),
    ..setting(
        "op",
        "workload",
        Kind::Choice(WorkOp::NAMES),
        Default::Derived("madvise, or munmap with freed_tables"),
    )
};
pub static PROCESSES: Setting = Setting {
    doc: "Each op thread is its own process, with a main thread waiting for it.",
    value: Some(|c| c.workload.processes.to_string()),
    ..setting("processes", "workload", Kind::OnOff, Default::OnOff(false))
};
pub static HOT_PAGES: Setting = Setting {
    doc: "Pages of hot data each op thread reads before every op, besides the pages it unmaps: they stay mapped, so a ranged flush keeps their translations and a full flush (more pages than the ceiling) makes the next op walk them again.",
    value: Some(|c| c.workload.hot_pages.to_string()),
    ..setting("hot_pages", "workload", int(0, 1 << 16), Default::Int(0))
};
pub static VICTIMS: Setting = Setting {
    doc: "Victim-compute processes, one per CPU after the busy threads: each loops victim_work_ns of pure compute and reports how much it got done (victim_op_ns, victim_throughput). On arm64 every broadcast TLBI stalls them too; on x86 another process's flush never interrupts them.",
    value: Some(|c| c.workload.victims.to_string()),
    ..setting(
        "victims",
        "workload",
        int_of(0, MAX_CPUS as i64, "cpus − initiator − threads − lazy_cpus"),
        Default::Int(0),
    )
};
pub static VICTIM_WORK_NS: Setting = Setting {
    doc: "Compute per victim iteration (one sample of victim_op_ns).",
    value: Some(|c| c.workload.victim_work_ns.to_string()),
    ..setting(
        "victim_work_ns",
        "workload",
        int(1, MAX_NS),
        Default::Int(10_000),
    )
};
pub static ASID_BITS: Setting = Setting {
    arch: Some(Arch::Arm64),
    doc: "Width of the hardware ASID (real hardware: 8 or 16); small values force rollovers. Needs 2^bits − 1 ≥ cpus + 2.",
    value: Some(|c| c.asid_bits.to_string()),
    ..setting("asid_bits", "machine", int(2, 16), Default::Int(16))
};
pub static BROADCAST_SKIP: Setting = Setting {
    arch: Some(Arch::Arm64),
    doc: "Arcangeli's skip-broadcast series (2020): flush locally when only this CPU runs the mm, broadcast otherwise; off: mainline.",
    value: Some(|c| on_off(c.design.broadcast_skip)),
    ..setting("broadcast_skip", "design", Kind::OnOff, Default::OnOff(false))
};
pub static DSB_BEFORE_DEC: Setting = Setting {
    arch: Some(Arch::Arm64),
    doc: "Skip-broadcast: DSB ISH after TTBR0 leaves an mm and before nr_active_mm-- (the 2020-04-01 fix); off replays R16.",
    value: Some(|c| on_off(c.design.dsb_before_dec)),
    ..setting("dsb_before_dec", "design", Kind::OnOff, Default::OnOff(true))
};
pub static SKIP_RULE: Setting = Setting {
    arch: Some(Arch::Arm64),
    doc: "Skip-broadcast rule: active_mm (v2, counts CPUs with the mm active, kernel threads included) or mm_users (the RFC, blind to lazy kernel threads: R15).",
    value: Some(|c| c.design.skip_rule.name().into()),
    ..setting("skip_rule", "design", Kind::Choice(SkipRule::NAMES), Default::Name("active_mm"))
};
pub static CPU_ID: Setting = Setting {
    arch: Some(Arch::Arm64),
    doc: "How smp_processor_id() finds the CPU number: thread_info (2024, bf0baa5bbdc9) or the per-CPU cpu_number.",
    value: Some(|c| c.design.cpu_id.name().into()),
    ..setting("cpu_id", "design", Kind::Choice(CpuIdImpl::NAMES), Default::Name("thread_info"))
};
pub static MAX_DVM_OPS: Setting = Setting {
    arch: Some(Arch::Arm64),
    doc: "MAX_DVM_OPS (PTRS_PER_PTE): ranges of this many pages or more become one ASID flush.",
    value: Some(|c| c.design.max_dvm_ops.to_string()),
    ..setting("max_dvm_ops", "design", int(1, 1 << 21), Default::Int(512))
};
pub static TLBI_RANGE: Setting = Setting {
    arch: Some(Arch::Arm64),
    doc: "FEAT_TLBIRANGE (ARMv8.4): a ranged flush issues a few range TLBIs (one per scale, at most five) and flushes the whole ASID only above 2^21 pages; off: one TLBI per page, each a DVM message, and an ASID flush from max_dvm_ops pages on.",
    value: Some(|c| on_off(c.design.tlbi_range)),
    ..setting("tlbi_range", "design", Kind::OnOff, Default::Derived("the preset's CPU: off on every arm64 preset (none has FEAT_TLBIRANGE)"))
};
pub static LOCKS: Setting = Setting {
    doc: "Shared kernel locks as FIFO queues with service times (sim-wasm/src/locks.rs): off (none); mmap_lock: faults and madvise take the mm's mmap_lock for read (before per-VMA locks), whose count line serialises the threads of one mm; per_vma: they take the VMA's own lock. Either way the zone lock (per pcp_batch pages allocated or freed) and the LRU lock (per lru_batch folios) are shared by every process. Only waits are added: one thread alone runs as with off.",
    value: Some(|c| c.design.locks.name().into()),
    ..setting("locks", "design", Kind::Choice(LockMode::NAMES), Default::Name("off"))
};
pub static REREAD: Setting = Setting {
    doc: "will-it-scale's tlb_flush loop: op threads read the page back after each op (a fault that maps the zero page or the file's page read-only, allocating nothing), so each iteration's write is a copy-on-write fault that flushes the old entry (ptep_clear_flush) instead of a plain touch.",
    value: Some(|c| on_off(c.workload.reread)),
    ..setting("reread", "workload", Kind::OnOff, Default::OnOff(false))
};
pub static MAPPING: Setting = Setting {
    doc: "With reread: what the op threads' pages are (sim-wasm/src/page_cache.rs). anon (tlb_flush2): the read-back maps the zero page and the write zero-fills a new page (costs.clear_page_ns); file (tlb_flush1, a private file mapping): the read-back looks the file's folio up in the page cache and maps it (costs.page_cache_fault_ns) and the write copies it (costs.copy_page_ns).",
    value: Some(|c| c.workload.mapping.name().into()),
    ..setting("mapping", "workload", Kind::Choice(Mapping::NAMES), Default::Name("anon"))
};

/// Every setting. The order is the one `--set`'s error lists the keys in.
pub static SETTINGS: &[&Setting] = &[
    &ARCH,
    &CPUS,
    &PRESET,
    &TLB_ENTRIES,
    &TLB_WAYS,
    &SOCKETS,
    &TLB_INDEX,
    &STACK_OFFSET,
    &MAX_TIME_NS,
    &MAX_EVENTS,
    &MAX_MEMORY_MB,
    &FLUSH_INFO,
    &PREEMPT,
    &PCID,
    &WAIT_MASK,
    &PLUS_ONE_RULE,
    &LAZY_FREED_TABLES,
    &CEILING,
    &PTI,
    &PTI_USER_FLUSH,
    &SWITCH_MM_BARRIER,
    &TLB_GEN_READ,
    &INVLPGB,
    &GLOBAL_ASID,
    &ASID_TRANSITION,
    &TLBSYNC_PINNED,
    &KERNEL,
    &THREADS,
    &BUSY_THREADS,
    &LAZY_CPUS,
    &FLUSHES,
    &PAGES,
    &INITIATOR,
    &PERIOD_NS,
    &FREED_TABLES,
    &IRQS_OFF_PROBABILITY,
    &IRQS_OFF_GAP_NS,
    &IRQS_OFF_DIST,
    &IRQS_OFF_MEAN_NS,
    &IRQS_OFF_MAX_NS,
    &WAKEUP_PERIOD_NS,
    &WAKEUP_CPU,
    &WAKEUP_WORK_NS,
    &MM_PAGES,
    &OP,
    &PROCESSES,
    &HOT_PAGES,
    &VICTIMS,
    &VICTIM_WORK_NS,
    &REREAD,
    &MAPPING,
    &ASID_BITS,
    &BROADCAST_SKIP,
    &DSB_BEFORE_DEC,
    &SKIP_RULE,
    &CPU_ID,
    &MAX_DVM_OPS,
    &TLBI_RANGE,
    &LOCKS,
    &CACHELINE_BYTES,
    &FLUSH_INFO_BYTES,
];

/// The setting a flat `--set` key names.
pub fn by_key(key: &str) -> Option<&'static Setting> {
    SETTINGS
        .iter()
        .copied()
        .find(|s| s.is_flat() && (s.key == key || s.aliases.contains(&key)))
}

/// The settings only `arch`'s model reads, those of `design` first (the order errors and the
/// retargeting note name them in).
pub fn only_on(arch: Arch) -> impl Iterator<Item = &'static Setting> {
    let of = move |section: &'static str| {
        SETTINGS
            .iter()
            .copied()
            .filter(move |s| s.arch == Some(arch) && s.section == section)
    };
    of("design").chain(of("machine"))
}
