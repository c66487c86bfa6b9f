//! Guided steps: the narration a scenario file carries (`[[steps]]`). Each step names a time
//! window, the event kinds to emphasise, and the overrides to run with. Parse-time checks live
//! in `scenario/steps.rs`; [`check_run`] checks a step against the run it describes (the window lies
//! within the run, and every highlighted kind happens inside it), so a step that points past
//! the end or at nothing is an error naming the step's line and field.

use serde::Serialize;

use crate::error::SimError;
use crate::events::EventKind;
use crate::trace_store::TraceStore;

/// One narrated step, validated.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Step {
    pub title: String,
    pub text: String,
    /// Visible window `[start, end]` in ns; `None` = the whole run.
    pub window: Option<[u64; 2]>,
    /// Event kinds to emphasise, by name.
    pub highlight: Vec<String>,
    /// `[start, end]` in ns: a stretch of the window the text points at that may be too
    /// narrow to see in it; the page draws it magnified beside the lanes.
    pub magnify: Option<[u64; 2]>,
    /// Restrict `highlight` to these CPUs (empty = all). With `expand`, the CPUs the page
    /// shows as lanes; the others are folded.
    pub cpus: Vec<u16>,
    /// More CPUs the step talks about, shown as lanes but not highlighted.
    pub expand: Vec<u16>,
    /// Latency-lens intervals the step points at (see [`LENS_KINDS`]), drawn with durations.
    pub lens: Vec<String>,
    /// The step's complete override list (not cumulative).
    pub set: Vec<String>,
    /// Overrides of a B side to compare with, if any.
    pub compare: Option<Vec<String>>,
    pub question: Option<String>,
    pub answer: Option<String>,
    /// A question's options as `"<label> = <measure>"` (2 to 4), the measure in the claims
    /// grammar: the page evaluates each on the step's run and the `pick` one is the answer.
    pub choices: Vec<String>,
    /// `max` (default) or `min`: which choice's measure the run says is right.
    pub pick: Option<String>,
    /// Id of a measured dataset (content/datasets/<id>.csv) to show beside the step.
    pub dataset: Option<String>,
    /// Id of a kernel recording (content/recordings/<id>.trace) to show beside the step.
    pub recording: Option<String>,
    /// Check every interleaving of the step's settings (and `compare`'s) instead of one
    /// seeded run (`check/`): the page shows the verdict and the shortest counterexample.
    pub check: bool,
    /// What each number the text states is, so that a test can hold the text to the run:
    /// `"<words as written> = <what they measure>"`, e.g. `"26 µs = wakeup_latency_ns.max"`,
    /// `"3 IPIs = ipis"`, `"6.6 µs = time(AsidRollover)"`, `"30 µs = input"` (a number the
    /// file sets) or `"16.7 ms = source"` (quoted from `content/sources/`). The grammar and
    /// its checks are in `tests/content_claims.rs`; the simulator itself ignores them.
    pub claims: Vec<String>,
    /// 1-based line of the step's `[[steps]]` header in the file.
    pub line: u32,
}

/// The latency lens's interval kinds, derived by the page from the trace (web/src/model/lens.ts):
/// an initiator's non-preemptible wait for acks, an interrupts-off window that holds up a
/// flush request, a woken high-priority task's wait until it runs.
pub const LENS_KINDS: [&str; 3] = ["nonpreempt_wait", "irqs_off_delay", "wakeup_latency"];

impl Step {
    /// The highlighted kinds as enum values (names were validated at parse time).
    pub fn highlight_kinds(&self) -> Vec<EventKind> {
        self.highlight
            .iter()
            .filter_map(|n| EventKind::from_name(n))
            .collect()
    }
}

/// Checks step `index` against a finished run of it.
pub fn check_run(
    index: usize,
    step: &Step,
    trace: &TraceStore,
    run_end_ns: u64,
) -> Result<(), SimError> {
    let err = |field: &str, msg: String| {
        SimError::new(format!("steps[{index}].{field}"), msg).at_line(step.line)
    };
    let [t0, t1] = step.window.unwrap_or([0, run_end_ns]);
    if let Some([a, b]) = step.magnify {
        if a < t0 || b > t1 {
            return Err(err(
                "magnify",
                format!("[{a}, {b}] ns lies outside the step's window [{t0}, {t1}] ns"),
            ));
        }
    }
    if let Some([_, end]) = step.window {
        if end > run_end_ns {
            return Err(err(
                "window",
                format!("ends at {end} ns, after the run ends at {run_end_ns} ns"),
            ));
        }
    }
    for kind in step.highlight_kinds() {
        let k = kind as u8;
        let found = (0..trace.len()).any(|i| {
            let start = trace.time(i);
            let end = start + trace.dur(i);
            trace.kind(i) == k
                && end >= t0 as f64
                && start <= t1 as f64
                && (step.cpus.is_empty() || step.cpus.contains(&trace.cpu(i)))
        });
        if !found {
            let on = if step.cpus.is_empty() {
                String::new()
            } else {
                format!(" on CPUs {:?}", step.cpus)
            };
            return Err(err(
                "highlight",
                format!(
                    "no {kind:?} event{on} inside the window [{t0}, {t1}] ns of this step's run"
                ),
            ));
        }
    }
    Ok(())
}

/// 1-based line of the `n`-th (0-based) `[[steps]]` header, or 0.
pub fn header_line(text: &str, n: usize) -> u32 {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("[[steps]]"))
        .nth(n)
        .map_or(0, |(i, _)| i as u32 + 1)
}
