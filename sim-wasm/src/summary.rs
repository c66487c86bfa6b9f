//! The per-run summary computed from the trace: the numbers the CLI prints, the UI compares
//! and the scenario tests check. Computed once at the end of a run, then serialised as JSON
//! (once per run — the per-event data crosses the boundary as columns, never as JSON).

use serde::Serialize;

use crate::events::EventKind;
use crate::trace::Trace;

#[derive(Serialize, Debug, Clone, Copy, PartialEq, Default)]
pub struct Stats {
    pub count: u64,
    pub mean: f64,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

impl Stats {
    /// Nearest-rank percentiles over `values` (sorted in place).
    pub fn of(values: &mut [f64]) -> Stats {
        if values.is_empty() {
            return Stats::default();
        }
        values.sort_by(f64::total_cmp);
        let n = values.len();
        let rank = |p: f64| values[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
        Stats {
            count: n as u64,
            mean: values.iter().sum::<f64>() / n as f64,
            p50: rank(0.50),
            p99: rank(0.99),
            max: values[n - 1],
        }
    }
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Violation {
    pub invariant: String,
    pub cpu: u16,
    pub time_ns: f64,
    pub detail: String,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Summary {
    pub events: u64,
    pub trace_rows: u64,
    pub sim_time_ns: f64,
    pub flush_latency_ns: Stats,
    pub preempt_off_ns: Stats,
    pub ipis: u64,
    pub violations: Vec<Violation>,
}

impl Summary {
    pub fn of(trace: &Trace, events: u64, sim_time_ns: u64) -> Summary {
        let durations =
            |k: EventKind| -> Vec<f64> { trace.rows_of(k).map(|i| trace.dur[i]).collect() };
        let violations = trace
            .rows_of(EventKind::InvariantViolated)
            .map(|i| {
                let detail = trace
                    .strings
                    .get(trace.arg[i] as usize)
                    .cloned()
                    .unwrap_or_default();
                let invariant = detail.split(':').next().unwrap_or("").to_string();
                Violation {
                    invariant,
                    cpu: trace.cpu[i],
                    time_ns: trace.time[i],
                    detail,
                }
            })
            .collect();
        Summary {
            events,
            trace_rows: trace.len() as u64,
            sim_time_ns: sim_time_ns as f64,
            flush_latency_ns: Stats::of(&mut durations(EventKind::FlushRange)),
            preempt_off_ns: Stats::of(&mut durations(EventKind::PreemptOff)),
            ipis: trace.rows_of(EventKind::IpiSent).count() as u64,
            violations,
        }
    }

    pub fn to_json(&self) -> String {
        // Serialising plain numbers, strings and vectors cannot fail.
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_one_to_hundred_use_nearest_rank() {
        let mut v: Vec<f64> = (1..=100).map(f64::from).collect();
        let s = Stats::of(&mut v);
        assert_eq!((s.p50, s.p99, s.max, s.mean), (50.0, 99.0, 100.0, 50.5));
    }

    #[test]
    fn stats_of_nothing_are_zero() {
        assert_eq!(Stats::of(&mut []), Stats::default());
    }
}
