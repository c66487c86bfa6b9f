//! Partial-order reduction: which pending events are independent, for the sleep sets of
//! `explore.rs`.
//!
//! Two events are independent at a state when firing them in either order reaches the same
//! state (the same key) and neither disables the other. The search then need not fire the
//! second after the first if it already fired it before the first (the sleep-set method,
//! Godefroid 1996): the state it would reach is reached along the other order, at the same
//! depth.
//!
//! Independence is decided from each event's *footprint*: the parts of the state it may read
//! and write, over-approximated as a bitmask of resources (each CPU with its tasks and
//! per-CPU architecture state; each csd, by sender and target; the page tables with
//! `tlb_gen`; the cpumasks; the descriptors; x86's global state; the per-CPU wait masks). Two
//! events are independent when neither writes what the other reads or writes. An event whose
//! effects this file does not bound precisely gets the whole state as its footprint, so it is
//! independent of nothing: getting a footprint too small is the one way to make the reduction
//! unsound, so each case below is argued from the code that handles it, and the path a step
//! will take is decided from resources in its own read set (so the other event of a pair
//! cannot change it):
//!
//! - **an IPI arriving at CPU a** (`World::ipi_arrive`, `start_handler`): reads and writes
//!   only CPU a (its interrupt state and handler, the task it interrupts, x86 PTI's CR3
//!   switch on a). The request queue it reads feeds only a trace field.
//! - **a task step on CPU a that starts a user access or a spin** (continuation `NextOp` or
//!   `Start`, no flush in progress, the op it starts a `touch`, `read` or `spin` of the same
//!   iteration, no reschedule pending on a, so the step cannot switch tasks): reads CPU a
//!   and the page tables, writes CPU a (its TLB, x86 PTI's deferred user-PCID flush), and
//!   the page tables too if a page is not present (the fault maps it).
//! - **x86: a dispatch step** (`smp_call_function_many_cond`, one target c): the csd
//!   (a, c) it locks or waits on, CPU a (the task), and CPU c whose request queue it appends
//!   to (the IPI it raises is a pending event for c).
//! - **x86: the local flush** (the dispatch step after the last target, `SCF_RUN_LOCAL`):
//!   reads the mm's cpumask (is the sender in it), the descriptor, `tlb_gen` and the
//!   generations' ranges, and writes only CPU a (its TLB, its slot's generation, interrupts
//!   off, PTI's per-CPU user flush), when CPU a runs the flushed mm non-lazily with no switch
//!   in flight and no INVLPGB; otherwise `flush_tlb_func` may leave the cpumask or switch mm,
//!   and the step stays dependent. With no local flush it goes on as the next case.
//! - **x86: the local flush done** (`local_flush_done`): interrupts back on (a pending IPI
//!   starts its handler on CPU a, as an arriving one does), `put_cpu()` on CPU a, then the
//!   first wait step, whose footprint it adds; it reads x86's global state (does the flush
//!   owe a TLBSYNC). A flush with no remote target ends here and stays dependent.
//! - **x86: a wait step** (`csd_lock_wait`): reads the wait mask (the per-CPU one, or the
//!   task's) and the csds it walks past; when one is still locked it writes only that csd's
//!   waiter list and the task. A wait that finds every csd unlocked ends the flush (frees the
//!   descriptor, `put_cpu()`, marks pages safe, maybe a global ASID or TLBSYNC) and stays
//!   dependent.
//! - **x86: the IPI handler on CPU b going on** (`World::handler_next`): reads and writes CPU
//!   b; unlocking the csd (s, b) of the request it ran writes that csd and the CPUs of the
//!   tasks polling it (their poll restarts; if one of those CPUs has a reschedule pending the
//!   event is dependent on everything); running the next request reads its csd, the
//!   descriptor and the page tables (`tlb_gen`, the generations' ranges) and, unless the
//!   CPU runs that mm non-lazily without INVLPGB, writes the cpumasks and x86's global state
//!   (it leaves the cpumask or switches mm). Leaving the handler with a reschedule pending
//!   switches tasks: dependent.
//!
//! The holders of the cross-call protocol's lines (each csd's, each CPU's queue head) are
//! written by the dispatch, handler and wait steps above, always within the csd or CPU those
//! steps already claim; they decide only what a step costs, not what it does, and are left
//! out of the state key, so they add nothing to a footprint.
//!
//! Left dependent on everything: wakes (they pick a CPU from every allowed one), the flush's
//! begin and end (the end frees the descriptor and marks pages safe), a task's last step (the
//! last task to finish ends the run, disabling every other event), arm64's protocol steps and
//! interconnect timers, x86's INVLPGB completions and `switch_mm` timers, and every event on a
//! machine of more than 8 CPUs.
//!
//! Everything an event writes outside the key (trace rows, statistics, lock reservation
//! times, the `tlb_gen` line owner) does not matter: the key is what states are compared by.
//! A violation is recorded by the event that reads the broken state, so an event's violation
//! is the same in both orders whenever its reads are untouched by the other.
//!
//! What this leaves approximate is what state merging already approximates: time. Firing
//! one event first moves the clock, so the other's follow-up events are scheduled at other
//! times; the key ignores times, and so does independence.
//!
//! `audit` fires both orders of every pair this file calls independent and compares the
//! keys: `tests/check.rs` runs it over the shipped race scenarios.

