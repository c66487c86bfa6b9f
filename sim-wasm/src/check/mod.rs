//! Every interleaving of a small scenario: an explicit-state model checker over the simulator's
//! own transitions (docs/model.md's invariants and races; README "Checking every interleaving").
//!
//! At every state the choices are the pending events that would act (`World::enabled_events`,
//! less the few that must wait for another, `order.rs`):
//! task steps and wakes, IPI arrivals, IPI-handler steps, arm64 interconnect timers, x86
//! `switch_mm`'s store-buffer drain and CR3 write (the visibility order of race R7), x86
//! INVLPGB completions; plus, for each preempted task waiting in a run queue, a move to each
//! other CPU of its `cpus` list (`World::migration_choices`, fired through the scheduler's own
//! `migrate_queued`; the checker's worlds leave a preempted task queued instead of applying the
//! normal run's "idle CPU first" policy, so staying and moving are both explored). Time is
//! abstracted to order: any pending event may go first, as if every other were delayed (a CPU
//! can always be slower), and the clock only moves forward (`max(now, due)`). Each choice runs
//! `World::fire`, the same `handle` a normal run uses; there is no second copy of the protocol.
//!
//! Not explored: where a waking task is placed (`select_cpu`'s policy: its last CPU, else an
//! idle allowed one), moves of a task that is running (the kernel only migrates a task that is
//! not on a CPU, so a running task's next preemption point is where it can move), the store
//! and visibility orders inside one event (each event is atomic: R7's store buffering needs
//! the steps the `switch_mm` work splits out), and every interleaving beyond `max_steps`.
//!
//! Reductions, both sound for "can a violation be reached":
//! - **events that cannot act are not choices**: a superseded step or wake, or a task's step
//!   while its CPU runs a handler, is dropped by `handle` whenever it fires, so firing it is
//!   the identity on the state;
//! - **state merging** (`key.rs`): interleavings that reach the same kernel state (clock, trace
//!   rows and epochs aside) continue once. Everything a transition reads except time is in the
//!   key, and time is abstracted, so merged states have the same futures (the one
//!   approximation, an arm64 walk's remaining time, is stated in `key.rs`). This is what
//!   collapses the diamonds that independent steps of different CPUs make.
//!
//! - **partial-order reduction** (`por.rs`, `Reduce::Por`, on by default; `--reduce none`
//!   turns it off): sleep sets over events whose footprints (the resources they may read and
//!   write: each CPU, the page tables, the cpumasks, the rest) are disjoint. Sound because an
//!   event is put to sleep only after it was fired from an ancestor and only while every
//!   step since is independent of it, so the state it would reach is reached along the other
//!   order at the same depth (sleep sets prune transitions, never states: the proofs visit
//!   the same states); merging a state reached along two paths keeps only what is asleep on
//!   both, re-firing from an expanded state what one path had skipped. Such a re-expansion
//!   queues its successors behind deeper states, so in principle a counterexample could come
//!   out longer than the shortest; `tests/check.rs` checks that every race's counterexample
//!   has the unreduced search's length, and `--reduce none` gives the guarantee outright.
//!   Footprints (`por.rs`) cover IPI arrivals, user accesses and spins, and x86's protocol
//!   steps (dispatch per target, the local `flush_tlb_func` and `local_flush_done`, the csd
//!   wait, the IPI handler and its `flush_tlb_func`); the flush's begin and end, a task's last
//!   step, wakes, INVLPGB and arm64's steps stay dependent on everything. On the 3-CPU 2-flush
//!   proof that cuts 29 % of the transitions (1,505,819 → 1,065,640), on R8's fixed proof
//!   30 % (1,937,153 → 1,362,221), where without the local flush steps it was 8 % and 9 %;
//!   R12's and R13's, mostly INVLPGB steps, 12 % and 11 %. `por::audit` fires both orders of
//!   every pair it calls independent; `tests/check.rs` runs it on every race scenario, and
//!   `por_tests.rs` on 20,000 states of four x86 proofs, where it must meet local flush steps.
//!
//!   Sleep sets never cut *states*: every state reachable is still reached (along one order
//!   of each independent pair instead of both), and with state merging the other order's
//!   transition into an already seen state was the only saving there was to make. That
//!   transition cost a world copy, the event and a key like any other, so the cut shows in
//!   seconds, but never more than the share of transitions that led to seen states (on the
//!   3-CPU 2-flush proof 1,065,640 transitions still reach 482,029 states). Cutting states
//!   takes persistent (stubborn/ample) sets: firing
//!   only some CPUs' events at a state, which is sound only when no event any other CPU
//!   could fire *later* depends on them. That needs the footprints of future events (every
//!   step the other CPUs' programs and the protocol may still take, the IPIs a dispatch will
//!   raise), not just of the enabled ones, and the cycle proviso for the step bound; getting
//!   it wrong silently loses violations. We chose the other lever: races whose shipped story
//!   is too big get a check-sized companion scenario with just the CPUs the race needs
//!   (`races.rs`), whose proofs the tests can afford.
//!
//! - **CPU symmetry** (`symmetry.rs`, `Reduce::Sym`; `all`, the default, is both): CPUs
//!   that are interchangeable form a class, and states that differ only by a renaming of
//!   CPUs within their classes (with the tasks on them) are one state: the key is the least
//!   key over the renamings (at most 24). A class needs, on x86, CPUs that start with the
//!   same tasks (same mm, priority, program, start, flags), each pinned to its CPU, no other
//!   task allowed there, no `migrate` op in any program, and no program flushing an mm
//!   those tasks run.
//!
//!   Sound because each renaming π is then an automorphism of the search's graph: the
//!   initial state is its own image (same tasks up to the renaming, same per-CPU state, the
//!   same pending events at the same times), and firing π(e) at π(s) reaches π(fire(e, s)).
//!   The simulator names CPUs in three ways. (a) By the CPU an event or task carries: the
//!   renaming carries it along. (b) In loops that do the same to every CPU (an INVLPGB
//!   performed everywhere, `consider_global_asid`'s count, a fresh ASID's flush): the order
//!   does not matter. (c) In loops whose order matters: a flush's targets and its
//!   `csd_lock_wait` walk the cpumask in ascending order (`for_each_cpu`), the stragglers of
//!   an ASID transition likewise, a waking task takes the first idle CPU of its list, a
//!   preempted one the CPUs of its list as migration choices. (c) is what breaks symmetry in
//!   general: if CPUs 2 and 3 both get a flush's IPIs, the state "the IPI to 3 was sent,
//!   the one to 2 not yet" is unreachable while its mirror image is reached, so the
//!   transition relation is not invariant under the swap. The class conditions keep every
//!   class CPU out of (c): it only ever loads its tasks' mms, which nobody flushes, or
//!   `init_mm`, so it is in no flushed cpumask, is never a target, a straggler or a waited
//!   csd; its tasks are pinned and no other task may come to it. Time is left out of the key
//!   and renamed tasks have the same costs (same programs on the same per-CPU state); the
//!   one RNG is drawn in firing order, so a renamed path draws the same values. With an
//!   automorphism group, a violation is reachable from s in k steps iff one is from π(s)
//!   in k steps (Emerson and Sistla 1996; Ip and Dill 1996): the verdict and the
//!   breadth-first counterexample's length are those of the unreduced search, which
//!   `tests/check.rs` checks on `x86-check-bystanders`, faulty and fixed.
//!
//!   `key::relabelled_key` reorders what is indexed by CPU or task and renames the CPU and
//!   task ids inside values; what it reads in place (csds, wait masks, descriptors, IPIs,
//!   handlers, INVLPGB state) `symmetry.rs` checks, at each state, involves no class CPU,
//!   falling back to the plain key (a different domain) if one did. A counterexample stays
//!   concrete: a node keeps the world of the first interleaving that reached its state and
//!   the choice index into its parent's concrete choices, and a merged state is dropped,
//!   never stored, so every path replays as it was found. Sleep sets name events of their
//!   own state; a state merged into a renamed copy re-fires everything asleep there.
//!   Example: R7 with two identical bystanders of another process (`x86-check-bystanders`)
//!   proves in 55,251 states instead of 94,716 and is refuted in 15,776 instead of 26,619,
//!   in the same 18 steps. No race scenario has a class: their CPUs all run different
//!   programs or take part in one flush.
//!
//! Why not the `stateright` crate: its checkers need `State: Hash + Clone + Send` values and
//! run their BFS/DFS on OS threads (`spawn_bfs`, `spawn_dfs`), which wasm32-unknown-unknown
//! does not have; its single-threaded path still wants the model to be a pure function of a
//! hashable state, while ours is the simulator's `World` with its trace, stepped by the
//! engine. Wrapping it would mean hashing through our own key anyway and giving up the
//! step-budget loop the Web Worker needs for progress and cancel. The search here is ~200
//! lines and reads no clock, so it runs unchanged natively and in WASM.

