//! The simulated system (`World`): CPUs, address spaces, tasks, the cross-call state, the
//! event queue, the trace and the one RNG. This file holds the world's construction, the
//! event loop and the interrupt side (IPI arrival, the call-function handler); the scheduler
//! is in `sched.rs`, task programs in `ops.rs`, and the TLB protocol in `arch/`.
//!
//! The protocol of one shootdown (`flush_tlb_mm_range()` in `arch/x86/mm/tlb.c` over
//! `smp_call_function_many_cond()` in `kernel/smp.c`), as events:
//! initiator: zap PTEs → `get_cpu`, `inc_mm_tlb_gen`, fill descriptor → per target `csd_lock`,
//! `llist_add`, IPI if the queue was empty → local `flush_tlb_func` (IRQs off) →
//! `csd_lock_wait` per target → `put_cpu` (where depends on `preempt`).
//! target: IPI pending while IRQs are off → handler entry → per request `flush_tlb_func`
//! then csd unlock (SYNC ack) → handler exit.

use crate::arch::state::ArchState;
use crate::budget::Stop;
use crate::config::{Config, Mapping, WorkOp};
use crate::cpu::{Cpu, Handler};
use crate::engine::Queue;
use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns, TaskId};
use crate::ipi::{Cfd, FlushTlbInfo};
use crate::mm::Mm;
use crate::page_cache::Backing;
use crate::program::Op;
use crate::rng::Rng;
use crate::snapshot::{AsidAllocator, MmContext, Slot};
use crate::summary::{Collector, Violation};
use crate::task::{FlushOp, FlushPhase, Task, TaskState};
use crate::tlb::Tlb;
use crate::trace::{Fields, Row};
use crate::trace_store::TraceStore;

/// Marks a `fire` sequence number as a migration choice (queue sequence numbers never get
/// this high): task in bits 16.., CPU in bits 0..16.
const MIGRATION_SEQ: u64 = 1 << 63;

/// Most violations recorded as rows; later ones are only counted.
const MAX_VIOLATION_ROWS: usize = 10_000;

pub use crate::ids::USER_BASE;

/// The architecture protocol: what the machine asks of an architecture's TLB code. x86
/// (`arch/x86/`) implements it with PCID slots and IPI shootdowns; arm64 (`arch/arm64/`) with
/// broadcast TLBI, ASID generations and the skip-broadcast series. It is declared here, beside
/// the `World` it operates on, so the machine depends on no architecture: `arch/` depends on
/// the machine, never the other way round. Each architecture keeps its own state in its part
/// of [`ArchState`], which generic code never reads.
pub trait Arch: Sync {
    fn name(&self) -> &'static str;

    /// Builds this architecture's part of `w.arch_state` for `w`'s CPUs and address spaces.
    fn init_state(&self, w: &mut World);

    /// The tag (x86 PCID slot, arm64 hardware ASID) of the translations `cpu` uses right now.
    fn tlb_tag(&self, w: &World, cpu: CpuId) -> u16;

    /// Context switch of the address space on `cpu` to `next` (IRQs off). Returns its cost.
    fn switch_mm(&self, w: &mut World, cpu: CpuId, next: MmId) -> Ns;

    /// The CPU runs a kernel thread or goes idle, keeping the user mm loaded (lazy TLB).
    fn enter_lazy_tlb(&self, w: &mut World, cpu: CpuId);

    /// A task is about to unmap `[page, page+n)` of its mm: remember what to flush.
    fn prepare_flush(&self, w: &mut World, t: TaskId, page: u32, n: u32, freed_tables: bool);

    /// Advance the task's flush by one phase (the arch drives the task with `World::step`).
    fn flush_step(&self, w: &mut World, t: TaskId, phase: FlushPhase);

    /// Run one cross-call request from `sender` in `cpu`'s IPI handler (its span a child of
    /// the handler's row `handler`). Returns its cost.
    fn call_func(&self, w: &mut World, cpu: CpuId, sender: CpuId, handler: Row) -> Ns;

    /// The CPU speculatively walks the page tables it has loaded (the `speculate` op).
    fn speculative_walk(&self, w: &mut World, cpu: CpuId);

    /// A timer the arch scheduled with `Ev::arch_timer` fired (e.g. arm64: a queued broadcast
    /// reaches the interconnect). `data` is what the arch stored.
    fn on_timer(&self, _w: &mut World, _cpu: CpuId, _data: u32) {}

    /// What a timer with this `data` is, and what it does when it fires, for a
    /// counterexample's steps ("CPU 1's <what> <does>").
    fn timer_label(&self, _data: u32) -> (&'static str, &'static str) {
        ("queued broadcast", "reaches the interconnect")
    }

    /// A TLB hit found another mm's entry under the current tag: the invariant that breaks
    /// and why, in this architecture's terms.
    fn tag_alias_invariant(&self) -> (&'static str, &'static str);

    /// A stale TLB hit of `mm`'s page `vpn` (PTE version `version`): checks what this
    /// architecture's per-CPU bookkeeping claims about it. Returns whether it recorded a
    /// violation.
    fn check_stale_hit(
        &self,
        _w: &mut World,
        _cpu: CpuId,
        _mm: MmId,
        _vpn: u32,
        _version: u32,
    ) -> bool {
        false
    }

    /// `n` calls of `smp_processor_id()`: their cost.
    fn smp_processor_id_cost(&self, w: &World, n: u64) -> Ns;

    /// One `this_cpu_inc()` by task `t`, with whatever preemption window the architecture
    /// needs around it; the task goes on by itself.
    fn this_cpu_inc(&self, w: &mut World, t: TaskId);

