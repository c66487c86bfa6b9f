//! The scenario file format (TOML, written by authors) and its validation into a [`Config`].
//!
//! Two passes: the text is first deserialised as written, so syntax errors and unknown fields
//! are reported with their line; then `--set key=value` overrides are applied to the parsed
//! table and the result is deserialised and range-checked again. Every error names the field.
//!
//! Every field is documented on the section structs below (`///`), and summarised for authors
//! in `sim-wasm/SCENARIOS.md`.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::{Table, Value};

use crate::budget;
use crate::config::{
    Arch, Config, Costs, CpuIdImpl, Design, Dist, Expect, ExpectCase, FlushInfo, Preempt, SkipRule,
    TaskSpec, TlbIndex, WaitMask, WorkOp, Workload, MAX_CPUS, MAX_KERNEL_PAGES,
};
use crate::error::SimError;
use crate::events::EventKind;
use crate::ids::{CpuId, MmId};
use crate::presets;
use crate::program;
use crate::steps::Step;

/// A whole scenario file. Unknown keys anywhere are errors.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    /// Shown as the scenario's name.
    title: Option<String>,
    /// Prose (Markdown allowed) explaining what the scenario shows.
    description: Option<String>,
    /// One-line hook for a landing page.
    summary: Option<String>,
    /// `x86` (default) or `arm64`.
    arch: Option<String>,
    #[serde(default)]
    machine: MachineSection,
    #[serde(default)]
    design: DesignSection,
    #[serde(default)]
    workload: WorkloadSection,
    /// Cost overrides in ns by name (see `config::Costs`), e.g. `ipi_delivery_ns = 1500`.
    #[serde(default)]
    costs: BTreeMap<String, i64>,
    /// Explicit tasks, on top of the generated workload.
    #[serde(default)]
    tasks: Vec<TaskSection>,
    #[serde(default)]
    expect: ExpectSection,
    /// Position in the guided tour (1, 2, …); absent for sandbox-only scenarios.
    guide: Option<i64>,
    /// Narrated steps of a guided scenario (see `steps.rs`).
    #[serde(default)]
    steps: Vec<StepSection>,
    /// What the numbers in the title, summary and description are (see `steps::Step::claims`),
    /// checked against a run of the file's own settings.
    #[serde(default)]
    claims: Vec<String>,
}

