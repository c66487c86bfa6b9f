//! The scenario file as written: serde structs that reject unknown keys, so syntax errors and
//! misspelt fields are reported with their line before anything is validated.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Value;

/// A whole scenario file. Unknown keys anywhere are errors.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct ScenarioFile {
    /// Shown as the scenario's name.
    pub(super) title: Option<String>,
    /// Prose (Markdown allowed) explaining what the scenario shows.
    pub(super) description: Option<String>,
    /// One-line hook for a landing page.
    pub(super) summary: Option<String>,
    /// `x86` (default) or `arm64`.
    pub(super) arch: Option<String>,
    #[serde(default)]
    pub(super) machine: MachineSection,
    #[serde(default)]
    pub(super) design: DesignSection,
    #[serde(default)]
    pub(super) workload: WorkloadSection,
    /// Cost overrides in ns by name (see `config::Costs`), e.g. `ipi_delivery_ns = 1500`.
    #[serde(default)]
    pub(super) costs: BTreeMap<String, i64>,
    /// Explicit tasks, on top of the generated workload.
    #[serde(default)]
    pub(super) tasks: Vec<TaskSection>,
    #[serde(default)]
    pub(super) expect: ExpectSection,
    /// Position in the guided tour (1, 2, …); absent for sandbox-only scenarios.
    pub(super) guide: Option<i64>,
    /// Narrated steps of a guided scenario (see `steps.rs`).
    #[serde(default)]
    pub(super) steps: Vec<StepSection>,
    /// What the numbers in the title, summary and description are (see `steps::Step::claims`),
    /// checked against a run of the file's own settings.
    #[serde(default)]
    pub(super) claims: Vec<String>,
}

/// One `[[steps]]` table: what the reader looks at, and what the timeline shows.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct StepSection {
    /// Short heading of the step (required).
    pub(super) title: Option<String>,
    /// The narration: paragraphs, `code` and **bold** (required).
    pub(super) text: Option<String>,
    /// `[start_ns, end_ns]` of the visible window; default: the whole run.
    pub(super) window: Option<Vec<i64>>,
    /// `[start_ns, end_ns]` inside the window, drawn magnified (a few ns in a µs view).
    pub(super) magnify: Option<Vec<i64>>,
    /// Event kinds to emphasise (names as in `EventKind`, e.g. `IpiSent`).
    #[serde(default)]
    pub(super) highlight: Vec<String>,
    /// Restrict the highlight to these CPUs (and show them as lanes, the others folded).
    #[serde(default)]
    pub(super) cpus: Vec<i64>,
    /// More CPUs shown as lanes, not highlighted.
    #[serde(default)]
    pub(super) expand: Vec<i64>,
    /// Latency-lens intervals to draw (`steps::LENS_KINDS`).
    #[serde(default)]
    pub(super) lens: Vec<String>,
    /// The step's complete list of `--set` overrides (not cumulative).
    #[serde(default)]
    pub(super) set: Vec<String>,
    /// Also run a B side with these overrides and show the two side by side.
    pub(super) compare: Option<Vec<String>>,
    /// A "predict, then reveal" question, and its answer (required with a question).
    pub(super) question: Option<String>,
    pub(super) answer: Option<String>,
    /// The question's options, `"<label> = <measure>"`; the run picks the answer.
    #[serde(default)]
    pub(super) choices: Vec<String>,
    /// `max` | `min`: the choice whose measure is largest (default) or smallest is right;
    /// `holds`: each measure ends in a condition (`count(IpiSent, cpu=1) == 0`) and the one
    /// option whose condition the run meets is right, for yes/no and "how many" questions.
    pub(super) pick: Option<String>,
    /// A measured dataset id (content/datasets/<id>.csv) to show beside the step.
    pub(super) dataset: Option<String>,
    /// A kernel recording id (content/recordings/<id>.trace) to show beside the step.
    pub(super) recording: Option<String>,
    /// Check every interleaving of the step's settings (and of `compare`'s) instead of one
    /// seeded run: the page shows the verdict and the shortest counterexample.
    #[serde(default)]
    pub(super) check: bool,
    /// What each number in the text is, e.g. `"26 µs = wakeup_latency_ns.max"`.
    #[serde(default)]
    pub(super) claims: Vec<String>,
}