    /// For the inspector: `cpu`'s loaded mm, the tag its translations use, and whether it is
    /// lazy.
    fn loaded(&self, w: &World, cpu: CpuId) -> (MmId, u16, bool);

    /// For the inspector: the mm `cpu` is switching to between publishing the switch and its
    /// CR3 write (x86 `loaded_mm == LOADED_MM_SWITCHING`, race R7), and whether the stores
    /// saying so are still in its store buffer. None outside such a window.
    fn switching(&self, _w: &World, _cpu: CpuId) -> Option<(MmId, bool)> {
        None
    }

    /// For the inspector: the per-CPU tag slots (x86 PCID slots; none on arm64).
    fn tag_slots(&self, _w: &World, _cpu: CpuId) -> Vec<Slot> {
        Vec::new()
    }

    /// For the inspector: the architecture's context of `mm` (arm64 ASID, `nr_active_mm`).
    fn mm_context(&self, _w: &World, _mm: MmId) -> MmContext {
        MmContext::default()
    }

    /// For the inspector: the ASID allocator's global state, where there is one.
    fn asid_allocator(&self, _w: &World) -> Option<AsidAllocator> {
        None
    }

    /// The tag user-mode accesses on `cpu` use, after whatever the return to user space must
    /// do first (x86 PTI: the user PCID, flushed if a flush was deferred to this return).
    fn user_tag(&self, w: &mut World, cpu: CpuId) -> u16 {
        self.tlb_tag(w, cpu)
    }

    /// The tag of the kernel's own translations on `cpu`; `None` when they are global.
    fn kernel_tag(&self, _w: &World, _cpu: CpuId) -> Option<u16> {
        None
    }

    /// The extra cost of one trip into the kernel and back from user mode on `cpu` (a
    /// syscall, a fault, an interrupt of user code): x86 PTI's two CR3 switches.
    fn kernel_entry(&self, _w: &mut World, _cpu: CpuId) -> Ns {
        0
    }
}

/// One user access, as the hardware performed it (recorded only when a test asks for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    pub time: Ns,
    pub cpu: CpuId,
    pub mm: MmId,
    pub vpn: u32,
    /// The PTE version of the translation used (from the TLB, or the page table on a miss).
    pub version: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A task's current step completes (ignored unless `epoch` still matches).
    Step { task: u32, epoch: u32 },
    /// A blocked task's timer fires.
    Wake { task: u32, epoch: u32 },
    /// An IPI reaches `cpu`'s local APIC.
    IpiArrive { cpu: u16, sent: Row },
    /// The handler on `cpu` finished its current part (entry, one request, or exit).
    HandlerNext { cpu: u16 },
    /// A timer of the architecture (`Arch::on_timer`), e.g. a queued arm64 broadcast.
    ArchTimer { cpu: u16, data: u32 },
    /// The load balancer moves a queued (preempted) task to another CPU it may run on. Never
    /// queued: the interleaving checker offers it as a choice (`World::migration_choices`).
    Migrate { task: u32, cpu: u16 },
}

/// An [`Event`] packed into one `u64` (3-bit kind, 29-bit task or CPU, 32-bit epoch or row).
/// Queue entries are then three plain words, written and read whole; an enum built field by
/// field on the stack made every push stall on store forwarding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ev(u64);

impl Ev {
    const MASK29: u64 = (1 << 29) - 1;

    fn pack(kind: u64, who: u32, data: u32) -> Ev {
        Ev((kind << 61) | ((who as u64 & Self::MASK29) << 32) | data as u64)
    }

    pub fn step(task: u32, epoch: u32) -> Ev {
        Self::pack(0, task, epoch)
    }
    pub fn wake(task: u32, epoch: u32) -> Ev {
        Self::pack(1, task, epoch)
    }
    pub fn ipi_arrive(cpu: u16, sent: Row) -> Ev {
        Self::pack(2, cpu as u32, sent)
    }
    pub fn handler_next(cpu: u16) -> Ev {
        Self::pack(3, cpu as u32, 0)
    }
    pub fn arch_timer(cpu: u16, data: u32) -> Ev {
        Self::pack(4, cpu as u32, data)
    }
    pub fn migrate(task: u32, cpu: u16) -> Ev {
        Self::pack(5, task, cpu as u32)
    }

    /// A task's step (kind 0): one unsigned compare of the word.
    fn is_step(self) -> bool {
        self.0 < 1 << 61
    }
    /// A handler's next part (kind 3), tested on the word as a range: a test of the kind
    /// would join the jump table's.
    fn is_handler_next(self) -> bool {
        self.0.wrapping_sub(3 << 61) < 1 << 61
    }
    fn who(self) -> u32 {
        ((self.0 >> 32) & Self::MASK29) as u32
    }
    fn data(self) -> u32 {
        self.0 as u32
    }

    pub fn unpack(self) -> Event {
        let (who, data) = (self.who(), self.data());
        match self.0 >> 61 {
            0 => Event::Step {
                task: who,
                epoch: data,
            },
            1 => Event::Wake {
                task: who,
                epoch: data,
            },
            2 => Event::IpiArrive {
                cpu: who as u16,
                sent: data,
            },
            3 => Event::HandlerNext { cpu: who as u16 },
            4 => Event::ArchTimer {
                cpu: who as u16,
                data,
            },
            _ => Event::Migrate {
                task: who,
                cpu: data as u16,
            },
        }
    }
}