use crate::ids::{CpuId, MmId, Ns};
use crate::machine::{Ev, Event, World};
use crate::program::Op;
use crate::task::{Cont, FlushPhase, Task, TaskState};

/// CPUs with a bit each (their `Cpu`, their per-CPU architecture state, the tasks on them);
/// a machine with more CPUs gets no reduction.
const MAX_CPUS: usize = 8;
/// The csd of (sender s, target t), with its lock, descriptor and waiters: bit
/// `CSD0 + s * MAX_CPUS + t`.
const CSD0: u32 = MAX_CPUS as u32;
/// The page tables: PTEs, `tlb_gen`, the generations' ranges, `tables_freed_gen`.
const MM_PAGES: u128 = 1 << 80;
/// mm cpumasks and `loaded_on`.
const MM_MASK: u128 = 1 << 81;
/// The flush descriptors (per CPU and per task).
const DESCS: u128 = 1 << 82;
/// x86's global state: global ASIDs, INVLPGBs in flight, owed TLBSYNCs.
const X86: u128 = 1 << 83;
/// The per-CPU wait masks (`cfd->cpumask`) and who wrote them.
const WAIT_MASKS: u128 = 1 << 84;
const ALL: u128 = !0;

/// What an event may read and write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    pub reads: u128,
    pub writes: u128,
}

impl Footprint {
    pub const ALL: Footprint = Footprint {
        reads: ALL,
        writes: ALL,
    };

    pub const NONE: Footprint = Footprint {
        reads: 0,
        writes: 0,
    };

    /// Reads and writes the same resources.
    fn rw(r: u128) -> Footprint {
        Footprint {
            reads: r,
            writes: r,
        }
    }

    pub fn independent(self, o: Footprint) -> bool {
        self.writes & (o.reads | o.writes) == 0 && o.writes & (self.reads | self.writes) == 0
    }
}

fn cpu_bit(cpu: CpuId) -> u128 {
    1 << cpu.index()
}

fn csd_bit(sender: CpuId, target: CpuId) -> u128 {
    1 << (CSD0 + sender.0 as u32 * MAX_CPUS as u32 + target.0 as u32)
}

/// An event's identity across the states of one search, whatever its sequence number: the
/// key's `(kind, task or CPU, data)`. Two pending events with one identity (two IPIs in
/// flight to one CPU) have the same effect on the key.
pub fn event_id(ev: Ev) -> u64 {
    let (kind, who, data) = match ev.unpack() {
        Event::Step { task, .. } => (0u64, task, 0),
        Event::Wake { task, .. } => (1, task, 0),
        Event::IpiArrive { cpu, .. } => (2, cpu as u32, 0),
        Event::HandlerNext { cpu } => (3, cpu as u32, 0),
        Event::ArchTimer { cpu, data } => (4, cpu as u32, data),
        Event::Migrate { task, cpu } => (5, task, cpu as u32),
    };
    (kind << 61) | ((who as u64 & ((1 << 29) - 1)) << 32) | data as u64
}

