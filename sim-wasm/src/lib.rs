//! tlbscope's simulator: a deterministic discrete-event model of Linux TLB shootdowns.
//!
//! This file is the WASM binding surface only (the one file that uses `wasm_bindgen`, besides
//! the shared `EventKind` enum). The model lives in plain Rust modules tested natively.
//! Results leave as typed-array columns, copied once per call: never JSON per event, never
//! views into WASM memory (which detach when memory grows).

pub mod arch;
pub mod budget;
pub mod check;
mod clone_reusing;
pub mod config;
pub mod cpu;
pub mod engine;
pub mod error;
pub mod events;
pub mod ids;
pub mod inspect;
pub mod invariants;
pub mod ipi;
pub mod locate;
pub mod locks;
pub mod machine;
pub mod mm;
pub mod ops;
pub mod page_cache;
pub mod preempt;
pub mod presets;
pub mod program;
pub mod rng;
pub mod scenario;
pub mod sched;
pub mod session;
pub mod settings;
mod shapes;
pub mod snapshot;
pub mod steps;
pub mod summary;
pub mod task;
pub mod tlb;
pub mod trace;
pub mod trace_store;
pub mod victims;

use wasm_bindgen::prelude::*;

pub use events::EventKind;

/// An error from the simulator, thrown to JS as an object with `path`, `line` and `message`.
#[wasm_bindgen]
pub struct ScenarioError {
    inner: error::SimError,
}

#[wasm_bindgen]
impl ScenarioError {
    /// Dotted path of the field at fault, e.g. `machine.cpus` or `--set flush_info`.
    #[wasm_bindgen(getter)]
    pub fn path(&self) -> String {
        self.inner.path.clone()
    }
    /// 1-based line in the scenario text, 0 if not applicable.
    #[wasm_bindgen(getter)]
    pub fn line(&self) -> u32 {
        self.inner.line
    }
    #[wasm_bindgen(getter)]
    pub fn message(&self) -> String {
        self.inner.message.clone()
    }
    /// The whole error as one line, e.g. `line 3: machine.cpus: must be between 1 and 512, got 0`.
    #[wasm_bindgen(js_name = toString)]
    pub fn to_string_js(&self) -> String {
        self.inner.to_string()
    }
}

fn rows(start: Option<u32>, end: Option<u32>) -> std::ops::Range<usize> {
    start.unwrap_or(0) as usize..end.map_or(usize::MAX, |e| e as usize)
}

fn into_error(e: error::SimError) -> ScenarioError {
    ScenarioError { inner: e }
}

/// The settings vocabulary as JSON: every setting (key, aliases, path, type, bounds, choices,
/// default, architecture, doc), every cost parameter (unit, bound, doc with its source) and
/// every machine preset (architecture, geometry, cost values). `npm run vocab` writes
/// `web/src/sim/vocabulary.generated.ts` from it.
#[wasm_bindgen(js_name = vocabularyJson)]
pub fn vocabulary_json() -> String {
    scenario::vocabulary::json().to_string()
}

/// An opaque handle to one simulation run.
#[wasm_bindgen]
pub struct Simulator {
    session: session::Session,
}