pub struct World {
    /// Shared, not copied, when the interleaving checker clones a world per state.
    pub(crate) cfg: std::sync::Arc<Config>,
    pub(crate) trace: TraceStore,
    pub(crate) queue: Queue<Ev>,
    pub(crate) rng: Rng,
    pub(crate) cpus: Vec<Cpu>,
    pub(crate) mms: Vec<Mm>,
    pub(crate) tasks: Vec<Task>,
    /// Shared like `cfg`: fixed once the tasks are built.
    pub(crate) programs: std::sync::Arc<Vec<Vec<Op>>>,
    /// Flush descriptors: one per CPU, then one per task (its stack).
    pub(crate) descs: Vec<FlushTlbInfo>,
    pub(crate) cfd: Vec<Cfd>,
    pub(crate) stats: Collector,
    pub(crate) arch: crate::config::Arch,
    /// Every user access, when enabled (`Session::record_accesses`): lets tests check the
    /// engine against an independent reference model.
    pub(crate) accesses: Option<Vec<Access>>,
    /// Target lists of finished flushes, for the next ones to reuse: one list was not enough
    /// when several tasks flush at once (each flush but one then allocated and regrew its
    /// list, 2 % of a WASM bench run).
    pub(crate) scratch_targets: Vec<Vec<u16>>,
    /// The architecture's own state (see [`Arch::init_state`]).
    pub(crate) arch_state: ArchState,
    /// The measured window: from the first measured task's start (`measure_from`) while
    /// `measured_left` measured tasks have not finished. Misses in it feed
    /// `tlb_misses_measured`, which leaves out warm-up tasks that ran before it.
    measure_from: Ns,
    measured_left: u32,
    /// Events that did something (stale ones, superseded by a reschedule, are not counted).
    events: u64,
    /// Every pop, stale or not: bounds the run.
    popped: u64,
    /// Pops left in `run_for`'s stretch of unchecked events, counting `work` as pops: before
    /// it ends none of the run's limits can stop the run. A finished task cuts it short.
    stretch_left: u64,
    live: u32,
    /// Some task is not a daemon: the run ends when the last such task finishes.
    has_finite_tasks: bool,
    finished: bool,
    /// Set when the run's budget (`budget.rs`) stopped it before its work was done.
    pub(crate) stopped: Option<Stop>,
    /// Bytes of the machine's state, counted once (see `budget::state_bytes`).
    state_bytes: u64,
    /// Work beyond one unit per event that the event budget counts: an arm64 broadcast TLBI is
    /// one event but invalidates on every PE, so it counts once per PE and op.
    pub(crate) work: u64,
    /// The shared locks of `design.locks` and their batch counters.
    pub(crate) locks: crate::locks::Locks,
    /// Set by the interleaving checker: a preempted task waits in its CPU's queue instead of
    /// moving at once to an idle CPU, and moving it to any CPU it may run on is a choice
    /// (`migration_choices`), so both "stays" and "moves" are explored.
    pub(crate) migration_choices: bool,
}

crate::clone_reusing::clone_reusing!(World {
    cfg,
    trace,
    queue,
    rng,
    cpus,
    mms,
    tasks,
    programs,
    descs,
    cfd,
    stats,
    arch,
    accesses,
    scratch_targets,
    arch_state,
    measure_from,
    measured_left,
    events,
    popped,
    stretch_left,
    live,
    has_finite_tasks,
    finished,
    stopped,
    state_bytes,
    work,
    locks,
    migration_choices,
});

impl World {
    pub fn new(cfg: Config, seed: u64, arch: crate::config::Arch) -> Self {
        let n = cfg.cpus;
        let cpus = (0..n)
            .map(|c| {
                Cpu::new(
                    CpuId(c),
                    Tlb::new(cfg.tlb_entries, cfg.tlb_ways, cfg.tlb_index),
                )
            })
            .collect();
        let mut w = World {
            trace: TraceStore::default(),
            queue: Queue::default(),
            rng: Rng::new(seed),
            cpus,
            mms: Vec::new(),
            tasks: Vec::new(),
            programs: Default::default(),
            descs: Vec::new(),
            cfd: vec![Cfd::default(); n as usize],
            stats: Collector::default(),
            arch,
            scratch_targets: Vec::new(),
            arch_state: ArchState::default(),
            accesses: None,
            measure_from: Ns::MAX,
            measured_left: 0,
            events: 0,
            popped: 0,
            stretch_left: 0,
            live: 0,
            has_finite_tasks: false,
            finished: false,
            stopped: None,
            work: 0,
            locks: crate::locks::Locks::new(n),
            migration_choices: false,
            state_bytes: crate::budget::state_bytes(&cfg),
            cfg: std::sync::Arc::new(cfg),
        };
        w.create_tasks();
        for t in w.tasks.iter().filter(|t| t.measure) {
            w.measure_from = w.measure_from.min(t.iter_start);
            w.measured_left += 1;
        }
        let used_mms = w.tasks.iter().map(|t| t.mm.0).max().unwrap_or(0).max(1);
        let mut used = vec![false; used_mms as usize + 1];
        for t in &w.tasks {
            used[t.mm.0 as usize] = true;
        }
        w.mms = (0..=used_mms)
            .map(|m| {
                let pages = if used[m as usize] && m != 0 {
                    w.cfg.workload.mm_pages
                } else {
                    0
                };
                Mm::new(MmId(m), n, pages)
            })
            .collect();
        // init_mm is loaded everywhere at boot.
        w.mms[0].loaded_on = n as u32;
        w.descs = vec![FlushTlbInfo::default(); n as usize + w.tasks.len()];
        arch.init_state(&mut w);
        w.queue.set_limit(w.cfg.max_time_ns);
        for i in 0..w.tasks.len() {
            let start = w.tasks[i].iter_start;
            w.queue.at(start, Ev::wake(i as u32, 0));
        }
        w
    }