/// The footprint of `ev` fired at `w` (see the module comment for each case).
pub fn footprint(w: &World, ev: Ev) -> Footprint {
    if w.cpus.len() > MAX_CPUS {
        return Footprint::ALL;
    }
    let x86 = w.arch.name() == "x86";
    match ev.unpack() {
        Event::IpiArrive { cpu, .. } => Footprint::rw(cpu_bit(CpuId(cpu))),
        Event::Step { task, .. } => match w.tasks.get(task as usize) {
            Some(t) if t.cpu.index() < w.cpus.len() => step_footprint(w, t, x86),
            _ => Footprint::ALL,
        },
        Event::HandlerNext { cpu } if x86 && (cpu as usize) < w.cpus.len() => {
            handler_footprint(w, CpuId(cpu))
        }
        _ => Footprint::ALL,
    }
}

/// A task step that cannot switch tasks on its CPU: the task runs there and no reschedule is
/// pending (a preemption could migrate it, reading every CPU it may run on).
fn step_footprint(w: &World, t: &Task, x86: bool) -> Footprint {
    let c = &w.cpus[t.cpu.index()];
    if t.state != TaskState::Running || c.need_resched {
        return Footprint::ALL;
    }
    match t.cont {
        Cont::NextOp | Cont::Start if t.flush.is_none() => user_op_footprint(w, t),
        Cont::Flush(FlushPhase::Dispatch) if x86 => dispatch_footprint(w, t),
        Cont::Flush(FlushPhase::LocalDone) if x86 => local_done_footprint(w, t),
        Cont::Flush(FlushPhase::Wait) if x86 => wait_footprint(w, t),
        _ => Footprint::ALL,
    }
}

/// The op a step starts: a user access or a spin of the same iteration.
fn user_op_footprint(w: &World, t: &Task) -> Footprint {
    let prog = &w.programs[t.program];
    // The op the step starts: the next one, or (a task just switched in) the one at `pc`.
    let next = if t.cont == Cont::NextOp {
        t.pc + 1
    } else {
        t.pc
    };
    if next >= prog.len() {
        return Footprint::ALL;
    }
    let a = cpu_bit(t.cpu);
    match prog[next] {
        Op::Spin(_) => Footprint::rw(a),
        Op::Touch { page, n } | Op::Read { page, n, .. } => {
            let pages = w.mms.get(t.mm.0 as usize).map_or(&[][..], |m| &m.pages[..]);
            let end = (page as usize + n as usize).min(pages.len());
            let faults = pages[(page as usize).min(end)..end]
                .iter()
                .any(|p| !p.present);
            Footprint {
                reads: a | MM_PAGES,
                writes: a | if faults { MM_PAGES } else { 0 },
            }
        }
        _ => Footprint::ALL,
    }
}

/// x86 `smp_call_function_many_cond()`, one target: lock the csd (or wait on it while the
/// previous request to that target runs), queue the request on the target, raise its IPI.
/// The step after the last target runs the local flush (`local_flush_footprint`).
fn dispatch_footprint(w: &World, t: &Task) -> Footprint {
    let Some(op) = &t.flush else {
        return Footprint::ALL;
    };
    let (a, s) = (t.cpu, op.cpu);
    if a != s {
        return Footprint::ALL;
    }
    let Some(&target) = op.targets.get(op.next_target) else {
        return local_flush_footprint(w, t);
    };
    let target = CpuId(target);
    if target.index() >= w.cpus.len() {
        return Footprint::ALL;
    }
    let csd = csd_bit(s, target);
    if w.cfd[s.index()].is_locked(target) {
        return Footprint::rw(cpu_bit(a) | csd);
    }
    Footprint::rw(cpu_bit(a) | csd | cpu_bit(target))
}

/// x86 `SCF_RUN_LOCAL`, the dispatch step after the last target: is the sender in the mm's
/// cpumask (read), should it flush (its own `cpu_tlbstate`), then the local `flush_tlb_func`.
/// On a CPU that runs the flushed mm non-lazily, no switch in flight and no INVLPGB, that
/// function reads the descriptor, `tlb_gen` and the generations' ranges (its checks) and
/// writes only this CPU: its TLB, its slot's generation, PTI's per-CPU user flush. With no
/// local flush the step goes on into `local_flush_done` at once (`local_done_footprint`).
fn local_flush_footprint(w: &World, t: &Task) -> Footprint {
    let Some(op) = &t.flush else {
        return Footprint::ALL;
    };
    let a = op.cpu;
    let x = &w.arch_state.x86;
    if w.cfg.design.invlpgb || x.switching.get(a.index()).is_none_or(|s| s.is_some()) {
        return Footprint::ALL;
    }
    let mm = w
        .descs
        .get(op.desc as usize)
        .map_or(MmId::INIT_MM, |d| d.mm);
    let Some(ts) = x.cpu_tlbstate.get(a.index()) else {
        return Footprint::ALL;
    };
    if mm != ts.loaded_mm || mm == MmId::INIT_MM || ts.is_lazy {
        return Footprint::ALL;
    }
    let reads = cpu_bit(a) | DESCS | MM_MASK | MM_PAGES;
    let in_mask = w
        .mms
        .get(mm.0 as usize)
        .is_some_and(|m| m.cpumask.contains(a));
    if in_mask {
        return Footprint {
            reads,
            writes: cpu_bit(a),
        };
    }
    let done = local_done_footprint(w, t);
    Footprint {
        reads: done.reads | reads,
        writes: done.writes,
    }
}