#[wasm_bindgen]
impl Simulator {
    /// Parses and validates `scenario` (TOML) with `overrides` (`key=value`), seeded by `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        scenario: &str,
        overrides: Vec<String>,
        seed: u32,
    ) -> Result<Simulator, ScenarioError> {
        session::Session::new(scenario, &overrides, seed as u64)
            .map(|session| Simulator { session })
            .map_err(into_error)
    }

    /// Processes up to `budget` events; returns true once the run is complete.
    #[wasm_bindgen(js_name = runFor)]
    pub fn run_for(&mut self, budget: u32) -> bool {
        self.session.run_for(budget as u64)
    }

    /// Runs to completion.
    pub fn run(&mut self) {
        self.session.run();
    }

    #[wasm_bindgen(getter)]
    pub fn done(&self) -> bool {
        self.session.is_done()
    }
    /// "" unless the run's budget stopped it early; then what stopped it, how far it got and
    /// how to raise the budget (the trace and summary cover the partial run).
    #[wasm_bindgen(getter, js_name = budgetError)]
    pub fn budget_error(&self) -> String {
        self.session
            .budget_error()
            .map_or_else(String::new, |e| e.to_string())
    }
    #[wasm_bindgen(getter)]
    pub fn events(&self) -> f64 {
        self.session.events() as f64
    }
    #[wasm_bindgen(getter, js_name = nowNs)]
    pub fn now_ns(&self) -> f64 {
        self.session.now() as f64
    }
    #[wasm_bindgen(getter)]
    pub fn title(&self) -> String {
        self.session.config().title.clone()
    }
    #[wasm_bindgen(getter)]
    pub fn description(&self) -> String {
        self.session.config().description.clone()
    }
    #[wasm_bindgen(getter)]
    pub fn cpus(&self) -> u16 {
        self.session.config().cpus
    }
    /// `x86` or `arm64`.
    #[wasm_bindgen(getter)]
    pub fn arch(&self) -> String {
        self.session.config().arch.name().to_string()
    }
    /// The scenario's one-line hook (empty if none).
    #[wasm_bindgen(getter)]
    pub fn summary(&self) -> String {
        self.session.config().summary.clone()
    }
    /// The cost preset in effect, e.g. `generic-x86`.
    #[wasm_bindgen(getter)]
    pub fn preset(&self) -> String {
        self.session.config().preset.clone()
    }
    /// Every cost parameter in effect (preset, `[costs]`, `--set costs.*`) as JSON
    /// `{"<name>": value}`.
    #[wasm_bindgen(js_name = costsJson)]
    pub fn costs_json(&self) -> String {
        scenario::vocabulary::costs_json(&self.session.config().costs)
    }
    /// The scenario's `[expect]` table as JSON:
    /// `{"violations":[..],"test_set":[..],"cases":[{"set":[..],"violations":[..]}]}`.
    #[wasm_bindgen(js_name = expectJson)]
    pub fn expect_json(&self) -> String {
        self.session.expect_json()
    }
    /// The machine's state at simulated time `t_ns` (TLB contents, PCID slots, cpumasks,
    /// pending IPIs, csds; arm64 ASIDs) as JSON, for the inspector.
    #[wasm_bindgen(js_name = snapshotJson)]
    pub fn snapshot_json(&self, t_ns: f64) -> String {
        // NaN, negative or huge cursor values clamp into u64 range (`as` saturates).
        self.session.snapshot_json(t_ns.max(0.0) as u64)
    }
    /// Position in the guided tour, or 0 for a sandbox-only scenario.
    #[wasm_bindgen(getter)]
    pub fn guide(&self) -> u32 {
        self.session.config().guide.unwrap_or(0)
    }
    /// The narrated steps as JSON: [{title, text, window, highlight, cpus, set, compare,
    /// question, answer, dataset, line}].
    #[wasm_bindgen(js_name = stepsJson)]
    pub fn steps_json(&self) -> String {
        self.session.steps_json()
    }
    /// Every setting the run used, in the `--set` vocabulary, as a JSON object of strings
    /// (`{"cpus":"4","flush_info":"percpu",…}`): the values the page's controls show.
    #[wasm_bindgen(js_name = settingsJson)]
    pub fn settings_json(&self) -> String {
        settings::effective_json(self.session.config())
    }
    /// The file-level `claims` (what the numbers in its title, summary and description are) as
    /// a JSON array of strings; the steps carry their own in `stepsJson`.
    #[wasm_bindgen(js_name = claimsJson)]
    pub fn claims_json(&self) -> String {
        serde_json::to_string(&self.session.config().claims).unwrap_or_else(|_| "[]".into())
    }
    /// After a run of step `index`'s settings: "" if the step fits the run, else the problem.
    #[wasm_bindgen(js_name = checkStep)]
    pub fn check_step(&self, index: u32) -> String {
        match self.session.check_step(index as usize) {
            Ok(()) => String::new(),
            Err(e) => e.to_string(),
        }
    }
    /// The run's summary as JSON (computed once, at the end of a run).
    #[wasm_bindgen(js_name = summaryJson)]
    pub fn summary_json(&self) -> String {
        self.session.summary().to_json()
    }

    // Column getters: each copies rows [start, end) of one column (all rows when the bounds
    // are left out, clamped to the trace) out of WASM memory into a fresh typed array, so a
    // caller can fetch a long trace in slices and WASM memory never holds a whole wide column.
    pub fn time(&self, start: Option<u32>, end: Option<u32>) -> Vec<f64> {
        self.session.store().time_column(rows(start, end))
    }
    pub fn dur(&self, start: Option<u32>, end: Option<u32>) -> Vec<f64> {
        self.session.store().dur_column(rows(start, end))
    }
    pub fn cpu(&self, start: Option<u32>, end: Option<u32>) -> Vec<u16> {
        self.session.store().cpu_column(rows(start, end))
    }
    pub fn kind(&self, start: Option<u32>, end: Option<u32>) -> Vec<u8> {
        self.session.store().kind_column(rows(start, end))
    }
    pub fn mm(&self, start: Option<u32>, end: Option<u32>) -> Vec<u16> {
        self.session.store().mm_column(rows(start, end))
    }
    pub fn asid(&self, start: Option<u32>, end: Option<u32>) -> Vec<u16> {
        self.session.store().asid_column(rows(start, end))
    }
    pub fn gen(&self, start: Option<u32>, end: Option<u32>) -> Vec<u32> {
        self.session.store().gen_column(rows(start, end))
    }
    pub fn addr(&self, start: Option<u32>, end: Option<u32>) -> Vec<f64> {
        self.session.store().addr_column(rows(start, end))
    }
    pub fn arg(&self, start: Option<u32>, end: Option<u32>) -> Vec<f64> {
        self.session.store().arg_column(rows(start, end))
    }
    pub fn parent(&self, start: Option<u32>, end: Option<u32>) -> Vec<i32> {
        self.session.store().parent_column(rows(start, end))
    }
    pub fn strings(&self) -> Vec<String> {
        self.session.store().strings().to_vec()
    }
    /// Rows in the trace.
    #[wasm_bindgen(getter)]
    pub fn rows(&self) -> u32 {
        self.session.store().len() as u32
    }
}