    /// Builds the generated workload's tasks and the scenario's explicit ones.
    fn create_tasks(&mut self) {
        let wl = self.cfg.workload.clone();
        let add = |w: &mut World, name: String, mm: u16, cpu: u16, program: Vec<Op>| {
            let id = TaskId(w.tasks.len() as u32);
            std::sync::Arc::make_mut(&mut w.programs).push(program);
            let t = Task::new(id, name, MmId(mm), CpuId(cpu), w.programs.len() - 1);
            w.tasks.push(t);
            id
        };
        let first = wl.initiator.0;
        if wl.flushes > 0 {
            for i in 0..wl.threads {
                // One process per op thread, or every op thread in mm 1 on its own pages.
                let (mm, page) = if wl.processes {
                    (1 + i, 0)
                } else {
                    (1, (i as u32).saturating_mul(wl.pages))
                };
                let n = wl.pages;
                if wl.processes {
                    // The main thread started the worker and waits for it (pthread_join).
                    let prog = vec![Op::Touch { page, n: 1 }, Op::Sleep(1_000_000_000_000)];
                    let id = add(self, format!("main{i}"), mm, first + i, prog);
                    self.tasks[id.index()].daemon = true;
                }
                let mut prog = Vec::new();
                if wl.hot_pages > 0 {
                    // Hot data after every op range (the process's own, or this thread's).
                    let ranges = if wl.processes { 1 } else { wl.threads as u32 };
                    let idx = if wl.processes { 0 } else { i as u32 };
                    let hot = ranges
                        .saturating_mul(wl.pages)
                        .saturating_add(idx.saturating_mul(wl.hot_pages));
                    prog.push(Op::Touch {
                        page: hot,
                        n: wl.hot_pages,
                    });
                }
                // will-it-scale's loop: the read-back maps the page read-only, so the next
                // write is a copy-on-write fault that flushes the old entry.
                let from = match wl.mapping {
                    Mapping::Anon => Backing::Zero,
                    Mapping::File => Backing::File,
                };
                prog.push(if wl.reread {
                    Op::Cow { page, n, from }
                } else {
                    Op::Touch { page, n }
                });
                prog.push(match wl.op {
                    WorkOp::Madvise => Op::Madvise { page, n },
                    WorkOp::Munmap => Op::Munmap { page, n },
                    WorkOp::Mprotect => Op::Mprotect { page, n },
                    WorkOp::Cow => Op::Cow {
                        page,
                        n,
                        from: Backing::Page,
                    },
                });
                if wl.reread {
                    prog.push(Op::Read { page, n, from });
                }
                if wl.period_ns > 0 {
                    prog.push(Op::Pace(wl.period_ns));
                }
                let id = add(self, format!("op{i}"), mm, first + i, prog);
                let t = &mut self.tasks[id.index()];
                if wl.processes && wl.period_ns > 0 {
                    // Instances started one after another, spread over one period.
                    t.iter_start = wl.period_ns * i as u64 / wl.threads.max(1) as u64;
                }
                t.repeat = wl.flushes;
                t.measure = true;
            }
        }
        for i in 0..wl.lazy_cpus {
            let cpu = first + wl.threads + i;
            let prog = vec![Op::Touch { page: 0, n: 1 }, Op::Sleep(1_000_000_000_000)];
            let id = add(self, format!("lazy{i}"), 1, cpu, prog);
            self.tasks[id.index()].daemon = true;
        }
        for i in 0..wl.busy_threads {
            let cpu = first + wl.threads + wl.lazy_cpus + i;
            let prog = if wl.irqs_off_probability > 0.0 {
                vec![Op::Spin(Some(wl.irqs_off_gap_ns)), Op::MaybeIrqsOff]
            } else {
                vec![Op::Spin(None)]
            };
            let id = add(self, format!("busy{i}"), 1, cpu, prog);
            let t = &mut self.tasks[id.index()];
            t.repeat = 0;
            t.daemon = true;
        }
        for i in 0..wl.victims {
            let prog = crate::victims::program(&wl);
            let (mm, cpu) = (
                crate::victims::victim_mm(&wl, i),
                crate::victims::victim_cpu(&wl, i),
            );
            let id = add(self, format!("victim{i}"), mm, cpu, prog);
            let t = &mut self.tasks[id.index()];
            t.repeat = 0;
            t.daemon = true;
            t.victim = true;
        }
        if wl.wakeup_period_ns > 0 {
            let prog = vec![
                Op::Sleep(wl.wakeup_period_ns),
                Op::Spin(Some(wl.wakeup_work_ns)),
            ];
            let id = add(self, "rt".into(), 2, wl.wakeup_cpu.0, prog);
            let t = &mut self.tasks[id.index()];
            t.repeat = 0;
            t.daemon = true;
            t.prio = 10;
        }
        for spec in self.cfg.tasks.clone() {
            let id = add(self, spec.name, spec.mm.0, spec.cpu.0, spec.program);
            let t = &mut self.tasks[id.index()];
            t.allowed = spec.cpus;
            t.prio = spec.prio;
            t.iter_start = spec.start_ns;
            t.repeat = spec.repeat;
            t.daemon = spec.daemon;
            t.measure = spec.measure;
        }
        self.live = self.tasks.iter().filter(|t| !t.daemon).count() as u32;
        self.has_finite_tasks = self.live > 0;
    }