/// x86 `local_flush_done()`: `sti()` on the sender (a pending IPI starts its handler there,
/// as an IPI arriving does; no reschedule is pending, `step_footprint` saw to that),
/// `put_cpu()` (this CPU's preemption count), then the first `csd_lock_wait()` step
/// (`wait_footprint`). Whether there are remote targets and whether an INVLPGB owes its
/// TLBSYNC decide the path: the flush's own targets, and x86's global state, read. No remote
/// target, or a wait that finds every csd unlocked, ends the flush: dependent.
fn local_done_footprint(w: &World, t: &Task) -> Footprint {
    let Some(op) = &t.flush else {
        return Footprint::ALL;
    };
    if op.targets.is_empty() || op.cpu != t.cpu {
        return Footprint::ALL;
    }
    let wait = wait_footprint(w, t);
    if wait == Footprint::ALL {
        return wait;
    }
    Footprint {
        reads: wait.reads | cpu_bit(t.cpu) | X86,
        writes: wait.writes | cpu_bit(t.cpu),
    }
}

/// x86 `csd_lock_wait()` over the wait mask: the step reads the mask and the csds it passes,
/// and either waits on the first still locked one (its waiter list) or, none being locked,
/// finishes the flush (left dependent: it frees the descriptor, `put_cpu()`s, marks the pages
/// safe, may consider a global ASID or TLBSYNC).
fn wait_footprint(w: &World, t: &Task) -> Footprint {
    let Some(op) = &t.flush else {
        return Footprint::ALL;
    };
    if w.arch_state.x86.tlbsync_owed.contains(&t.id.0) {
        return Footprint::ALL;
    }
    let s = op.cpu;
    if s.index() >= w.cpus.len() {
        return Footprint::ALL;
    }
    let per_cpu = w.cfg.design.wait_mask == crate::config::WaitMask::PerCpu;
    let mask = if per_cpu {
        &w.cfd[s.index()].mask
    } else {
        &t.ipi_mask
    };
    let mut reads = cpu_bit(t.cpu) | if per_cpu { WAIT_MASKS } else { 0 };
    for &x in mask.iter().filter(|&&x| x as i32 > op.cursor) {
        let x = CpuId(x);
        if x.index() >= w.cpus.len() {
            return Footprint::ALL;
        }
        reads |= csd_bit(s, x);
        if w.cfd[s.index()].is_locked(x) {
            return Footprint {
                reads,
                writes: cpu_bit(t.cpu) | csd_bit(s, x),
            };
        }
    }
    Footprint::ALL
}