/// One `[[steps]]` table: what the reader looks at, and what the timeline shows.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct StepSection {
    /// Short heading of the step (required).
    title: Option<String>,
    /// The narration: paragraphs, `code` and **bold** (required).
    text: Option<String>,
    /// `[start_ns, end_ns]` of the visible window; default: the whole run.
    window: Option<Vec<i64>>,
    /// Event kinds to emphasise (names as in `EventKind`, e.g. `IpiSent`).
    #[serde(default)]
    highlight: Vec<String>,
    /// Restrict the highlight to these CPUs (and show them as lanes, the others folded).
    #[serde(default)]
    cpus: Vec<i64>,
    /// More CPUs shown as lanes, not highlighted.
    #[serde(default)]
    expand: Vec<i64>,
    /// Latency-lens intervals to draw (`steps::LENS_KINDS`).
    #[serde(default)]
    lens: Vec<String>,
    /// The step's complete list of `--set` overrides (not cumulative).
    #[serde(default)]
    set: Vec<String>,
    /// Also run a B side with these overrides and show the two side by side.
    compare: Option<Vec<String>>,
    /// A "predict, then reveal" question, and its answer (required with a question).
    question: Option<String>,
    answer: Option<String>,
    /// The question's options, `"<label> = <measure>"`; the run picks the answer.
    #[serde(default)]
    choices: Vec<String>,
    /// `max` | `min`: the choice whose measure is largest (default) or smallest is right.
    pick: Option<String>,
    /// A measured dataset id (content/datasets/<id>.csv) to show beside the step.
    dataset: Option<String>,
    /// A kernel recording id (content/recordings/<id>.trace) to show beside the step.
    recording: Option<String>,
    /// What each number in the text is, e.g. `"26 µs = wakeup_latency_ns.max"`.
    #[serde(default)]
    claims: Vec<String>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct MachineSection {
    /// Cost preset id: `generic-x86` (default), `icelake-8336c-128`, `skylake-laptop-kvm`.
    preset: Option<String>,
    /// 1..=512; default from the preset.
    cpus: Option<i64>,
    /// TLB entries per CPU (8..=65536) and associativity; defaults from the preset.
    tlb_entries: Option<i64>,
    tlb_ways: Option<i64>,
    /// TLB set-index function: `hash` | `xor7` (Skylake's sTLB, 128 sets); default from the
    /// preset (`xor7` on `skylake-laptop-kvm`, `hash` elsewhere). See `config::TlbIndex`.
    tlb_index: Option<String>,
    /// Cache line size in bytes (default 64).
    cacheline_bytes: Option<i64>,
    /// `sizeof(struct flush_tlb_info)` (default 40).
    flush_info_bytes: Option<i64>,
    /// Where an unaligned on-stack descriptor starts within its cache line (default 48).
    stack_offset: Option<i64>,
    /// Stop the run at this simulated time (default 10 s). The run's budget: at most this
    /// many events (50 M) and this much memory in MiB (256, at most 1024; state plus trace).
    max_time_ns: Option<i64>,
    max_events: Option<i64>,
    max_memory_mb: Option<i64>,
    /// arm64 only: ASID width, 2..=16 (default 16; real hardware has 8 or 16; smaller values
    /// force rollovers with few address spaces). Needs 2^bits − 1 ≥ cpus + 2.
    asid_bits: Option<i64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct DesignSection {
    /// `percpu` (2019–2026, default) | `stack` (2026) | `stack_unaligned`.
    flush_info: Option<String>,
    /// `pinned` (pre-2026, default) | `preemptible_wait` (2026).
    preempt: Option<String>,
    /// `on` (default) | `off`.
    pcid: Option<Value>,
    /// `task` (2026, default) | `percpu` (pre-2026 `cfd->cpumask`; only matters when preemptible).
    wait_mask: Option<String>,
    /// `on` (default) | `off`: the "+1" rule for partial flushes (R8).
    plus_one_rule: Option<Value>,
    /// `ipi` (default) | `skip`: whether `freed_tables` flushes interrupt lazy CPUs (R6).
    lazy_freed_tables: Option<String>,
    /// `tlb_single_page_flush_ceiling` (default 33).
    ceiling: Option<i64>,
    /// arm64: `off` (mainline, default) | `on` (Arcangeli's skip-broadcast series).
    broadcast_skip: Option<Value>,
    /// arm64 skip-broadcast: `on` (default, the 2020-04-01 fix) | `off` (R16).
    dsb_before_dec: Option<Value>,
    /// arm64 skip-broadcast: `active_mm` (v2, default) | `mm_users` (the RFC rule, R15).
    skip_rule: Option<String>,
    /// arm64: `thread_info` (2024, default) | `percpu` (`raw_smp_processor_id()`, seed 003).
    cpu_id: Option<String>,
    /// arm64 `MAX_DVM_OPS` (default 512 = `PTRS_PER_PTE`).
    max_dvm_ops: Option<i64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct WorkloadSection {
    /// Op threads of mm 1 looping touch + madvise (default 1, or 0 when `[[tasks]]` exist).
    threads: Option<i64>,
    /// Threads of mm 1 spinning on the following CPUs (default: all remaining CPUs).
    busy_threads: Option<i64>,
    /// CPUs left idle in lazy-TLB mode on mm 1 after running one of its threads (default 0).
    lazy_cpus: Option<i64>,
    /// Ops per op thread (default 1).
    flushes: Option<i64>,
    /// Pages per op (default 1; > ceiling ⇒ full flushes).
    pages: Option<i64>,
    /// First CPU of the op threads (default 0).
    initiator: Option<i64>,
    /// Minimum time from one op's start to the next (default 0: back to back).
    period_ns: Option<i64>,
    /// Op threads free page tables (munmap) instead of madvise (default false).
    freed_tables: Option<Value>,
    /// Busy threads: chance per gap of an interrupts-off window (default 0).
    irqs_off_probability: Option<f64>,
    /// Busy threads: user-mode spin between interrupts-off draws (default 20 µs).
    irqs_off_gap_ns: Option<i64>,
    /// `uniform` (default) | `exp` | `pareto`.
    irqs_off_dist: Option<String>,
    /// Mean of `exp`/`pareto` windows (default max/4) and cap of all windows (default 0).
    irqs_off_mean_ns: Option<i64>,
    irqs_off_max_ns: Option<i64>,
    /// A high-priority task wakes on `wakeup_cpu` (default: the initiator) every period and
    /// works `wakeup_work_ns` (default 2 µs); 0 = none (default).
    wakeup_period_ns: Option<i64>,
    wakeup_cpu: Option<i64>,
    wakeup_work_ns: Option<i64>,
    /// Pages per address space (default 64, grown to fit the op threads' ranges).
    mm_pages: Option<i64>,
    /// `madvise` (default) | `munmap` (default when `freed_tables`) | `mprotect` | `cow`.
    op: Option<String>,
    /// Each op thread is its own process with a waiting main thread (default false).
    processes: Option<Value>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct TaskSection {
    /// Label in the UI (default `task<N>`).
    name: Option<String>,
    /// Address space id; 0 = kernel thread (lazy TLB). Default 1.
    mm: Option<i64>,
    /// CPU it starts on (default 0).
    cpu: Option<i64>,
    /// CPUs it may migrate to (default: only `cpu`).
    cpus: Option<Vec<i64>>,
    /// 0 = normal (default); higher preempts lower where preemption is enabled.
    prio: Option<i64>,
    /// First wakeup time (default 0).
    start_ns: Option<i64>,
    /// Program iterations, 0 = forever (default 1).
    repeat: Option<i64>,
    /// Does not keep the run alive (default: true iff repeat = 0).
    daemon: Option<bool>,
    /// Each iteration counts as an op in `op_latency_ns` (default false).
    measure: Option<bool>,
    /// The program, see `program.rs`, e.g. `"touch 0; madvise 0; spin 2us"`.
    program: String,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct ExpectSection {
    /// Invariants violated with the file's own settings, e.g. `[]` or `["I3", "I7"]`.
    #[serde(default)]
    violations: Vec<String>,
    /// Overrides the native test suite adds (e.g. `["flushes=500"]` for a bench scenario).
    #[serde(default)]
    test_set: Vec<String>,
    /// The outcome under other toggle settings.
    #[serde(default)]
    cases: Vec<CaseSection>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct CaseSection {
    set: Vec<String>,
    #[serde(default)]
    violations: Vec<String>,
}

/// The flat override vocabulary shared by scenario files, the URL, the CLI and CSV `variant`
/// columns: each short key names the table (and field) it lives in.
const SECTION_OF: &[(&str, &str, &str)] = &[
    ("cpus", "machine", "cpus"),
    ("machine", "machine", "preset"),
    ("preset", "machine", "preset"),
    ("tlb_entries", "machine", "tlb_entries"),
    ("tlb_ways", "machine", "tlb_ways"),
    ("tlb_index", "machine", "tlb_index"),
    ("stack_offset", "machine", "stack_offset"),
    ("max_time_ns", "machine", "max_time_ns"),
    ("max_events", "machine", "max_events"),
    ("max_memory_mb", "machine", "max_memory_mb"),
    ("flush_info", "design", "flush_info"),
    ("preempt", "design", "preempt"),
    ("pcid", "design", "pcid"),
    ("wait_mask", "design", "wait_mask"),
    ("plus_one_rule", "design", "plus_one_rule"),
    ("lazy_freed_tables", "design", "lazy_freed_tables"),
    ("ceiling", "design", "ceiling"),
    ("threads", "workload", "threads"),
    ("busy_threads", "workload", "busy_threads"),
    ("lazy_cpus", "workload", "lazy_cpus"),
    ("flushes", "workload", "flushes"),
    ("pages", "workload", "pages"),
    ("initiator", "workload", "initiator"),
    ("period_ns", "workload", "period_ns"),
    ("freed_tables", "workload", "freed_tables"),
    ("irqs_off_probability", "workload", "irqs_off_probability"),
    ("irqs_off_gap_ns", "workload", "irqs_off_gap_ns"),
    ("irqs_off_dist", "workload", "irqs_off_dist"),
    ("irqs_off_mean_ns", "workload", "irqs_off_mean_ns"),
    ("irqs_off_max_ns", "workload", "irqs_off_max_ns"),
    ("wakeup_period_ns", "workload", "wakeup_period_ns"),
    ("wakeup_cpu", "workload", "wakeup_cpu"),
    ("wakeup_work_ns", "workload", "wakeup_work_ns"),
    ("mm_pages", "workload", "mm_pages"),
    ("op", "workload", "op"),
    ("processes", "workload", "processes"),
    ("asid_bits", "machine", "asid_bits"),
    ("broadcast_skip", "design", "broadcast_skip"),
    ("dsb_before_dec", "design", "dsb_before_dec"),
    ("skip_rule", "design", "skip_rule"),
    ("cpu_id", "design", "cpu_id"),
    ("max_dvm_ops", "design", "max_dvm_ops"),
];

type CostField = fn(&mut Costs) -> &mut u64;

/// Every cost in effect as a JSON object `{"<name>": value}`, with the names of [`COSTS`]
/// (what `--set costs.<name>=` accepts); the CLI's `fit` starts from these values.
pub fn costs_json(costs: &Costs) -> String {
    let mut c = costs.clone();
    let fields: Vec<String> = COSTS
        .iter()
        .map(|(name, get)| format!("\"{name}\":{}", get(&mut c)))
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// Every cost parameter by its scenario name.
pub const COSTS: &[(&str, CostField)] = &[
    ("ipi_send_ns", |c| &mut c.ipi_send_ns),
    ("csd_queue_ns", |c| &mut c.csd_queue_ns),
    ("ipi_delivery_ns", |c| &mut c.ipi_delivery_ns),
    ("ipi_handler_ns", |c| &mut c.ipi_handler_ns),
    ("flush_func_ns", |c| &mut c.flush_func_ns),
    ("invlpg_ns", |c| &mut c.invlpg_ns),
    ("full_flush_ns", |c| &mut c.full_flush_ns),
    ("tlb_refill_ns", |c| &mut c.tlb_refill_ns),
    ("tlb_hit_ps", |c| &mut c.tlb_hit_ps),
    ("page_fault_ns", |c| &mut c.page_fault_ns),
    ("syscall_ns", |c| &mut c.syscall_ns),
    ("zap_pte_ns", |c| &mut c.zap_pte_ns),
    ("cacheline_transfer_ns", |c| &mut c.cacheline_transfer_ns),
    ("csd_poll_ns", |c| &mut c.csd_poll_ns),
    ("context_switch_ns", |c| &mut c.context_switch_ns),
    ("switch_mm_ns", |c| &mut c.switch_mm_ns),
    ("kernel_pages", |c| &mut c.kernel_pages),
    ("tlbi_local_ns", |c| &mut c.arm64.tlbi_local_ns),
    ("tlbi_all_local_ns", |c| &mut c.arm64.tlbi_all_local_ns),
    ("dsb_nsh_ns", |c| &mut c.arm64.dsb_nsh_ns),
    ("dsb_ishst_ns", |c| &mut c.arm64.dsb_ishst_ns),
    ("dvm_op_ns", |c| &mut c.arm64.dvm_op_ns),
    ("dsb_ish_ns", |c| &mut c.arm64.dsb_ish_ns),
    ("victim_ns", |c| &mut c.arm64.victim_ns),
    ("asid_fast_ns", |c| &mut c.arm64.asid_fast_ns),
    ("asid_slow_ns", |c| &mut c.arm64.asid_slow_ns),
    ("rollover_cpu_ns", |c| &mut c.arm64.rollover_cpu_ns),
    ("flush_check_ns", |c| &mut c.arm64.flush_check_ns),
    ("ptw_ns", |c| &mut c.arm64.ptw_ns),
    ("preempt_op_ns", |c| &mut c.arm64.preempt_op_ns),
    ("cpu_id_percpu_ps", |c| &mut c.arm64.cpu_id_percpu_ps),
    ("cpu_id_thread_info_ps", |c| {
        &mut c.arm64.cpu_id_thread_info_ps
    }),
    ("percpu_rmw_ns", |c| &mut c.arm64.percpu_rmw_ns),
    ("copy_page_ns", |c| &mut c.arm64.copy_page_ns),
];

/// Parses a scenario and applies `key=value` overrides, returning a validated config.
///
/// `--set arch=<other>` retargets a scenario at the other architecture: the file's toggles and
/// preset of the old architecture are dropped (they have no meaning there) and listed in
/// `Config::notes`; the same toggles given explicitly with `--set` stay errors.
pub fn parse(text: &str, overrides: &[String]) -> Result<Config, SimError> {
    let cfg = parse_one(text, overrides)?;
    check_step_overrides(text, &cfg)?;
    Ok(cfg)
}

/// Every step's `set` and `compare` must themselves make a valid run of this file.
fn check_step_overrides(text: &str, cfg: &Config) -> Result<(), SimError> {
    for (i, step) in cfg.steps.iter().enumerate() {
        let sides =
            std::iter::once(("set", &step.set)).chain(step.compare.iter().map(|c| ("compare", c)));
        for (field, overrides) in sides {
            if let Err(e) = parse_one(text, overrides) {
                return Err(SimError::new(
                    format!("steps[{i}].{field}"),
                    format!("this step's run is invalid: {e}"),
                )
                .at_line(step.line));
            }
        }
    }
    Ok(())
}

fn parse_one(text: &str, overrides: &[String]) -> Result<Config, SimError> {
    let as_written: ScenarioFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    let mut notes = Vec::new();
    let mut overridden = Vec::new();
    let file = if overrides.is_empty() {
        as_written
    } else {
        let mut table: Table = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        for o in overrides {
            if let Some(path) = apply_override(&mut table, o)? {
                overridden.push(path);
            }
        }
        let file_arch = as_written.arch.as_deref().unwrap_or("x86");
        let new_arch = table
            .get("arch")
            .and_then(Value::as_str)
            .map(str::to_string);
        if let Some(arch) = new_arch.filter(|a| a != file_arch) {
            notes = drop_other_arch_fields(&mut table, &arch, &overridden);
        }
        ScenarioFile::deserialize(Value::Table(table))
            .map_err(|e| override_at_fault(text, overrides, e.message()))?
    };
    let mut cfg = validate(file).map_err(|e| {
        if overridden.contains(&e.path) {
            // The bad value came from an override, not from a line of the file.
            SimError::new(format!("--set {}", e.path), e.message)
        } else if e.line == 0 && e.path.starts_with("steps[") {
            let n = e.path[6..]
                .split(']')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            let line = crate::steps::header_line(text, n);
            e.at_line(line)
        } else if e.line == 0 {
            let line = match find_line(text, &e.path) {
                0 => crate::locate::dotted_key_line(text, &e.path),
                l => l,
            };
            e.at_line(line)
        } else {
            e
        }
    })?;
    cfg.notes.extend(notes);
    for (i, step) in cfg.steps.iter_mut().enumerate() {
        step.line = crate::steps::header_line(text, i);
    }
    Ok(cfg)
}

/// Fields that only one architecture's model reads.
const X86_ONLY: &[&str] = &[
    "design.flush_info",
    "design.preempt",
    "design.pcid",
    "design.wait_mask",
    "design.plus_one_rule",
    "design.lazy_freed_tables",
    "design.ceiling",
];
const ARM64_ONLY: &[&str] = &[
    "design.broadcast_skip",
    "design.dsb_before_dec",
    "design.skip_rule",
    "design.cpu_id",
    "design.max_dvm_ops",
    "machine.asid_bits",
];

/// Removes the scenario file's fields that belong to the architecture being switched away from
/// (and its machine preset), keeping any that an override set explicitly. Returns notes.
fn drop_other_arch_fields(table: &mut Table, new_arch: &str, overridden: &[String]) -> Vec<String> {
    let other_only = if new_arch == "arm64" {
        X86_ONLY
    } else {
        ARM64_ONLY
    };
    let mut dropped = Vec::new();
    let mut drop = |path: &str, table: &mut Table| {
        if overridden.iter().any(|o| o == path) {
            return;
        }
        let (section, field) = path.split_once('.').unwrap_or(("", path));
        if let Some(t) = table.get_mut(section).and_then(Value::as_table_mut) {
            if t.remove(field).is_some() {
                dropped.push(path.to_string());
            }
        }
    };
    for path in other_only {
        drop(path, table);
    }
    drop("machine.preset", table);
    if dropped.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "retargeted at {new_arch}: ignored the scenario's {}",
        dropped.join(", ")
    )]
}

fn toml_error(text: &str, e: &toml::de::Error) -> SimError {
    let line = e
        .span()
        .map(|s| {
            text.as_bytes()[..s.start.min(text.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u32
                + 1
        })
        .unwrap_or(0);
    let message = e.message().to_string();
    // Serde names the field only for unknown, missing and duplicate fields; a wrong value's
    // field is the key on the line the error points at.
    let named = ["unknown field", "missing field", "duplicate field"]
        .iter()
        .any(|m| message.contains(m));
    let path = if named {
        field_named_in(&message)
    } else {
        crate::locate::key_at_line(text, line)
    };
    SimError::new(path.unwrap_or_default(), message).at_line(line)
}

/// serde names the unknown or bad field in backticks: "unknown field `cpu`, expected …".
fn field_named_in(message: &str) -> Option<String> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(message[start..start + len].to_string())
}

/// The override whose value does not fit its field (each is tried alone on the file), as an
/// error naming it and the value given; the whole list's error if none fails alone.
fn override_at_fault(text: &str, overrides: &[String], message: &str) -> SimError {
    for o in overrides {
        let Ok(mut table) = toml::from_str::<Table>(text) else {
            break;
        };
        let Ok(Some(path)) = apply_override(&mut table, o) else {
            continue;
        };
        if let Err(e) = ScenarioFile::deserialize(Value::Table(table)) {
            let given = o.split_once('=').map_or("", |(_, v)| v.trim());
            return SimError::new(
                format!("--set {path}"),
                format!("{} (given `{given}`)", e.message()),
            );
        }
    }
    SimError::new("--set", message.to_string())
}

/// Applies one `key=value`; returns the dotted path it set (`machine.cpus`), if any.
fn apply_override(table: &mut Table, assignment: &str) -> Result<Option<String>, SimError> {
    let (key, raw) = assignment.split_once('=').ok_or_else(|| {
        SimError::new(
            format!("--set {assignment}"),
            "expected key=value, e.g. flush_info=stack",
        )
    })?;
    let key = key.trim();
    let raw = raw.trim();
    let (section, field) = match key.split_once('.') {
        Some((s, f)) if ["machine", "design", "workload", "costs"].contains(&s) => {
            (s.to_string(), f.to_string())
        }
        Some(_) => {
            return Err(SimError::new(
                format!("--set {key}"),
                "dotted keys must start with machine., design., workload. or costs.",
            ))
        }
        None => match SECTION_OF.iter().find(|(k, _, _)| *k == key) {
            Some((_, s, f)) => (s.to_string(), f.to_string()),
            None if key == "arch" || key == "title" => (String::new(), key.to_string()),
            None => {
                let known: Vec<&str> = SECTION_OF.iter().map(|(k, _, _)| *k).collect();
                return Err(SimError::new(
                    format!("--set {key}"),
                    format!(
                        "unknown setting; known settings: arch, {}, costs.<name>",
                        known.join(", ")
                    ),
                ));
            }
        },
    };
    // Numbers and booleans keep their type; anything else is taken as a string.
    let value = raw
        .parse::<i64>()
        .map(Value::Integer)
        .or_else(|_| raw.parse::<f64>().map(Value::Float))
        .or_else(|_| raw.parse::<bool>().map(Value::Boolean))
        .unwrap_or_else(|_| Value::String(raw.to_string()));
    let target = if section.is_empty() {
        table
    } else {
        table
            .entry(section.clone())
            .or_insert_with(|| Value::Table(Table::new()))
            .as_table_mut()
            .ok_or_else(|| {
                SimError::new(
                    format!("--set {key}"),
                    format!("`{section}` is not a table"),
                )
            })?
    };
    let path = if section.is_empty() {
        field.clone()
    } else {
        format!("{section}.{field}")
    };
    target.insert(field, value);
    Ok(Some(path))
}

fn on_off(path: &str, v: Option<&Value>, default: bool) -> Result<bool, SimError> {
    match v {
        None => Ok(default),
        Some(Value::Boolean(b)) => Ok(*b),
        Some(Value::String(s)) if s == "on" || s == "true" => Ok(true),
        Some(Value::String(s)) if s == "off" || s == "false" => Ok(false),
        Some(other) => Err(SimError::new(
            path,
            format!("expected on or off, got {other:?}"),
        )),
    }
}

fn choice<T: Copy>(path: &str, v: Option<&str>, options: &[(&str, T)]) -> Result<T, SimError> {
    let got = v.unwrap_or(options[0].0);
    options
        .iter()
        .find(|(name, _)| *name == got)
        .map(|&(_, t)| t)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            one_of(path, got, &names)
        })
}

/// Upper bound for any duration knob: 1000 s of simulated time.
const MAX_NS: i64 = 1_000_000_000_000;

fn validate(f: ScenarioFile) -> Result<Config, SimError> {
    let arch = choice(
        "arch",
        f.arch.as_deref(),
        &[("x86", Arch::X86), ("arm64", Arch::Arm64)],
    )?;
    check_arch_fields(arch, &f)?;
    let m = f.machine;
    let preset_id = m.preset.as_deref().unwrap_or(presets::default_for(arch));
    let preset = presets::by_id(preset_id)
        .ok_or_else(|| one_of("machine.preset", preset_id, &presets::IDS))?;
    if preset.arch != arch {
        return Err(SimError::new(
            "machine.preset",
            format!(
                "`{preset_id}` is an {} machine but the scenario's arch is {}",
                preset.arch.name(),
                arch.name()
            ),
        ));
    }
    let cpus = int_in(
        "machine.cpus",
        m.cpus,
        preset.cpus as i64,
        1,
        MAX_CPUS as i64,
    )? as u16;
    let tlb_entries = int_in(
        "machine.tlb_entries",
        m.tlb_entries,
        preset.tlb_entries as i64,
        8,
        65_536,
    )? as u32;
    let tlb_ways = int_in(
        "machine.tlb_ways",
        m.tlb_ways,
        preset.tlb_ways as i64,
        1,
        tlb_entries as i64,
    )? as u32;
    let index_names = [("hash", TlbIndex::Hash), ("xor7", TlbIndex::Xor7)];
    let tlb_index = match m.tlb_index.as_deref() {
        None => preset.tlb_index,
        Some(name) => choice("machine.tlb_index", Some(name), &index_names)?,
    };
    if tlb_index == TlbIndex::Xor7 && tlb_entries / tlb_ways != 128 {
        return Err(SimError::new(
            "machine.tlb_index",
            format!(
                "xor7 indexes 128 sets, but {tlb_entries} entries / {tlb_ways} ways make {} \
                 (use tlb_index = \"hash\" for another geometry)",
                tlb_entries / tlb_ways
            ),
        ));
    }
    let cacheline_bytes = int_in("machine.cacheline_bytes", m.cacheline_bytes, 64, 8, 4096)? as u32;
    // Keep every CPU's TLB within memory a browser tab can afford (4 M entries ≈ 64 MB).
    if cpus as u64 * tlb_entries as u64 > 4 << 20 {
        return Err(SimError::new(
            "machine.tlb_entries",
            format!("{cpus} CPUs × {tlb_entries} entries is too large (at most 4194304 in total)"),
        ));
    }

    let d = f.design;
    let design = Design {
        flush_info: choice(
            "design.flush_info",
            d.flush_info.as_deref(),
            &[
                ("percpu", FlushInfo::PerCpu),
                ("stack", FlushInfo::Stack),
                ("stack_unaligned", FlushInfo::StackUnaligned),
            ],
        )?,
        preempt: choice(
            "design.preempt",
            d.preempt.as_deref(),
            &[
                ("pinned", Preempt::Pinned),
                ("preemptible_wait", Preempt::PreemptibleWait),
            ],
        )?,
        pcid: on_off("design.pcid", d.pcid.as_ref(), true)?,
        wait_mask: choice(
            "design.wait_mask",
            d.wait_mask.as_deref(),
            &[("task", WaitMask::Task), ("percpu", WaitMask::PerCpu)],
        )?,
        plus_one_rule: on_off("design.plus_one_rule", d.plus_one_rule.as_ref(), true)?,
        lazy_freed_tables_ipi: choice(
            "design.lazy_freed_tables",
            d.lazy_freed_tables.as_deref(),
            &[("ipi", true), ("skip", false)],
        )?,
        ceiling: int_in("design.ceiling", d.ceiling, 33, 0, 1 << 20)? as u32,
        broadcast_skip: on_off("design.broadcast_skip", d.broadcast_skip.as_ref(), false)?,
        dsb_before_dec: on_off("design.dsb_before_dec", d.dsb_before_dec.as_ref(), true)?,
        skip_rule: choice(
            "design.skip_rule",
            d.skip_rule.as_deref(),
            &[
                ("active_mm", SkipRule::ActiveMm),
                ("mm_users", SkipRule::MmUsers),
            ],
        )?,
        cpu_id: choice(
            "design.cpu_id",
            d.cpu_id.as_deref(),
            &[
                ("thread_info", CpuIdImpl::ThreadInfo),
                ("percpu", CpuIdImpl::PerCpu),
            ],
        )?,
        max_dvm_ops: int_in("design.max_dvm_ops", d.max_dvm_ops, 512, 1, 1 << 21)? as u32,
    };
    let asid_bits = int_in("machine.asid_bits", m.asid_bits, 16, 2, 16)? as u8;
    if arch == Arch::Arm64 && (1i64 << asid_bits) - 1 < cpus as i64 + 2 {
        return Err(SimError::new(
            "machine.asid_bits",
            format!(
                "{asid_bits} bits give {} ASIDs; the allocator needs at least cpus + 2 = {} \
                 (one reserved per CPU at rollover, plus one to allocate)",
                (1i64 << asid_bits) - 1,
                cpus as i64 + 2
            ),
        ));
    }

    let tasks_given = !f.tasks.is_empty();
    let w = f.workload;
    let initiator = int_in("workload.initiator", w.initiator, 0, 0, cpus as i64 - 1)? as u16;
    let free_after_initiator = cpus as i64 - initiator as i64;
    let threads = int_in(
        "workload.threads",
        w.threads,
        if tasks_given { 0 } else { 1 },
        0,
        free_after_initiator,
    )? as u16;
    let lazy_cpus = int_in(
        "workload.lazy_cpus",
        w.lazy_cpus,
        0,
        0,
        free_after_initiator - threads as i64,
    )? as u16;
    let busy_default = if tasks_given || threads == 0 {
        0
    } else {
        free_after_initiator - threads as i64 - lazy_cpus as i64
    };
    let busy_threads = int_in(
        "workload.busy_threads",
        w.busy_threads,
        busy_default,
        0,
        free_after_initiator - threads as i64 - lazy_cpus as i64,
    )? as u16;
    let probability = w.irqs_off_probability.unwrap_or(0.0);
    if !(0.0..=1.0).contains(&probability) {
        return Err(SimError::new(
            "workload.irqs_off_probability",
            format!("must be between 0 and 1, got {probability}"),
        ));
    }
    let pages = int_in("workload.pages", w.pages, 1, 1, 1 << 16)? as u32;
    let irqs_off_max_ns = int_in("workload.irqs_off_max_ns", w.irqs_off_max_ns, 0, 0, MAX_NS)?;
    let needed_pages = (threads as i64).max(1) * pages as i64;
    let freed_tables = on_off("workload.freed_tables", w.freed_tables.as_ref(), false)?;
    let workload = Workload {
        threads,
        busy_threads,
        lazy_cpus,
        flushes: int_in("workload.flushes", w.flushes, 1, 0, 10_000_000)? as u32,
        pages,
        initiator: CpuId(initiator),
        period_ns: int_in("workload.period_ns", w.period_ns, 0, 0, MAX_NS)? as u64,
        freed_tables,
        irqs_off_probability: probability,
        irqs_off_gap_ns: int_in(
            "workload.irqs_off_gap_ns",
            w.irqs_off_gap_ns,
            20_000,
            1,
            MAX_NS,
        )? as u64,
        irqs_off_dist: choice(
            "workload.irqs_off_dist",
            w.irqs_off_dist.as_deref(),
            &[
                ("uniform", Dist::Uniform),
                ("exp", Dist::Exp),
                ("pareto", Dist::Pareto),
            ],
        )?,
        irqs_off_mean_ns: int_in(
            "workload.irqs_off_mean_ns",
            w.irqs_off_mean_ns,
            irqs_off_max_ns / 4,
            0,
            MAX_NS,
        )? as u64,
        irqs_off_max_ns: irqs_off_max_ns as u64,
        wakeup_period_ns: int_in(
            "workload.wakeup_period_ns",
            w.wakeup_period_ns,
            0,
            0,
            MAX_NS,
        )? as u64,
        wakeup_cpu: CpuId(int_in(
            "workload.wakeup_cpu",
            w.wakeup_cpu,
            initiator as i64,
            0,
            cpus as i64 - 1,
        )? as u16),
        wakeup_work_ns: int_in(
            "workload.wakeup_work_ns",
            w.wakeup_work_ns,
            2_000,
            0,
            MAX_NS,
        )? as u64,
        mm_pages: int_in("workload.mm_pages", w.mm_pages, 64, 1, 1 << 20)?
            .max(needed_pages.min(1 << 20)) as u32,
        op: match w.op.as_deref() {
            None if freed_tables => WorkOp::Munmap,
            op => choice(
                "workload.op",
                op,
                &[
                    ("madvise", WorkOp::Madvise),
                    ("munmap", WorkOp::Munmap),
                    ("mprotect", WorkOp::Mprotect),
                    ("cow", WorkOp::Cow),
                ],
            )?,
        },
        processes: on_off("workload.processes", w.processes.as_ref(), false)?,
    };

    let mut costs = preset.costs;
    for (name, &v) in &f.costs {
        let path = format!("costs.{name}");
        let field = COSTS
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, get)| get)
            .ok_or_else(|| {
                let names: Vec<&str> = COSTS.iter().map(|(n, _)| *n).collect();
                SimError::new(
                    &path,
                    format!("unknown cost; known costs: {}", names.join(", ")),
                )
            })?;
        let max = if name == "kernel_pages" {
            MAX_KERNEL_PAGES as i64
        } else {
            MAX_NS
        };
        *field(&mut costs) = int_in(&path, Some(v), 0, 0, max)? as u64;
    }

    let mut tasks = Vec::with_capacity(f.tasks.len());
    if f.tasks.len() > 4096 {
        return Err(SimError::new("tasks", "at most 4096 tasks"));
    }
    for (i, t) in f.tasks.into_iter().enumerate() {
        tasks.push(validate_task(i, t, cpus, workload.mm_pages, arch)?);
    }

    let e = f.expect;
    let names = |path: &str, v: Vec<String>| -> Result<Vec<String>, SimError> {
        for n in &v {
            let ok =
                n.len() >= 2 && n.starts_with('I') && n[1..].chars().all(|c| c.is_ascii_digit());
            if !ok {
                return Err(SimError::new(
                    path,
                    format!("`{n}` is not an invariant name like I3"),
                ));
            }
        }
        Ok(v)
    };
    let mut cases = Vec::new();
    for (i, c) in e.cases.into_iter().enumerate() {
        cases.push(ExpectCase {
            set: c.set,
            violations: names(&format!("expect.cases[{i}].violations"), c.violations)?,
        });
    }
    let expect = Expect {
        violations: names("expect.violations", e.violations)?,
        cases,
        test_set: e.test_set,
    };
    let guide = match f.guide {
        None => None,
        Some(g) => Some(int_in("guide", Some(g), 1, 1, 1000)? as u32),
    };
    let steps = f
        .steps
        .into_iter()
        .enumerate()
        .map(|(i, st)| validate_step(i, st, cpus))
        .collect::<Result<Vec<_>, _>>()?;

    let cfg = Config {
        title: f.title.unwrap_or_else(|| "Untitled scenario".into()),
        description: f.description.unwrap_or_default(),
        summary: f.summary.unwrap_or_default(),
        arch,
        cpus,
        preset: preset.id.to_string(),
        tlb_entries,
        tlb_ways,
        tlb_index,
        cacheline_bytes,
        flush_info_bytes: int_in("machine.flush_info_bytes", m.flush_info_bytes, 40, 1, 4096)?
            as u32,
        stack_offset: int_in("machine.stack_offset", m.stack_offset, 48, 0, 4095)? as u32,
        max_time_ns: int_in(
            "machine.max_time_ns",
            m.max_time_ns,
            10_000_000_000,
            1,
            MAX_NS,
        )? as u64,
        max_events: int_in(
            "machine.max_events",
            m.max_events,
            budget::DEFAULT_EVENTS,
            1,
            budget::MAX_EVENTS,
        )? as u64,
        max_memory_mb: int_in(
            "machine.max_memory_mb",
            m.max_memory_mb,
            budget::DEFAULT_MEMORY_MB,
            1,
            budget::MAX_MEMORY_MB,
        )? as u32,
        asid_bits,
        design,
        workload,
        tasks,
        costs,
        expect,
        notes: Vec::new(),
        guide,
        steps,
        claims: f.claims,
    };
    check_state_fits(&cfg)?;
    Ok(cfg)
}

/// The machine's state must fit the run's memory budget before the first event allocates it.
fn check_state_fits(cfg: &Config) -> Result<(), SimError> {
    let need = budget::state_bytes(cfg);
    if need <= budget::limit_bytes(cfg) {
        return Ok(());
    }
    let tlbs = cfg.cpus as u64 * cfg.tlb_entries as u64;
    let spaces = budget::address_spaces(cfg);
    let pages = spaces * cfg.workload.mm_pages as u64;
    let path = if tlbs * 16 >= pages * 12 {
        "machine.tlb_entries"
    } else {
        "workload.mm_pages"
    };
    Err(SimError::new(
        path,
        format!(
            "the machine's state needs {} MB ({} CPUs × {} TLB entries; {spaces} address \
             spaces × {} pages), over the run's memory budget of {} MB: use fewer CPUs, TLB \
             entries, processes or pages, or raise max_memory_mb (at most {})",
            need.div_ceil(budget::MIB),
            cfg.cpus,
            cfg.tlb_entries,
            cfg.workload.mm_pages,
            cfg.max_memory_mb,
            budget::MAX_MEMORY_MB
        ),
    ))
}

fn validate_step(i: usize, st: StepSection, cpus: u16) -> Result<Step, SimError> {
    let p = |f: &str| format!("steps[{i}].{f}");
    let required = |f: &str, v: Option<String>| match v {
        Some(s) if !s.trim().is_empty() => Ok(s),
        _ => Err(SimError::new(p(f), "is required and must not be empty")),
    };
    let window = match st.window {
        None => None,
        Some(w) => match w[..] {
            [a, b] if 0 <= a && a < b && b <= MAX_NS => Some([a as u64, b as u64]),
            _ => {
                return Err(SimError::new(
                    p("window"),
                    format!("must be [start_ns, end_ns] with 0 <= start < end, got {w:?}"),
                ))
            }
        },
    };
    for name in &st.highlight {
        if EventKind::from_name(name).is_none() {
            let known: Vec<String> = EventKind::ALL.iter().map(|k| format!("{k:?}")).collect();
            return Err(SimError::new(
                p("highlight"),
                format!(
                    "unknown event kind `{name}`; known kinds: {}",
                    known.join(", ")
                ),
            ));
        }
    }
    let mut step_cpus = Vec::new();
    for &c in &st.cpus {
        step_cpus.push(int_in(&p("cpus"), Some(c), 0, 0, cpus as i64 - 1)? as u16);
    }
    let mut expand = Vec::new();
    for &c in &st.expand {
        expand.push(int_in(&p("expand"), Some(c), 0, 0, cpus as i64 - 1)? as u16);
    }
    for name in &st.lens {
        if !crate::steps::LENS_KINDS.contains(&name.as_str()) {
            return Err(SimError::new(
                p("lens"),
                format!(
                    "unknown lens `{name}`; known: {}",
                    crate::steps::LENS_KINDS.join(", ")
                ),
            ));
        }
    }
    if !st.choices.is_empty() {
        if st.question.is_none() {
            return Err(SimError::new(p("choices"), "choices need a question"));
        }
        if !(2..=4).contains(&st.choices.len()) {
            return Err(SimError::new(
                p("choices"),
                format!("must hold 2 to 4 options, got {}", st.choices.len()),
            ));
        }
        for c in &st.choices {
            match c.split_once(" = ") {
                Some((label, measure))
                    if !label.trim().is_empty() && !measure.trim().is_empty() => {}
                _ => {
                    return Err(SimError::new(
                        p("choices"),
                        format!("`{c}` must read \"<label> = <measure>\""),
                    ))
                }
            }
        }
    }
    if let Some(pick) = &st.pick {
        if pick != "max" && pick != "min" {
            return Err(SimError::new(
                p("pick"),
                format!("must be `max` or `min`, got `{pick}`"),
            ));
        }
    }
    if st.question.is_some() && st.answer.is_none() {
        return Err(SimError::new(
            p("answer"),
            "a step with a question needs an answer",
        ));
    }
    Ok(Step {
        title: required("title", st.title)?,
        text: required("text", st.text)?,
        window,
        highlight: st.highlight,
        cpus: step_cpus,
        expand,
        lens: st.lens,
        set: st.set,
        compare: st.compare,
        question: st.question,
        answer: st.answer,
        choices: st.choices,
        pick: st.pick,
        dataset: st.dataset,
        recording: st.recording,
        claims: st.claims,
        line: 0,
    })
}

fn validate_task(
    i: usize,
    t: TaskSection,
    cpus: u16,
    mm_pages: u32,
    arch: Arch,
) -> Result<TaskSpec, SimError> {
    let p = |f: &str| format!("tasks[{i}].{f}");
    let cpu = int_in(&p("cpu"), t.cpu, 0, 0, cpus as i64 - 1)? as u16;
    let mut allowed = vec![CpuId(cpu)];
    for &c in t.cpus.iter().flatten() {
        let c = int_in(&p("cpus"), Some(c), 0, 0, cpus as i64 - 1)? as u16;
        if !allowed.contains(&CpuId(c)) {
            allowed.push(CpuId(c));
        }
    }
    let program = program::parse(&t.program).map_err(|m| SimError::new(p("program"), m))?;
    for op in &program {
        if op.page_end() > mm_pages as u64 {
            return Err(SimError::new(
                p("program"),
                format!(
                    "{op:?} reaches past the address space ({mm_pages} pages; raise workload.mm_pages)"
                ),
            ));
        }
        if arch == Arch::X86 && matches!(op, program::Op::CpuId(_) | program::Op::ThisCpuInc) {
            return Err(SimError::new(
                p("program"),
                format!("{op:?} models arm64 per-CPU access; it is not available on x86"),
            ));
        }
        if let program::Op::Migrate(c) = op {
            if *c >= cpus {
                return Err(SimError::new(
                    p("program"),
                    format!("migrate {c}: there are only {cpus} CPUs"),
                ));
            }
        }
    }
    let repeat = int_in(&p("repeat"), t.repeat, 1, 0, 100_000_000)? as u32;
    Ok(TaskSpec {
        name: t.name.unwrap_or_else(|| format!("task{i}")),
        mm: MmId(int_in(&p("mm"), t.mm, 1, 0, 1000)? as u16),
        cpu: CpuId(cpu),
        cpus: allowed,
        prio: int_in(&p("prio"), t.prio, 0, 0, 99)? as u8,
        start_ns: int_in(&p("start_ns"), t.start_ns, 0, 0, MAX_NS)? as u64,
        repeat,
        daemon: t.daemon.unwrap_or(repeat == 0),
        measure: t.measure.unwrap_or(false),
        program,
    })
}

/// Toggles of the other architecture are errors naming the field and the arch, so a setting
/// never silently does nothing.
fn check_arch_fields(arch: Arch, f: &ScenarioFile) -> Result<(), SimError> {
    let d = &f.design;
    let set: &[(&str, bool)] = match arch {
        Arch::Arm64 => &[
            ("design.flush_info", d.flush_info.is_some()),
            ("design.preempt", d.preempt.is_some()),
            ("design.pcid", d.pcid.is_some()),
            ("design.wait_mask", d.wait_mask.is_some()),
            ("design.plus_one_rule", d.plus_one_rule.is_some()),
            ("design.lazy_freed_tables", d.lazy_freed_tables.is_some()),
            ("design.ceiling", d.ceiling.is_some()),
        ],
        Arch::X86 => &[
            ("design.broadcast_skip", d.broadcast_skip.is_some()),
            ("design.dsb_before_dec", d.dsb_before_dec.is_some()),
            ("design.skip_rule", d.skip_rule.is_some()),
            ("design.cpu_id", d.cpu_id.is_some()),
            ("design.max_dvm_ops", d.max_dvm_ops.is_some()),
            ("machine.asid_bits", f.machine.asid_bits.is_some()),
        ],
    };
    match set.iter().find(|(_, is_set)| *is_set) {
        Some((path, _)) => Err(SimError::new(
            *path,
            format!(
                "not used on {} (it is a toggle of the {} model)",
                arch.name(),
                if arch == Arch::X86 { "arm64" } else { "x86" }
            ),
        )),
        None => Ok(()),
    }
}

fn int_in(path: &str, v: Option<i64>, default: i64, lo: i64, hi: i64) -> Result<i64, SimError> {
    let v = v.unwrap_or(default);
    if v < lo || v > hi {
        return Err(SimError::new(
            path,
            format!("must be between {lo} and {hi}, got {v}"),
        ));
    }
    Ok(v)
}

fn one_of(path: &str, got: &str, allowed: &[&str]) -> SimError {
    SimError::new(
        path,
        format!(
            "unknown value `{got}`; expected one of: {}",
            allowed.join(", ")
        ),
    )
}

/// Best-effort line of `section.key` in the text: the first `key =` line after `[section]`.
/// `tasks[3].program` finds the fourth `[[tasks]]` header, then `program =` below it.
fn find_line(text: &str, path: &str) -> u32 {
    let (section, key) = match path.rsplit_once('.') {
        Some((s, k)) => (Some(s), k),
        None => (None, path),
    };
    let (section, nth) = match section.and_then(|s| s.split_once('[')) {
        Some((name, rest)) => (Some(name), rest.trim_end_matches(']').parse::<usize>().ok()),
        None => (section, None),
    };
    let mut in_section = section.is_none();
    let mut seen = 0usize;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            let name = t.trim_matches(|c| c == '[' || c == ']');
            in_section = section.is_some_and(|s| name == s);
            if in_section {
                if let Some(n) = nth {
                    in_section = seen == n;
                    seen += 1;
                }
            }
            continue;
        }
        let is_key = t
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='));
        if in_section && is_key {
            return i as u32 + 1;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "title = \"t\"\n[machine]\ncpus = 4\n";

    #[test]
    fn a_minimal_scenario_gets_the_documented_defaults() {
        let c = parse(MINIMAL, &[]).unwrap();
        assert_eq!(c.cpus, 4);
        assert_eq!(c.design.flush_info, FlushInfo::PerCpu);
        assert_eq!(c.design.preempt, Preempt::Pinned);
        assert_eq!(c.preset, "generic-x86");
    }

    #[test]
    fn an_unknown_field_is_reported_by_name_and_line() {
        let e = parse("title = \"t\"\n[machine]\ncpu = 4\n", &[]).unwrap_err();
        assert_eq!(e.path, "cpu");
        assert_eq!(e.line, 3);
        assert!(e.message.contains("unknown field"), "{e}");
    }

    #[test]
    fn zero_cpus_is_rejected_naming_machine_cpus() {
        let e = parse("[machine]\ncpus = 0\n", &[]).unwrap_err();
        assert_eq!(e.path, "machine.cpus");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("between 1 and 512"), "{e}");
    }

    #[test]
    fn overrides_replace_scenario_values() {
        let c = parse(MINIMAL, &["flush_info=stack".into(), "cpus=16".into()]).unwrap();
        assert_eq!(c.design.flush_info, FlushInfo::Stack);
        assert_eq!(c.cpus, 16);
    }

    #[test]
    fn an_unknown_override_names_the_key() {
        let e = parse(MINIMAL, &["flush_inf=stack".into()]).unwrap_err();
        assert_eq!(e.path, "--set flush_inf");
    }

    #[test]
    fn a_bad_override_value_lists_the_allowed_values() {
        let e = parse(MINIMAL, &["preempt=sometimes".into()]).unwrap_err();
        assert_eq!(e.path, "--set design.preempt");
        assert!(e.message.contains("pinned, preemptible_wait"), "{e}");
    }

    #[test]
    fn a_syntax_error_carries_its_line() {
        let e = parse("title = \"t\"\n[machine\n", &[]).unwrap_err();
        assert_eq!(e.line, 2);
    }
}