    /// Simulated events processed so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    pub fn now(&self) -> Ns {
        self.queue.now()
    }

    pub fn is_done(&self) -> bool {
        self.finished
    }

    /// Processes up to `budget` events; returns true when the run is complete.
    pub fn run_for(&mut self, budget: u64) -> bool {
        let mut left = budget;
        while !self.finished && left > 0 {
            if self.live == 0 && self.has_finite_tasks {
                self.finish();
                break;
            }
            let counted = self.popped.saturating_add(self.work);
            if counted >= self.cfg.max_events {
                self.stop(Stop::Events);
                break;
            }
            // Often enough that one stretch of events cannot outgrow the budget by much.
            if self.popped.is_multiple_of(64)
                && self.used_bytes() > crate::budget::limit_bytes(&self.cfg)
            {
                self.stop(Stop::Memory);
                break;
            }
            // The tests above pass, as they did, for every event up to the next multiple of 64
            // pops, the end of the budget or the event limit, unless an event ends a task
            // (`task_done` ends the stretch) or adds `work` (counted with the pops, so the
            // stretch ends no later than the limit). Checked per event, they were ~2 % of the
            // instructions of a run.
            let stretch = left.min(64 - self.popped % 64);
            self.stretch_left = stretch.min(self.cfg.max_events - counted);
            let first = self.popped;
            loop {
                // Nothing pending, or nothing due before the run's time limit: the run is over.
                let Some(ev) = self.queue.pop_due() else {
                    self.finish();
                    return true;
                };
                self.popped += 1;
                if self.handle(ev) {
                    self.events += 1;
                }
                // At least 1 here (`task_done` and `add_work` leave 1 for this event): one
                // decrement and test of memory, where the limits' sum took five instructions.
                self.stretch_left -= 1;
                if self.stretch_left == 0 {
                    break;
                }
            }
            left -= self.popped - first;
        }
        self.finished
    }

    /// Forgets generations of `mm` that no CPU's slot can still advance across: the oldest
    /// generation an x86 PCID slot of the mm holds (arm64 keeps no slots that read them).
    /// Takes the fields it uses, not the world: the x86 caller holds its task's flush.
    pub fn trim_gen_ranges(mms: &mut [Mm], arch: &ArchState, mm: MmId) {
        let Some(m) = mms.get(mm.0 as usize) else {
            return;
        };
        if !m.wants_trim() {
            return;
        }
        let oldest = arch
            .x86
            .cpu_tlbstate
            .iter()
            .flat_map(|ts| ts.ctxs.iter())
            .filter(|s| s.ctx_id == m.ctx_id)
            .map(|s| s.tlb_gen)
            .fold(m.tlb_gen.saturating_sub(1), u64::min);
        mms[mm.0 as usize].forget_gens_upto(oldest);
    }

    /// `flush_tlb_mm_range()` begins (on either architecture): the PTEs change first, then
    /// `inc_mm_tlb_gen()`, and the flush's span opens. Returns the span's fields (`gen` = the new
    /// generation), which the caller's follow-up rows reuse.
    pub fn open_flush_range(
        trace: &mut TraceStore,
        m: &mut Mm,
        op: &mut FlushOp,
        cpu: CpuId,
        now: Ns,
    ) -> Fields {
        let gen = m.zap_and_inc_tlb_gen(op.start, op.pages, false, op.keep_present);
        op.new_tlb_gen = gen;
        let f = Fields {
            mm: op.mm,
            gen,
            addr: USER_BASE + op.start as u64 * 4096,
            arg: op.pages as u64,
            ..Fields::default()
        };
        op.flush_row = trace.begin(now, cpu, EventKind::FlushRange, f);
        f
    }

    /// `flush_tlb_mm_range()` returned (on either architecture): close its span, record its
    /// latency, and let the caller free what it unmapped: the pages' translations older than
    /// the new generation may no longer be used (I3), nor freed page tables walked (I4).
    /// `flush_tlb_mm_range()` returns at `now` (at or after the current time).
    pub fn flush_returned(&mut self, op: &FlushOp, now: Ns) {
        self.trace.end(op.flush_row, now);
        self.stats
            .flush_latency
            .push(now.saturating_sub(op.started) as f64);
        let m = &mut self.mms[op.mm.0 as usize];
        let end = (op.start as usize + op.pages as usize).min(m.pages.len());
        let safe = op.new_tlb_gen.min(u32::MAX as u64) as u32;
        for p in &mut m.pages[(op.start as usize).min(end)..end] {
            p.safe = p.safe.max(safe);
        }
        if op.freed_tables {
            m.tables_freed_gen = m.tables_freed_gen.max(op.new_tlb_gen);
        }
    }

    /// Processes every event scheduled at or before `t` (for a state snapshot at `t`).
    pub fn run_until(&mut self, t: Ns) {
        while !self.finished && self.queue.peek_time().is_some_and(|next| next <= t) {
            self.run_for(1);
        }
    }

    /// Runs to completion.
    pub fn run(&mut self) {
        while !self.run_for(1 << 16) {}
    }

    /// Bytes the run holds now, as the memory budget counts them: the machine's state, the
    /// trace, the pending events and the statistics gathered for the summary.
    pub fn used_bytes(&self) -> u64 {
        let s = &self.stats;
        let samples = s.flush_latency.len()
            + s.preempt_off.len()
            + s.op_latency.len()
            + s.wakeup_latency.len()
            + s.interconnect_queue.len()
            + s.victim_op.len()
            + self.locks.samples();
        let gens: usize = self.mms.iter().map(|m| m.gen_ranges.len()).sum();
        self.state_bytes
            + self.trace.bytes()
            + self.queue.len() as u64 * crate::budget::QUEUE_ENTRY_BYTES
            + samples as u64 * 8
            + s.violations.len() as u64 * 96
            + gens as u64 * 12
    }

    fn stop(&mut self, why: Stop) {
        self.stopped = Some(why);
        self.finish();
    }

    /// Why the run stopped before its work was done, as the error to show (None if it was not).
    pub fn budget_error(&self) -> Option<crate::error::SimError> {
        let why = self.stopped?;
        let progress = crate::budget::Progress {
            events: self.events,
            now: self.now(),
            rows: self.trace.len(),
            bytes: self.used_bytes(),
        };
        let (path, message) = crate::budget::explain(why, &self.cfg, &progress);
        Some(crate::error::SimError::new(path, message))
    }

    fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        let end = self.queue.now();
        self.trace.close_all(end);
    }

    pub fn task_done(&mut self, t: TaskId) {
        // `run_for` tests again before the next event whether the run is over.
        self.stretch_left = 1;
        if !self.tasks[t.index()].daemon {
            self.live = self.live.saturating_sub(1);
        }
        if self.tasks[t.index()].measure {
            self.measured_left = self.measured_left.saturating_sub(1);
        }
    }

    /// Counts `n` units of work beyond one per event towards the event budget, ending the
    /// stretch of unchecked events if they use it up.
    pub fn add_work(&mut self, n: u64) {
        self.work = self.work.saturating_add(n);
        self.stretch_left = self.stretch_left.saturating_sub(n).max(1);
    }

    /// Counts TLB misses (walks) in `tlb_misses`, and in `tlb_misses_measured` when they fall
    /// in the measured window.
    pub fn count_tlb_misses(&mut self, n: u64) {
        self.stats.tlb_misses += n;
        if self.measured_left > 0 && self.now() >= self.measure_from {
            self.stats.tlb_misses_measured += n;
        }
    }

    /// Handles one event; false if it was stale (superseded before it came due).
    #[inline(always)]
    fn handle(&mut self, ev: Ev) -> bool {
        // Over half of all events are task steps: one compare on the packed word takes them
        // before the jump table on the kind (~7 instructions).
        if ev.is_step() {
            let (task, epoch) = (ev.who(), ev.data());
            let t = &self.tasks[task as usize];
            if t.epoch != epoch || t.state != TaskState::Running {
                return false;
            }
            // The CPU is in an interrupt handler: the step completes after it
            // (the handler's exit re-schedules it, shifted by the handler's duration).
            if self.cpus[t.cpu.index()].in_irq() {
                return false;
            }
            self.step_done(TaskId(task));
            return true;
        }
        // Then a handler's next part: 435,599 of the other 514,815 events of the bench run.
        if ev.is_handler_next() {
            self.handler_next(CpuId(ev.who() as u16));
            return true;
        }
        match ev.unpack() {
            Event::Step { .. } => unreachable!("taken above"),
            Event::Wake { task, epoch } => {
                let t = &self.tasks[task as usize];
                if t.epoch != epoch || t.state != TaskState::Blocked {
                    return false;
                }
                self.wake(TaskId(task));
            }
            Event::IpiArrive { cpu, sent } => self.ipi_arrive(CpuId(cpu), sent),
            Event::HandlerNext { .. } => unreachable!("taken above"),
            Event::ArchTimer { cpu, data } => {
                let arch = self.arch;
                arch.on_timer(self, CpuId(cpu), data);
            }
            Event::Migrate { task, cpu } => return self.migrate_queued(TaskId(task), CpuId(cpu)),
        }
        true
    }

    // ---------------------------------------------------------------- interrupts

    fn ipi_arrive(&mut self, cpu: CpuId, sent: Row) {
        let c = &mut self.cpus[cpu.index()];
        if !c.irqs_enabled() {
            // The APIC holds one pending vector; further IPIs merge into it.
            if c.ipi_pending.is_none() {
                c.ipi_pending = Some(sent);
            }
            return;
        }
        self.start_handler(cpu, sent);
    }

    /// Interrupts came back on: take a pending IPI, if any.
    pub fn irqs_back_on(&mut self, cpu: CpuId) {
        let c = &mut self.cpus[cpu.index()];
        if c.irqs_enabled() {
            if let Some(sent) = c.ipi_pending.take() {
                self.start_handler(cpu, sent);
            }
        }
    }

    fn start_handler(&mut self, cpu: CpuId, sent: Row) {
        let now = self.now();
        let sender = self.cpus[cpu.index()]
            .call_queue
            .first()
            .map_or(0, |r| r.sender.0);
        let f = Fields {
            arg: sender as u64,
            parent: Some(sent),
            ..Fields::default()
        };
        let row = self.trace.begin(now, cpu, EventKind::IpiHandler, f);
        let c = &mut self.cpus[cpu.index()];
        c.handler = Some(row);
        c.hstate = Handler {
            started: now,
            ..Handler::default()
        };
        let mut entry = self.cfg.costs.ipi_handler_ns / 2;
        if self.in_user_mode(cpu) {
            let arch = self.arch;
            entry = entry.saturating_add(arch.kernel_entry(self, cpu));
        }
        self.queue.after(entry, Ev::handler_next(cpu.0));
    }

    /// Whether `cpu` runs user code: a user task between ops that stay in user mode (`touch`,
    /// `spin`), outside any flush and preemption-off window.
    fn in_user_mode(&self, cpu: CpuId) -> bool {
        let c = &self.cpus[cpu.index()];
        let Some(t) = c.curr.map(|t| &self.tasks[t.index()]) else {
            return false;
        };
        let op = self.programs[t.program].get(t.pc);
        t.mm != MmId::INIT_MM
            && t.flush.is_none()
            && c.preempt_count == 0
            && matches!(op, Some(Op::Touch { .. } | Op::Spin(_)))
    }

    // Forced: the event loop's second most frequent event (two in five), and with `handle` and
    // `step_done` inlined there the wasm build stopped inlining it.
    #[inline(always)]
    fn handler_next(&mut self, cpu: CpuId) {
        let now = self.now();
        // The span row is out of its CPU while the finished request's csd is unlocked and the
        // next one runs: what they call (a woken waiter's `check_resched`, a pending IPI taken
        // by an `sti`) sees no handler there, as it always has. The rest stays in place.
        let i = cpu.index();
        let Some(row) = self.cpus[i].handler.take() else {
            return;
        };
        if let Some(sender) = self.cpus[i].hstate.func.take() {
            self.csd_unlock(sender, cpu, row);
            // The unlock may run a woken waiter, which may IPI this CPU: with the row out its
            // interrupts look enabled, and a second handler must not start inside this one.
            debug_assert!(
                self.cpus[i].handler.is_none(),
                "CPU {} started a handler while its handler's row was out around csd_unlock",
                cpu.0
            );
        }
        let c = &mut self.cpus[i];
        let next = c.hstate.next;
        let mut pulled = None;
        if next == 0 && c.irq_items.is_empty() && !c.hstate.exiting {
            // `llist_del_all`: take every request queued so far, in FIFO order. Its xchg
            // writes the queue head, which the senders' `llist_add`s wrote last.
            std::mem::swap(&mut c.irq_items, &mut c.call_queue);
            pulled = crate::ipi::take_line(&mut c.queue_line, cpu);
        }
        if let Some(&req) = c.irq_items.get(next as usize) {
            c.hstate.next = next + 1;
            let arch = self.arch;
            self.stats.x86_ops.request_line_misses += pulled.is_some() as u64;
            let head = pulled.map_or(0, |from| self.cfg.line_ns(from, cpu));
            let cost = arch
                .call_func(self, cpu, req.sender, row)
                .saturating_add(head);
            let c = &mut self.cpus[i];
            debug_assert!(c.handler.is_none());
            c.hstate.func = Some(req.sender);
            c.handler = Some(row);
            self.queue.after(cost, Ev::handler_next(cpu.0));
        } else if !c.hstate.exiting {
            c.hstate.exiting = true;
            debug_assert!(c.handler.is_none());
            c.handler = Some(row);
            let exit = self.cfg.costs.ipi_handler_ns - self.cfg.costs.ipi_handler_ns / 2;
            self.queue.after(exit, Ev::handler_next(cpu.0));
        } else {
            c.irq_items.clear();
            let dur = now.saturating_sub(c.hstate.started);
            self.trace.end(row, now);
            self.shift_current_step(cpu, dur);
            let c = &mut self.cpus[i];
            if let Some(sent) = c.ipi_pending.take() {
                if !c.call_queue.is_empty() {
                    self.start_handler(cpu, sent);
                    return;
                }
            }
            self.check_resched(cpu);
        }
    }

    /// The SYNC ack: the target clears `CSD_FLAG_LOCK` after running the function; every task
    /// spinning on that csd notices on its next poll.
    // Forced: one caller, once per request a handler runs; the wasm build left it out of line.
    #[inline(always)]
    fn csd_unlock(&mut self, sender: CpuId, target: CpuId, handler_row: Row) {
        let now = self.now();
        let cpus = self.cfg.cpus;
        let csd = self.cfd[sender.index()].csd(target, cpus);
        csd.locked = false;
        let idle = csd.waiters.is_empty();
        let f = Fields {
            arg: sender.0 as u64,
            parent: Some(handler_row),
            ..Fields::default()
        };
        self.trace.instant(now, target, EventKind::CsdUnlocked, f);
        // Most unlocks (six in seven in the bench run) find nobody spinning.
        if idle {
            return;
        }
        let waiters = std::mem::take(&mut self.cfd[sender.index()].csd(target, cpus).waiters);
        let poll = self.cfg.costs.csd_poll_ns;
        for &(t, epoch) in &waiters {
            let task = &self.tasks[t.index()];
            if task.epoch == epoch && task.state == TaskState::Running && task.deadline.is_none() {
                let (pre, cont) = (task.preemptible, task.cont);
                self.step(t, poll, pre, cont);
            }
        }
        // Hand the list back (emptied) so the csd's next waiter needs no allocation: a malloc
        // and free per acknowledged request were 2 % of the bench run.
        let csd = self.cfd[sender.index()].csd(target, cpus);
        if csd.waiters.is_empty() {
            let mut waiters = waiters;
            waiters.clear();
            csd.waiters = waiters;
        }
    }

    /// An interrupt handler of `dur` ran on `cpu`: the current task's step ends that much later.
    pub fn shift_current_step(&mut self, cpu: CpuId, dur: Ns) {
        let Some(t) = self.cpus[cpu.index()].curr else {
            return;
        };
        let task = &mut self.tasks[t.index()];
        if let Some(d) = task.deadline {
            // The step pending at `d` is superseded (its epoch no longer matches): the queue
            // keeps it apart, out of the way of later insertions, until it pops and is dropped.
            let old = Ev::step(t.0, task.epoch);
            task.epoch = task.epoch.wrapping_add(1);
            let at = d.saturating_add(dur).max(self.queue.now());
            task.deadline = Some(at);
            let ev = Ev::step(t.0, task.epoch);
            self.queue.reschedule(d, old, at, ev);
        }
    }

    // ---------------------------------------------------------------- invariants

    /// Records a violated invariant as a trace row and in the summary. Never panics.
    pub fn violate(
        &mut self,
        invariant: &'static str,
        cpu: CpuId,
        mm: MmId,
        addr: u64,
        detail: String,
    ) {
        let now = self.now();
        self.stats.violation_count += 1;
        if self.stats.violations.len() >= MAX_VIOLATION_ROWS {
            return;
        }
        let text = format!("{invariant}: {detail}");
        let idx = self.trace.intern(text);
        let f = Fields {
            mm,
            addr,
            arg: idx,
            ..Fields::default()
        };
        self.trace
            .instant(now, cpu, EventKind::InvariantViolated, f);
        self.stats.violations.push(Violation {
            invariant: invariant.to_string(),
            cpu: cpu.0,
            time_ns: now as f64,
            detail,
        });
    }
}