/// An exhaustive interleaving check (`check/`), stepped in budgets for progress and cancel.
#[wasm_bindgen]
pub struct Checker {
    check: check::Check,
}

#[wasm_bindgen]
impl Checker {
    #[wasm_bindgen(constructor)]
    pub fn new(
        scenario: &str,
        overrides: Vec<String>,
        max_states: u32,
        max_steps: u32,
    ) -> Result<Checker, ScenarioError> {
        let limits = check::Limits {
            max_states: max_states.max(1) as u64,
            max_steps,
            ..check::Limits::default()
        };
        check::Check::new(scenario, &overrides, limits)
            .map(|check| Checker { check })
            .map_err(into_error)
    }
    /// Reductions `none`, `por` or `all` (the default), before the first `runFor`.
    #[wasm_bindgen(js_name = setReduce)]
    pub fn set_reduce(&mut self, reduce: &str) -> bool {
        self.check.set_reduce(reduce)
    }
    /// Tries about `budget` transitions; true once there is a verdict.
    #[wasm_bindgen(js_name = runFor)]
    pub fn run_for(&mut self, budget: u32) -> bool {
        self.check.run_for(budget as u64)
    }
    /// Verdict, counts and counterexample so far (`check::Report`).
    #[wasm_bindgen(js_name = reportJson)]
    pub fn report_json(&self) -> String {
        serde_json::to_string(&self.check.report()).unwrap_or_else(|_| "{}".into())
    }
    /// The counterexample as a finished run to draw, inspect and step (none if it holds).
    pub fn counterexample(&self) -> Option<Simulator> {
        session::Session::of_counterexample(&self.check).map(|session| Simulator { session })
    }
}

/// The races (R1–R18) the checker answers (`check::RACES`), as JSON.
#[wasm_bindgen(js_name = racesJson)]
pub fn races_json() -> String {
    serde_json::to_string(check::RACES).unwrap_or_else(|_| "[]".into())
}
