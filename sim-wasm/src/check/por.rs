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
//! and write, over-approximated as a bitmask of resources. Two events are independent when
//! neither writes what the other reads or writes. An event whose effects this file does not
//! bound precisely gets the whole state as its footprint, so it is independent of nothing:
//! getting a footprint too small is the one way to make the reduction unsound, so only three
//! kinds of events get one, each argued from the code that handles it:
//!
//! - **an IPI arriving at CPU a** (`World::ipi_arrive`, `start_handler`): reads and writes
//!   only CPU a (its interrupt state and handler, the task it interrupts, x86 PTI's CR3
//!   switch on a). The request queue it reads feeds only a trace field.
//! - **a task step on CPU a that starts a user access or a spin** (continuation `NextOp` or
//!   `Start`, no flush in progress, the op it starts a `touch`, `read` or timed/untimed `spin`
//!   of the same iteration, so the task neither ends nor enters the kernel's flush path, and
//!   no reschedule pending on a, so the step cannot switch tasks): reads CPU a
//!   and the page tables (`touch`, the I1/I3 checks of a stale hit), writes CPU a (its TLB,
//!   x86 PTI's deferred user-PCID flush), and writes the page tables too if a page is not
//!   present (the fault maps it).
//! - **x86: the IPI handler on CPU a going on** (`World::handler_next`, `flush_tlb_func`):
//!   reads and writes CPU a, the csds and descriptors, the CPUs of the tasks waiting on the
//!   csd it unlocks (it restarts their poll, which may reschedule them), mm cpumasks and
//!   `loaded_on` (a lingering CPU leaves the cpumask; switching to `init_mm` or rescheduling
//!   switches mm); it reads `tlb_gen` and the page tables' generation ranges but never
//!   changes a page.
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

use crate::ids::Ns;
use crate::machine::{Ev, Event, World};
use crate::program::Op;
use crate::task::{Cont, TaskState};

/// The page tables: PTEs, `tlb_gen`, the generations' ranges, `tables_freed_gen`.
const MM_PAGES: u64 = 1 << 61;
/// mm cpumasks and `loaded_on`.
const MM_MASK: u64 = 1 << 62;
/// Everything else: csds, descriptors, the architecture's global state, the RNG, the
/// scheduler's global counters.
const OTHER: u64 = 1 << 63;
/// CPUs 0..61 have a bit each (their `Cpu`, their per-CPU architecture state, the tasks
/// pinned to them); a machine with more CPUs gets no reduction.
const MAX_CPUS: usize = 61;
const ALL: u64 = !0;

/// What an event may read and write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    pub reads: u64,
    pub writes: u64,
}

impl Footprint {
    const ALL: Footprint = Footprint {
        reads: ALL,
        writes: ALL,
    };

    pub fn independent(self, o: Footprint) -> bool {
        self.writes & (o.reads | o.writes) == 0 && o.writes & (self.reads | self.writes) == 0
    }
}

fn cpu_bit(cpu: usize) -> u64 {
    1 << cpu
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
    };
    (kind << 61) | ((who as u64 & ((1 << 29) - 1)) << 32) | data as u64
}

/// The footprint of `ev` fired at `w` (see the module comment for each case).
pub fn footprint(w: &World, ev: Ev) -> Footprint {
    if w.cpus.len() > MAX_CPUS {
        return Footprint::ALL;
    }
    match ev.unpack() {
        Event::IpiArrive { cpu, .. } => {
            let a = cpu_bit(cpu as usize);
            Footprint {
                reads: a,
                writes: a,
            }
        }
        Event::Step { task, .. } => step_footprint(w, task as usize),
        Event::HandlerNext { cpu } if w.arch.name() == "x86" => handler_footprint(w, cpu as usize),
        _ => Footprint::ALL,
    }
}

fn step_footprint(w: &World, task: usize) -> Footprint {
    let Some(t) = w.tasks.get(task) else {
        return Footprint::ALL;
    };
    let c = &w.cpus[t.cpu.index()];
    let prog = &w.programs[t.program];
    // The op the step starts: the next one, or (a task just switched in) the one at `pc`.
    let next = match t.cont {
        Cont::NextOp => t.pc + 1,
        Cont::Start => t.pc,
        _ => return Footprint::ALL,
    };
    let local =
        t.state == TaskState::Running && t.flush.is_none() && !c.need_resched && next < prog.len();
    if !local {
        return Footprint::ALL;
    }
    let a = cpu_bit(t.cpu.index());
    match prog[next] {
        Op::Spin(_) => Footprint {
            reads: a,
            writes: a,
        },
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

fn handler_footprint(w: &World, cpu: usize) -> Footprint {
    let mut cpus = cpu_bit(cpu);
    if let Some((_, sender)) = w.cpus[cpu].handler.as_ref().and_then(|h| h.func) {
        if let Some(csd) = w.cfd.get(sender.index()).and_then(|c| c.csd.get(cpu)) {
            for (t, _) in &csd.waiters {
                match w.tasks.get(t.index()) {
                    Some(t) => cpus |= cpu_bit(t.cpu.index()),
                    None => return Footprint::ALL,
                }
            }
        }
    }
    Footprint {
        reads: cpus | OTHER | MM_MASK | MM_PAGES,
        writes: cpus | OTHER | MM_MASK,
    }
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
