//! Tasks (threads): which mm they belong to, where they run, their priority, their program and
//! where they are in it, and — while inside `flush_tlb_mm_range()` — the state of that flush.
//!
//! A task advances in *steps*: a step has a cost in simulated time and a continuation ([`Cont`])
//! that runs when the step completes. Preempting a task saves the rest of its step; an
//! interrupt handler on its CPU pushes the step's completion back by the handler's duration.

use crate::ids::{CpuId, DescId, MmId, Ns, TaskId};
use crate::trace::Row;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaskState {
    Blocked,
    Runnable,
    Running,
    Done,
}

/// What a task does when its current step completes (or when it is switched back in while
/// it was spinning on a csd).
///
/// `repr(u8)` gives it a tag of its own, which `step_done`'s match indexes its jump table
/// with: packed into `FlushPhase`'s spare values, the tag was decoded first (five more
/// instructions for every step completed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cont {
    /// Start the op at `pc`.
    Start,
    /// The op at `pc` is finished: go to the next one.
    NextOp,
    /// End an `irqsoff` window, then go on.
    StiThenNext,
    /// `preempt_enable()` at the end of a per-CPU access window, then go on.
    PreemptEnableThenNext,
    /// Continue the flush protocol (arch-specific phase).
    Flush(FlushPhase),
}

/// Phases of `flush_tlb_mm_range()` → `flush_tlb_multi()` → `smp_call_function_many_cond()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlushPhase {
    /// PTEs zapped: `get_cpu`, `inc_mm_tlb_gen`, fill the descriptor, pick the targets.
    Begin,
    /// `csd_lock` + `llist_add` + IPI for the next target.
    Dispatch,
    /// The local `flush_tlb_func` ran with IRQs off; turn them back on and start waiting.
    LocalDone,
    /// `csd_lock_wait` over the wait mask.
    Wait,
}

/// One `flush_tlb_mm_range()` in flight, owned by the task that called it.
#[derive(Debug)]
pub struct FlushOp {
    pub mm: MmId,
    pub start: u32,
    pub pages: u32,
    pub freed_tables: bool,
    pub new_tlb_gen: u64,
    pub desc: DescId,
    /// The CPU the flush was dispatched from (whose `cfd_data` holds the csds).
    pub cpu: CpuId,
    pub targets: Vec<u16>,
    pub next_target: usize,
    /// `for_each_cpu` position in the wait loop (-1 before the first target).
    pub cursor: i32,
    pub flush_row: Row,
    pub poff_row: Option<Row>,
    pub poff_start: Ns,
    pub wait_row: Option<Row>,
    pub started: Ns,
    /// The PTEs are changed but stay present (mprotect, copy-on-write) instead of zapped.
    pub keep_present: bool,
    /// arm64: the `tlb_flush_check()` outcome (0 no flush, 1 local, 2 broadcast).
    pub check: u8,
    /// x86: what the wait's reads of the csds its targets unlocked cost (each a line transfer,
    /// by how far its line came), paid when `flush_tlb_mm_range()` returns.
    pub wait_read_ns: Ns,
}

crate::clone_reusing::clone_reusing!(FlushOp {
    mm,
    start,
    pages,
    freed_tables,
    new_tlb_gen,
    desc,
    cpu,
    targets,
    next_target,
    cursor,
    flush_row,
    poff_row,
    poff_start,
    wait_row,
    started,
    keep_present,
    check,
    wait_read_ns,
});

impl FlushOp {
    /// A flush about to begin: the arch fills in generation, descriptor and rows as it goes.
    pub fn new(
        mm: MmId,
        cpu: CpuId,
        start: u32,
        pages: u32,
        freed_tables: bool,
        targets: Vec<u16>,
    ) -> FlushOp {
        FlushOp {
            mm,
            start,
            pages,
            freed_tables,
            new_tlb_gen: 0,
            desc: 0,
            cpu,
            targets,
            next_target: 0,
            cursor: -1,
            flush_row: 0,
            poff_row: None,
            poff_start: 0,
            wait_row: None,
            started: 0,
            keep_present: false,
            check: 0,
            wait_read_ns: 0,
        }
    }
}

#[derive(Debug)]
pub struct Task {
    pub id: TaskId,
    pub name: String,
    pub mm: MmId,
    pub prio: u8,
    pub allowed: Vec<CpuId>,
    pub cpu: CpuId,
    pub state: TaskState,
    /// Index into `World::programs`.
    pub program: usize,
    pub pc: usize,
    pub iter: u32,
    pub repeat: u32,
    pub daemon: bool,
    pub measure: bool,
    /// A victim-compute task: each iteration is a sample of `victim_op_ns`.
    pub victim: bool,
    pub iter_start: Ns,
    pub measured: bool,
    /// Bumped whenever scheduled events for this task become obsolete.
    pub epoch: u32,
    /// Completion time of the current step, if one is timed.
    pub deadline: Option<Ns>,
    /// What was left of the step when the task was preempted.
    pub remaining: Option<Ns>,
    pub cont: Cont,
    /// Whether the current step may be preempted (user mode, or a preemptible wait).
    pub preemptible: bool,
    /// When a high-priority task became runnable (for wakeup latency).
    pub woken_at: Option<Ns>,
    pub flush: Option<FlushOp>,
    /// The task-local IPI wait mask (2026).
    pub ipi_mask: Vec<u16>,
}

crate::clone_reusing::clone_reusing!(Task {
    id,
    name,
    mm,
    prio,
    allowed,
    cpu,
    state,
    program,
    pc,
    iter,
    repeat,
    daemon,
    measure,
    victim,
    iter_start,
    measured,
    epoch,
    deadline,
    remaining,
    cont,
    preemptible,
    woken_at,
    flush,
    ipi_mask,
});

impl Task {
    pub fn new(id: TaskId, name: String, mm: MmId, cpu: CpuId, program: usize) -> Task {
        Task {
            id,
            name,
            mm,
            prio: 0,
            allowed: vec![cpu],
            cpu,
            state: TaskState::Blocked,
            program,
            pc: 0,
            iter: 0,
            repeat: 1,
            daemon: false,
            measure: false,
            victim: false,
            iter_start: 0,
            measured: false,
            epoch: 0,
            deadline: None,
            remaining: None,
            cont: Cont::Start,
            preemptible: false,
            woken_at: None,
            flush: None,
            ipi_mask: Vec::new(),
        }
    }
}
