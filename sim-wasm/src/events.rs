//! What the trace records. `EventKind` is shared with TypeScript (the web app and the CLI read
//! the `kind` column as these numbers), which is why it is the one type outside `lib.rs` that
//! carries `#[wasm_bindgen]`: the attribute generates the TS enum, so the two sides cannot drift.
//!
//! Kinds are past-tense facts or named intervals. Span kinds have a duration (`dur` column);
//! instant kinds have `dur == 0`.

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen]
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventKind {
    // ---- spans ----
    /// A task runs on the CPU. `arg` = task id, `mm` = its address space.
    TaskRun = 0,
    /// Preemption disabled on the CPU (`get_cpu()` … `put_cpu()`).
    PreemptOff = 1,
    /// Local interrupts disabled on the CPU; IPIs stay pending in the APIC.
    IrqsOff = 2,
    /// `flush_tlb_mm_range()` on the initiating CPU. `addr` = start page, `arg` = pages, `gen` = new tlb_gen.
    FlushRange = 3,
    /// The initiator spins in `csd_lock_wait()` for remote completions.
    IpiWait = 4,
    /// The call-function IPI handler on a target CPU. `arg` = sender CPU.
    IpiHandler = 5,
    /// `flush_tlb_func()` on a CPU (local or from an IPI). `arg` = 0 nothing to do, 1 partial,
    /// 2 full, 3 not loaded here (cleared itself from the cpumask), 4 lazy (switched to init_mm).
    /// `gen` = the descriptor's `new_tlb_gen` as read at that moment.
    FlushTlbFunc = 6,
    /// `switch_mm_irqs_off()`. `mm` = next mm, `asid` = chosen slot, `gen` = the `tlb_gen` read,
    /// `arg` = 1 if the CR3 write flushed the slot (0 = CR3_NOFLUSH).
    SwitchMm = 7,
    /// The CPU is in lazy-TLB mode (kernel thread on a borrowed mm).
    Lazy = 8,
    /// arm64: the initiator's broadcast `TLBI …IS` ops and its `DSB ISH` wait until every PE
    /// performed them. `arg` = TLBI ops, `asid` = the hardware ASID, `addr` = start page.
    TlbiBroadcast = 9,
    /// arm64: a broadcast waits for the shared interconnect (DVM) behind other broadcasters.
    InterconnectQueued = 10,
    /// arm64: a receiving CPU loses time performing another CPU's broadcast invalidation.
    /// `arg` = the broadcasting CPU.
    VictimStall = 11,
    /// arm64: a local (non-shareable) `TLBI` + `DSB NSH`. `arg` = 0 by VA, 1 whole ASID
    /// (`ASIDE1`), 2 everything (`VMALLE1`); `asid` = the hardware ASID.
    LocalTlbi = 12,
    /// arm64: a page-table walk still in flight after `TTBR0_EL1` moved away from `mm`.
    PageWalk = 13,

    // ---- instants ----
    /// An IPI was sent. `cpu` = sender, `arg` = target CPU.
    IpiSent = 32,
    /// A target unlocked the sender's csd (the SYNC ack). `cpu` = target, `arg` = sender CPU.
    CsdUnlocked = 33,
    /// `inc_mm_tlb_gen()`: `gen` = the mm's new generation.
    TlbGenIncremented = 34,
    // 35 and 36 were TlbFlushedPartial / TlbFlushedFull, never recorded (FlushTlbFunc's `arg`
    // says partial or full); the codes stay unused so no other kind changes meaning.
    /// TLB lookups of one `touch` missed and page walks refilled them. `addr` = first missed
    /// page, `arg` = number of misses.
    TlbMissed = 37,
    /// A high-priority task became runnable on the CPU. `arg` = task id.
    TaskWoken = 38,
    /// An invariant was violated. `arg` = index into the string table with the explanation.
    InvariantViolated = 39,
    /// A CPU cleared itself from `mm_cpumask(mm)`.
    CpumaskCleared = 40,
    /// The running task was preempted. `arg` = task id.
    TaskPreempted = 41,
    /// A task moved to this CPU. `arg` = task id.
    TaskMigrated = 42,
    /// arm64 `flush_context()`: the ASID generation rolled over. `gen` = the new generation.
    AsidRollover = 43,
    /// arm64 `tlb_flush_check()`: `arg` = 0 no flush, 1 local, 2 broadcast.
    TlbFlushChecked = 44,
    /// `preempt_count` changed (`preempt_disable`/`enable`). `arg` = the new count.
    PreemptCountOp = 45,
    /// arm64 `new_context()`: `mm` got hardware ASID `asid` in generation `gen`.
    AsidAllocated = 46,
    /// arm64 skip-broadcast: `nr_active_mm` of `mm` changed; `arg` = the new count.
    NrActiveMmChanged = 47,
}

impl EventKind {
    /// The kind with this name (as written in scenario steps, e.g. `IpiSent`).
    pub fn from_name(name: &str) -> Option<EventKind> {
        EventKind::ALL
            .iter()
            .copied()
            .find(|k| format!("{k:?}") == name)
    }

    /// Whether rows of this kind are intervals (non-zero `dur`) rather than instants.
    pub fn is_span(self) -> bool {
        (self as u8) < 32
    }

    /// Every kind, in code order: the one list tests and docs iterate over.
    pub const ALL: [EventKind; 28] = [
        EventKind::TaskRun,
        EventKind::PreemptOff,
        EventKind::IrqsOff,
        EventKind::FlushRange,
        EventKind::IpiWait,
        EventKind::IpiHandler,
        EventKind::FlushTlbFunc,
        EventKind::SwitchMm,
        EventKind::Lazy,
        EventKind::TlbiBroadcast,
        EventKind::InterconnectQueued,
        EventKind::VictimStall,
        EventKind::LocalTlbi,
        EventKind::PageWalk,
        EventKind::IpiSent,
        EventKind::CsdUnlocked,
        EventKind::TlbGenIncremented,
        EventKind::TlbMissed,
        EventKind::TaskWoken,
        EventKind::InvariantViolated,
        EventKind::CpumaskCleared,
        EventKind::TaskPreempted,
        EventKind::TaskMigrated,
        EventKind::AsidRollover,
        EventKind::TlbFlushChecked,
        EventKind::PreemptCountOp,
        EventKind::AsidAllocated,
        EventKind::NrActiveMmChanged,
    ];
}