/// x86: the IPI handler on `cpu` going on (`World::handler_next`): unlock the csd of the
/// request it ran (restarting the poll of the tasks waiting on it), then take the queued
/// requests, run the next one's `flush_tlb_func`, or leave the handler.
fn handler_footprint(w: &World, cpu: CpuId) -> Footprint {
    let c = &w.cpus[cpu.index()];
    if c.handler.is_none() {
        return Footprint::NONE;
    }
    let h = &c.hstate;
    let b = cpu_bit(cpu);
    let mut f = Footprint::rw(b);
    if let Some(sender) = h.func {
        if sender.index() >= w.cpus.len() {
            return Footprint::ALL;
        }
        f.reads |= csd_bit(sender, cpu);
        f.writes |= csd_bit(sender, cpu);
        if let Some(csd) = w.cfd[sender.index()].csd.get(cpu.index()) {
            for &(t, epoch) in &csd.waiters {
                let Some(task) = w.tasks.get(t.index()) else {
                    return Footprint::ALL;
                };
                let live = task.epoch == epoch
                    && task.state == TaskState::Running
                    && task.deadline.is_none();
                if !live {
                    continue;
                }
                // Its poll restarts; with a reschedule pending there it would be preempted.
                if task.cpu.index() >= w.cpus.len() || w.cpus[task.cpu.index()].need_resched {
                    return Footprint::ALL;
                }
                f.reads |= cpu_bit(task.cpu);
                f.writes |= cpu_bit(task.cpu);
            }
        }
    }
    let take_queue = h.next == 0 && c.irq_items.is_empty() && !h.exiting;
    let next = if take_queue {
        c.call_queue.first()
    } else {
        c.irq_items.get(h.next as usize)
    };
    if let Some(req) = next {
        let s = req.sender;
        if s.index() >= w.cpus.len() {
            return Footprint::ALL;
        }
        f.reads |= csd_bit(s, cpu) | DESCS | MM_PAGES;
        let desc = w.cfd[s.index()].csd.get(cpu.index()).map_or(0, |x| x.info);
        let mm = w.descs.get(desc as usize).map_or(MmId::INIT_MM, |d| d.mm);
        let ts = &w.arch_state.x86.cpu_tlbstate[cpu.index()];
        if w.cfg.design.invlpgb {
            f.reads |= X86 | MM_MASK;
        }
        let plain = mm == ts.loaded_mm && mm != MmId::INIT_MM && !ts.is_lazy;
        if !plain || w.cfg.design.invlpgb {
            // Clears this CPU from the cpumask, or switches mm (to init_mm, or to the
            // global ASID): the cpumasks and x86's global state.
            f.reads |= MM_MASK | X86;
            f.writes |= MM_MASK | X86;
        }
    } else if h.exiting {
        // Leaving: the interrupted step resumes, a pending IPI restarts the handler, or a
        // pending reschedule switches tasks.
        if c.need_resched {
            return Footprint::ALL;
        }
    }
    f
}

/// Fires both orders of every pair of `w`'s choices that `footprint` calls independent and
/// checks they reach one key with neither disabling the other. Returns the pairs checked,
/// or the first pair that does not commute.
pub fn audit(w: &World) -> Result<u64, String> {
    let choices = super::order::choices(w);
    let fire = |w: &World, id: u64| -> Option<World> {
        let (_, seq, _) = super::order::choices(w)
            .into_iter()
            .find(|&(_, _, e)| event_id(e) == id)?;
        let mut next = w.clone();
        next.fire(seq);
        Some(next)
    };
    let mut pairs = 0;
    for (i, &(_, _, t)) in choices.iter().enumerate() {
        for &(_, _, u) in &choices[i + 1..] {
            let (ft, fu) = (footprint(w, t), footprint(w, u));
            if !ft.independent(fu) || event_id(t) == event_id(u) {
                continue;
            }
            pairs += 1;
            let (ti, ui) = (event_id(t), event_id(u));
            let tu = fire(w, ti).and_then(|x| fire(&x, ui));
            let ut = fire(w, ui).and_then(|x| fire(&x, ti));
            let same = match (&tu, &ut) {
                (Some(a), Some(b)) => {
                    super::key::state_key(a) == super::key::state_key(b)
                        && a.stats.violation_count == b.stats.violation_count
                }
                _ => false,
            };
            if !same {
                return Err(format!(
                    "{:?} and {:?} were called independent at t={} but do not commute",
                    t.unpack(),
                    u.unpack(),
                    w.now() as Ns
                ));
            }
        }
    }
    Ok(pairs)
}

/// [`audit`] at each of the first `max_states` states of the search from `init`
/// (breadth-first, merged by key): the pairs checked, or the first that does not commute.
pub fn audit_search(init: &World, max_states: usize) -> Result<u64, String> {
    let mut init = init.clone();
    init.mute_trace();
    let mut seen = std::collections::HashSet::from([super::key::state_key(&init)]);
    let mut queue = std::collections::VecDeque::from([init]);
    let mut pairs = 0;
    while let Some(w) = queue.pop_front() {
        pairs += audit(&w)?;
        for (_, seq, _) in super::order::choices(&w) {
            let mut next = w.clone();
            next.fire(seq);
            if seen.len() < max_states && seen.insert(super::key::state_key(&next)) {
                queue.push_back(next);
            }
        }
    }
    Ok(pairs)
}