mod counterexample;
mod explore;
mod key;
mod order;
mod por;
#[cfg(test)]
mod por_tests;
mod races;
#[cfg(test)]
mod reuse_tests;

/// A shipped scenario's world as the checker starts it (migration choices on), for the tests.
#[cfg(test)]
fn scenario_world(name: &str, set: &[&str]) -> World {
    let p = format!(
        "{}/../content/scenarios/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let set: Vec<String> = set.iter().map(|s| s.to_string()).collect();
    let cfg = crate::scenario::parse(&text, &set).expect("scenario parses");
    let arch = crate::arch::for_config(&cfg);
    let mut w = World::new(cfg, SEED, arch);
    w.enable_migration_choices();
    w
}
mod symmetry;

use serde::Serialize;

pub use counterexample::{replay, Counterexample, Step};
pub use explore::{Bound, Limits, Reduce, Verdict};
pub use key::state_key;
pub use por::{audit, audit_search};
pub use races::{race, Race, RACES};

use crate::error::SimError;
use crate::machine::World;

/// The seed every check uses: choices replace the scenario's randomness where it matters,
/// and one fixed seed keeps the answer a function of the scenario alone.
pub const SEED: u64 = 1;

/// The answer, as the CLI and the page print it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Report {
    /// `holds`, `violated`, `bound_reached` or `running`.
    pub verdict: &'static str,
    /// With `bound_reached`: `states` (the state cap, which also bounds memory) or `steps`.
    pub bound: Option<&'static str>,
    pub states: u64,
    pub transitions: u64,
    /// Longest interleaving explored, in steps.
    pub depth: u32,
    /// States where nothing can fire but a task has not finished.
    pub stuck: u64,
    /// The reductions the search applied besides state merging: `none`, `por`, `sym` or
    /// `por+sym` (symmetry only where the scenario has interchangeable CPUs).
    pub reductions: &'static str,
    /// The classes of interchangeable CPUs the scenario has (`symmetry.rs`), whether or not
    /// the symmetry reduction was on.
    pub symmetric_cpus: Vec<Vec<u16>>,
    pub counterexample: Option<Counterexample>,
}

