//! Every interleaving of a small scenario: an explicit-state model checker over the simulator's
//! own transitions (kernel-mechanics.md §7–§8; README "Checking every interleaving").
//!
//! At every state the choices are the pending events that would act (`World::enabled_events`,
//! less the few that must wait for another, `order.rs`):
//! task steps and wakes, IPI arrivals, IPI-handler steps, arm64 interconnect timers. Time is
//! abstracted to order: any pending event may go first, as if every other were delayed (a CPU
//! can always be slower), and the clock only moves forward (`max(now, due)`). Each choice runs
//! `World::fire`, the same `handle` a normal run uses; there is no second copy of the protocol.
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
//! Not done: partial-order reduction (it needs each event's read/write footprint, which the
//! transitions do not declare; a dynamic check of currently enabled pairs is not enough for
//! the ample-set condition) and CPU symmetry (scenarios pin distinct programs to CPUs, so few
//! are symmetric, and canonicalising CPU numbers through cpumasks and csds is its own project).
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
mod races;

use serde::Serialize;

pub use counterexample::{replay, Counterexample, Step};
pub use explore::{Bound, Limits, Verdict};
pub use key::state_key;
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

    pub fn of_world(w: World, limits: Limits) -> Check {
        Check {
            search: explore::Search::new(w, limits),
            cx: None,
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
            counterexample: self.cx.as_ref().map(|(_, c)| c.clone()),
        }
    }

    /// The counterexample's replayed world (its trace is the timeline to draw) and the path.
    pub fn counterexample_world(&self) -> Option<(&World, &[u16])> {
        self.cx.as_ref().map(|(w, c)| (w, c.path.as_slice()))
    }
}