/// The settings sections: each field is a setting of `vocabulary` (its type, bounds, default
/// and meaning are declared there; a test checks the two list the same fields).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct MachineSection {
    pub(super) preset: Option<String>,
    pub(super) cpus: Option<i64>,
    pub(super) tlb_entries: Option<i64>,
    pub(super) tlb_ways: Option<i64>,
    pub(super) tlb_index: Option<String>,
    pub(super) sockets: Option<i64>,
    pub(super) cacheline_bytes: Option<i64>,
    pub(super) flush_info_bytes: Option<i64>,
    pub(super) stack_offset: Option<i64>,
    pub(super) max_time_ns: Option<i64>,
    pub(super) max_events: Option<i64>,
    pub(super) max_memory_mb: Option<i64>,
    pub(super) asid_bits: Option<i64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct DesignSection {
    pub(super) flush_info: Option<String>,
    pub(super) preempt: Option<String>,
    pub(super) pcid: Option<Value>,
    pub(super) wait_mask: Option<String>,
    pub(super) plus_one_rule: Option<Value>,
    pub(super) lazy_freed_tables: Option<String>,
    pub(super) ceiling: Option<i64>,
    pub(super) broadcast_skip: Option<Value>,
    pub(super) dsb_before_dec: Option<Value>,
    pub(super) skip_rule: Option<String>,
    pub(super) cpu_id: Option<String>,
    pub(super) max_dvm_ops: Option<i64>,
    pub(super) pti: Option<Value>,
    pub(super) pti_user_flush: Option<String>,
    pub(super) switch_mm_barrier: Option<String>,
    pub(super) tlb_gen_read: Option<String>,
    pub(super) invlpgb: Option<Value>,
    pub(super) global_asid: Option<String>,
    pub(super) asid_transition: Option<Value>,
    pub(super) tlbsync_pinned: Option<Value>,
    pub(super) kernel: Option<Value>,
    pub(super) tlbi_range: Option<Value>,
    pub(super) locks: Option<String>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct WorkloadSection {
    pub(super) threads: Option<i64>,
    pub(super) busy_threads: Option<i64>,
    pub(super) lazy_cpus: Option<i64>,
    pub(super) flushes: Option<i64>,
    pub(super) pages: Option<i64>,
    pub(super) initiator: Option<i64>,
    pub(super) period_ns: Option<i64>,
    pub(super) freed_tables: Option<Value>,
    pub(super) irqs_off_probability: Option<f64>,
    pub(super) irqs_off_gap_ns: Option<i64>,
    pub(super) irqs_off_dist: Option<String>,
    pub(super) irqs_off_mean_ns: Option<i64>,
    pub(super) irqs_off_max_ns: Option<i64>,
    pub(super) wakeup_period_ns: Option<i64>,
    pub(super) wakeup_cpu: Option<i64>,
    pub(super) wakeup_work_ns: Option<i64>,
    pub(super) mm_pages: Option<i64>,
    pub(super) op: Option<String>,
    pub(super) processes: Option<Value>,
    pub(super) hot_pages: Option<i64>,
    pub(super) victims: Option<i64>,
    pub(super) victim_work_ns: Option<i64>,
    pub(super) reread: Option<Value>,
    pub(super) mapping: Option<String>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct TaskSection {
    /// Label in the UI (default `task<N>`).
    pub(super) name: Option<String>,
    /// Address space id; 0 = kernel thread (lazy TLB). Default 1.
    pub(super) mm: Option<i64>,
    /// CPU it starts on (default 0).
    pub(super) cpu: Option<i64>,
    /// CPUs it may migrate to (default: only `cpu`).
    pub(super) cpus: Option<Vec<i64>>,
    /// 0 = normal (default); higher preempts lower where preemption is enabled.
    pub(super) prio: Option<i64>,
    /// First wakeup time (default 0).
    pub(super) start_ns: Option<i64>,
    /// Program iterations, 0 = forever (default 1).
    pub(super) repeat: Option<i64>,
    /// Does not keep the run alive (default: true iff repeat = 0).
    pub(super) daemon: Option<bool>,
    /// Each iteration counts as an op in `op_latency_ns` (default false).
    pub(super) measure: Option<bool>,
    /// The program, see `program.rs`, e.g. `"touch 0; madvise 0; spin 2us"`.
    pub(super) program: String,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct ExpectSection {
    /// Invariants violated with the file's own settings, e.g. `[]` or `["I3", "I7"]`.
    #[serde(default)]
    pub(super) violations: Vec<String>,
    /// Overrides the native test suite adds (e.g. `["flushes=500"]` for a bench scenario).
    #[serde(default)]
    pub(super) test_set: Vec<String>,
    /// The outcome under other toggle settings.
    #[serde(default)]
    pub(super) cases: Vec<CaseSection>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct CaseSection {
    pub(super) set: Vec<String>,
    #[serde(default)]
    pub(super) violations: Vec<String>,
}