// ---- interleaving checker (`check/`): which pending events would act, and firing one ----

impl World {
    /// Pending events that would change something if they fired now, as `(time, seq, event)`
    /// sorted by `(time, seq)` (so index 0 is what a normal run fires next). Stale events
    /// (superseded steps and wakes, a task step while its CPU is in a handler) are left out:
    /// `handle` would drop them (the same tests as there). Events after `max_time_ns` are
    /// left out too, as the run ends before them; so is everything once the run is over.
    pub fn enabled_events(&self) -> Vec<(Ns, u64, Ev)> {
        let mut v = Vec::new();
        self.enabled_events_into(&mut v);
        v
    }

    /// [`World::enabled_events`] into `v` (cleared first): the checker asks at every state, and
    /// a buffer it keeps spares an allocation each time.
    pub fn enabled_events_into(&self, v: &mut Vec<(Ns, u64, Ev)>) {
        v.clear();
        if self.finished || (self.live == 0 && self.has_finite_tasks) {
            return;
        }
        v.extend(
            self.queue
                .pending()
                .filter(|&(time, _, ev)| time <= self.cfg.max_time_ns && self.would_act(ev)),
        );
        v.sort_unstable_by_key(|&(time, seq, _)| (time, seq));
    }

    fn would_act(&self, ev: Ev) -> bool {
        match ev.unpack() {
            Event::Step { task, epoch } => self.tasks.get(task as usize).is_some_and(|t| {
                t.epoch == epoch
                    && t.state == TaskState::Running
                    && !self.cpus[t.cpu.index()].in_irq()
            }),
            Event::Wake { task, epoch } => self
                .tasks
                .get(task as usize)
                .is_some_and(|t| t.epoch == epoch && t.state == TaskState::Blocked),
            _ => true,
        }
    }