pub struct Check {
    search: explore::Search,
    cx: Option<(World, Counterexample)>,
}

impl Check {
    pub fn new(text: &str, overrides: &[String], limits: Limits) -> Result<Check, SimError> {
        let cfg = crate::scenario::parse(text, overrides)?;
        let arch = crate::arch::for_config(&cfg);
        Ok(Check::of_world(World::new(cfg, SEED, arch), limits))
    }

    pub fn of_world(mut w: World, limits: Limits) -> Check {
        w.enable_migration_choices();
        Check {
            search: explore::Search::new(w, limits),
            cx: None,
        }
    }

    /// Chooses the reductions before the search starts (`none`, `por`, `sym`, `all`); false for an
    /// unknown name, or once the search has fired anything (changing them mid-search would
    /// mix two searches' sleep sets).
    pub fn set_reduce(&mut self, name: &str) -> bool {
        match Reduce::parse(name) {
            Some(r) if self.search.transitions == 0 => {
                self.search.set_reduce(r);
                true
            }
            _ => false,
        }
    }

    /// Tries about `budget` transitions; true once there is a verdict.
    pub fn run_for(&mut self, budget: u64) -> bool {
        let done = self.search.run_for(budget);
        if let (Verdict::Violated(n), None) = (self.search.verdict, &self.cx) {
            let path = self.search.path_to(n);
            self.cx = Some(counterexample::explain(self.search.initial(), path));
        }
        done
    }

    pub fn run(&mut self) -> Report {
        while !self.run_for(1 << 14) {}
        self.report()
    }

    /// The scenario's initial world (what paths replay from).
    pub fn initial(&self) -> &World {
        self.search.initial()
    }

    pub fn states(&self) -> u64 {
        self.search.states()
    }

    pub fn depth(&self) -> u32 {
        self.search.max_depth
    }

    pub fn verdict(&self) -> Verdict {
        self.search.verdict
    }

    pub fn report(&self) -> Report {
        let (verdict, bound) = match self.search.verdict {
            Verdict::Running => ("running", None),
            Verdict::Holds => ("holds", None),
            Verdict::Violated(_) => ("violated", None),
            Verdict::BoundReached(b) => (
                "bound_reached",
                Some(match b {
                    Bound::States => "states",
                    Bound::Steps => "steps",
                }),
            ),
        };
        Report {
            verdict,
            bound,
            states: self.search.states(),
            transitions: self.search.transitions,
            depth: self.search.max_depth,
            stuck: self.search.stuck,
            reductions: self.search.applied(),
            symmetric_cpus: self.search.symmetric_cpus().to_vec(),
            counterexample: self.cx.as_ref().map(|(_, c)| c.clone()),
        }
    }

    /// The counterexample's replayed world (its trace is the timeline to draw) and the path.
    pub fn counterexample_world(&self) -> Option<(&World, &[u16])> {
        self.cx.as_ref().map(|(w, c)| (w, c.path.as_slice()))
    }
}
