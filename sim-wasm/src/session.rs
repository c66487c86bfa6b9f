//! One simulation run, as the outside world drives it: built from scenario text, overrides and
//! a seed; stepped in event budgets (so a UI can report progress and cancel); then read as a
//! trace and a summary. Pure Rust: the WASM handle in `lib.rs` and native tests use the same.

use crate::config::Config;
use crate::error::SimError;
use crate::machine::World;
use crate::scenario;
use crate::summary::Summary;
use crate::trace::Trace;
use crate::trace_store::TraceStore;

pub struct Session {
    world: World,
    seed: u64,
    /// The trace decoded into plain columns, made on first ask (tests and tools read it that
    /// way; the WASM side exports ranges of the store instead) and dropped when the run goes on.
    decoded: std::cell::OnceCell<Trace>,
    /// A checker's counterexample (`check/`): the choices that replay it, from `initial`. Its
    /// snapshots replay those choices instead of running in time order.
    replayed: Option<(Box<World>, Vec<u16>)>,
}

impl Session {
    pub fn new(text: &str, overrides: &[String], seed: u64) -> Result<Session, SimError> {
        let cfg = scenario::parse(text, overrides)?;
        let arch = crate::arch::for_config(&cfg);
        Ok(Session {
            world: World::new(cfg, seed, arch),
            seed,
            decoded: std::cell::OnceCell::new(),
            replayed: None,
        })
    }

    /// The checker's counterexample as a finished run: its trace is the interleaving's.
    pub fn of_counterexample(check: &crate::check::Check) -> Option<Session> {
        let (w, path) = check.counterexample_world()?;
        let mut world = w.clone();
        world.finish_here();
        Some(Session {
            world,
            seed: crate::check::SEED,
            decoded: std::cell::OnceCell::new(),
            replayed: Some((Box::new(check.initial().clone()), path.to_vec())),
        })
    }

    /// Processes up to `budget` events; true when the run has finished.
    pub fn run_for(&mut self, budget: u64) -> bool {
        self.decoded.take();
        self.world.run_for(budget)
    }

    pub fn run(&mut self) -> &TraceStore {
        self.decoded.take();
        self.world.run();
        &self.world.trace
    }

    pub fn is_done(&self) -> bool {
        self.world.is_done()
    }

    /// Set when the run's budget stopped it before its work was done: the field to raise and
    /// how far the run got. The trace and summary then describe the partial run.
    pub fn budget_error(&self) -> Option<SimError> {
        self.world.budget_error()
    }

    pub fn config(&self) -> &Config {
        &self.world.cfg
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The trace as plain columns (decoded once, then kept until the run goes on).
    pub fn trace(&self) -> &Trace {
        self.decoded.get_or_init(|| self.world.trace.decode())
    }

    /// The trace as the run keeps it: rows and ranges of columns without decoding it whole.
    pub fn store(&self) -> &TraceStore {
        &self.world.trace
    }

    pub fn events(&self) -> u64 {
        self.world.events()
    }

    pub fn now(&self) -> u64 {
        self.world.now()
    }

    /// Records every user access from now on (for reference-model tests).
    pub fn record_accesses(&mut self) {
        self.world.accesses.get_or_insert_with(Vec::new);
    }

    /// The accesses recorded since `record_accesses`.
    pub fn accesses(&self) -> &[crate::machine::Access] {
        self.world.accesses.as_deref().unwrap_or(&[])
    }

    /// The world itself, for tests that inspect kernel state.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The outcome the scenario file promises, as JSON:
    /// `{"violations":[..],"test_set":[..],"cases":[{"set":[..],"violations":[..]}]}`.
    pub fn expect_json(&self) -> String {
        let e = &self.world.cfg.expect;
        let cases: Vec<serde_json::Value> = e
            .cases
            .iter()
            .map(|c| serde_json::json!({"set": c.set, "violations": c.violations}))
            .collect();
        serde_json::json!({
            "violations": e.violations,
            "test_set": e.test_set,
            "cases": cases,
        })
        .to_string()
    }

    /// The state of the machine at simulated time `t_ns`, as JSON (see `snapshot.rs`, built by `inspect.rs`): the
    /// same config and seed re-run up to `t_ns`, so it is the state this run passed through.
    pub fn snapshot_json(&self, t_ns: u64) -> String {
        let w = match &self.replayed {
            Some((init, path)) => crate::check::replay(init, path, t_ns).0,
            None => {
                let mut w = World::new((*self.world.cfg).clone(), self.seed, self.world.arch);
                w.run_until(t_ns);
                w
            }
        };
        serde_json::to_string(&crate::inspect::of(&w)).unwrap_or_else(|_| "{}".into())
    }

    /// The scenario's narrated steps as JSON (an array; empty for sandbox-only scenarios).
    pub fn steps_json(&self) -> String {
        serde_json::to_string(&self.world.cfg.steps).unwrap_or_else(|_| "[]".into())
    }

    /// Checks step `index` against this (finished) run: `Err` names the step's line and field.
    pub fn check_step(&self, index: usize) -> Result<(), SimError> {
        let step = self.world.cfg.steps.get(index).ok_or_else(|| {
            SimError::new(
                "steps",
                format!(
                    "no step {index}; the scenario has {}",
                    self.world.cfg.steps.len()
                ),
            )
        })?;
        crate::steps::check_run(index, step, &self.world.trace, self.world.now())
    }

    pub fn summary(&self) -> Summary {
        let mut s = Summary::of(
            self.world.arch.name(),
            &self.world.stats,
            &self.world.trace,
            self.world.events(),
            self.world.now(),
        )
        .with_locks(&self.world.locks.stats);
        s.machine = self.world.cfg.preset.clone();
        s.notes = self.world.cfg.notes.clone();
        s.victim_throughput =
            crate::victims::throughput(self.world.cfg.workload.victim_work_ns, &s.victim_op_ns);
        s
    }
}