    /// Fires the pending event `seq` now, ahead of any that were due earlier (the clock moves
    /// to `max(now, its time)`), through the same `handle` a normal run uses.
    pub fn fire(&mut self, seq: u64) -> bool {
        let ev = if seq & MIGRATION_SEQ != 0 {
            Ev::migrate((seq >> 16) as u32 & ((1 << 29) - 1), seq as u16)
        } else {
            match self.queue.take(seq) {
                Some(ev) => ev,
                None => return false,
            }
        };
        self.popped += 1;
        let acted = self.handle(ev);
        if acted {
            self.events += 1;
        }
        acted
    }

    /// Makes migrations of preempted tasks the checker's choices (see `migration_choices`).
    pub fn enable_migration_choices(&mut self) {
        self.migration_choices = true;
    }

    /// With `enable_migration_choices`: every queued task that may run on more than one CPU,
    /// moved to each other CPU it may run on, as `(now, seq, Ev::migrate)` (the `seq` encodes
    /// the move for `fire`). Tasks pinned to one CPU, or running (so never while a flush
    /// holds `preempt_count`), have none.
    pub fn migration_choices(&self) -> Vec<(Ns, u64, Ev)> {
        let mut v = Vec::new();
        self.push_migration_choices(&mut v);
        v
    }

    /// [`World::migration_choices`] appended to `v`.
    pub fn push_migration_choices(&self, v: &mut Vec<(Ns, u64, Ev)>) {
        if !self.migration_choices || self.finished || (self.live == 0 && self.has_finite_tasks) {
            return;
        }
        let now = self.now();
        for t in &self.tasks {
            if t.state != TaskState::Runnable || t.allowed.len() < 2 {
                continue;
            }
            if !self.cpus[t.cpu.index()].rq.contains(&t.id) {
                continue;
            }
            for &c in &t.allowed {
                if c != t.cpu && c.index() < self.cpus.len() {
                    let seq = MIGRATION_SEQ | ((t.id.0 as u64) << 16) | c.0 as u64;
                    v.push((now, seq, Ev::migrate(t.id.0, c.0)));
                }
            }
        }
    }

    /// Stops keeping trace rows (`TraceStore::mute`): the checker's search states.
    pub fn mute_trace(&mut self) {
        self.trace.mute();
    }

    /// Some task that is not a daemon has not finished.
    pub fn has_unfinished_tasks(&self) -> bool {
        self.live > 0
    }

    /// Ends a replayed run here (closes its open spans), as the end of a normal run does.
    pub fn finish_here(&mut self) {
        self.finish();
    }
}
