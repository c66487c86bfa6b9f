//! The scenario file format (TOML, written by authors) and its validation into a [`Config`].
//!
//! Two passes: the text is first deserialised as written, so syntax errors and unknown fields
//! are reported with their line; then `--set key=value` overrides are applied to the parsed
//! table and the result is deserialised and range-checked again. Every error names the field.
//!
//! The settings (`[machine]`, `[design]`, `[workload]`, `[costs]`, `--set`) are declared once,
//! in `vocabulary`, which validation reads its bounds, choices and defaults from; the other
//! fields are documented on the structs of `file.rs`; authors' summary: `sim-wasm/SCENARIOS.md`.
//!
//! Files: `mod.rs` (this file) runs the passes; `file.rs` the file as written; `overrides.rs`
//! `--set`; `validate.rs` the settings into a [`Config`]; `tasks.rs` and `steps.rs` those
//! lists; `errors.rs` the line and field of an error.

mod errors;
mod file;
mod overrides;
mod steps;
mod tasks;
mod validate;
pub mod vocabulary;

use serde::Deserialize;
use toml::{Table, Value};

use self::errors::{find_line, toml_error};
use self::file::ScenarioFile;
use self::overrides::{apply_override, drop_other_arch_fields, override_at_fault};
use crate::config::Config;
use crate::error::SimError;

/// Parses a scenario and applies `key=value` overrides, returning a validated config.
///
/// `--set arch=<other>` retargets a scenario at the other architecture: the file's toggles and
/// preset of the old architecture are dropped (they have no meaning there) and listed in
/// `Config::notes`; the same toggles given explicitly with `--set` stay errors.
pub fn parse(text: &str, overrides: &[String]) -> Result<Config, SimError> {
    check_array_caps(text)?;
    let cfg = parse_one(text, overrides)?;
    check_step_overrides(text, &cfg)?;
    Ok(cfg)
}

/// Refuses a file with too many `[[tasks]]` or `[[steps]]` headers before parsing it: a
/// generated file of 50,000 tasks would otherwise be parsed and validated (twice, and once
/// more per step) only to be refused. Inline arrays are still capped by validation.
fn check_array_caps(text: &str) -> Result<(), SimError> {
    for (name, max) in [
        ("tasks", crate::budget::MAX_TASKS),
        ("steps", crate::budget::MAX_STEPS),
    ] {
        let lines = crate::locate::header_lines(text, name);
        if lines.len() > max {
            return Err(validate::too_many(name, lines.len(), max).at_line(lines[max]));
        }
    }
    Ok(())
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
    let mut table: Table = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    let mut notes = Vec::new();
    let mut overridden = Vec::new();
    let (file, given) = if overrides.is_empty() {
        (as_written, validate::given_settings(&table))
    } else {
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
        let given = validate::given_settings(&table);
        let file = ScenarioFile::deserialize(Value::Table(table))
            .map_err(|e| override_at_fault(text, overrides, e.message()))?;
        (file, given)
    };
    let mut cfg = validate::validate(file, &given).map_err(|e| {
        if overridden.contains(&e.path) {
            // The bad value came from an override, not from a line of the file.
            SimError::new(format!("--set {}", e.path), e.message)
        } else if e.line == 0 && e.path.starts_with("steps[") {
            let line = crate::steps::header_line(text, array_index(&e.path));
            e.at_line(line)
        } else if e.line == 0 && e.path.starts_with("tasks[") && !e.path.contains('.') {
            let n = array_index(&e.path);
            let line = crate::locate::header_lines(text, "tasks").get(n).copied();
            e.at_line(line.unwrap_or(0))
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
    let lines = crate::locate::header_lines(text, "steps");
    for (i, step) in cfg.steps.iter_mut().enumerate() {
        step.line = lines.get(i).copied().unwrap_or(0);
    }
    Ok(cfg)
}

/// `n` of a path `name[n]…`, 0 if it has none.
fn array_index(path: &str) -> usize {
    path.split_once('[')
        .and_then(|(_, r)| r.split(']').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::vocabulary::{self, Kind, SETTINGS};
    use super::*;
    use crate::config::{Arch, FlushInfo, Preempt};
    use std::collections::BTreeSet;

    #[test]
    fn the_settings_sections_declare_exactly_the_vocabulary_fields() {
        for section in ["machine", "design", "workload"] {
            let err = parse(&format!("[{section}]\nno_such_field = 1\n"), &[]).unwrap_err();
            let listed: BTreeSet<String> = err
                .message
                .split("expected one of ")
                .nth(1)
                .unwrap_or_else(|| panic!("{}", err.message))
                .split(", ")
                .map(|f| f.trim_matches('`').to_string())
                .collect();
            let declared: BTreeSet<String> = SETTINGS
                .iter()
                .filter(|s| s.section == section)
                .map(|s| s.field.to_string())
                .collect();
            assert_eq!(listed, declared, "[{section}]");
        }
    }

    /// A scenario of the setting's architecture (arm64 needs room for its ASIDs).
    fn base_for(s: &vocabulary::Setting) -> &'static str {
        match s.arch {
            Some(Arch::Arm64) => "arch = \"arm64\"\n",
            _ => "",
        }
    }

    #[test]
    fn every_declared_choice_and_fixed_bound_is_what_validation_accepts() {
        for s in SETTINGS.iter().filter(|s| s.is_flat() && s.key != "arch") {
            let text = base_for(s);
            let set = |v: &str| parse(text, &[format!("{}={v}", s.key)]);
            match s.kind {
                Kind::Choice(names) => {
                    for n in names {
                        // Presets of the other architecture are refused by design, and
                        // `mapping = file` needs `reread` (page_cache.rs).
                        let ok = set(n);
                        if s.key == "mapping" && *n == "file" {
                            assert!(ok.is_err());
                            assert!(
                                parse(text, &["reread=on".into(), "mapping=file".into()]).is_ok()
                            );
                        } else if s.key != "machine" {
                            assert!(ok.is_ok(), "{}={n}: {:?}", s.key, ok.err());
                        }
                    }
                    let e = set("no_such_choice").unwrap_err();
                    assert_eq!(e.path, format!("--set {}", s.path()));
                    assert!(e.message.contains(&names.join(", ")), "{}", e.message);
                }
                Kind::Int { min, max, max_of } => {
                    let e = set(&(min - 1).to_string()).unwrap_err();
                    assert_eq!(e.path, format!("--set {}", s.path()), "{}", e.message);
                    if max_of.is_none() {
                        let e = set(&(max + 1).to_string()).unwrap_err();
                        assert!(
                            e.message.contains(&format!("between {min} and {max}")),
                            "{}",
                            e.message
                        );
                    }
                }
                Kind::Float { min, max } => {
                    assert!(set(&min.to_string()).is_ok() && set(&max.to_string()).is_ok());
                    assert!(set(&(max + 1.0).to_string()).is_err());
                }
                Kind::OnOff => {
                    assert!(set("on").is_ok() && set("off").is_ok(), "{}", s.key);
                    assert!(set("maybe").is_err(), "{}", s.key);
                }
            }
        }
    }

    #[test]
    fn a_declared_default_is_the_value_a_run_reports() {
        for s in SETTINGS.iter().filter(|s| s.value.is_some()) {
            let cfg = parse(base_for(s), &[]).unwrap();
            let shown = crate::settings::effective(&cfg);
            let want = match s.default {
                vocabulary::Default::Int(d) => d.to_string(),
                vocabulary::Default::Name(n) => n.to_string(),
                vocabulary::Default::OnOff(b) if s.key == "processes" => b.to_string(),
                vocabulary::Default::OnOff(b) => if b { "on" } else { "off" }.to_string(),
                vocabulary::Default::Float(f) => f.to_string(),
                vocabulary::Default::Derived(_) => continue,
            };
            assert_eq!(shown.get(s.key), Some(&want), "{}", s.key);
        }
    }

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
    fn too_many_threads_say_where_the_cpu_count_came_from() {
        // The scenario's own count wins over a preset set beside it: the error says so.
        let e = parse(
            MINIMAL,
            &["machine=skylake-sp-56".into(), "threads=55".into()],
        )
        .unwrap_err();
        assert_eq!(e.path, "--set workload.threads");
        assert!(e.message.contains("between 0 and 4, got 55"), "{e}");
        assert!(e.message.contains("machine.cpus = 4"), "{e}");
        assert!(e.message.contains("skylake-sp-56's 56"), "{e}");
        // With no preset named, there is nothing the scenario's count wins over.
        let e = parse(MINIMAL, &["threads=55".into()]).unwrap_err();
        assert!(
            e.message
                .ends_with("one thread a CPU, and machine.cpus = 4"),
            "{e}"
        );
        // Without a count of its own the preset's applies, and 55 threads fit.
        let c = parse(
            "title = \"t\"\n",
            &["machine=skylake-sp-56".into(), "threads=55".into()],
        );
        assert_eq!(c.unwrap().workload.threads, 55);
        let e = parse(
            "title = \"t\"\n",
            &["machine=skylake-sp-56".into(), "threads=57".into()],
        );
        assert!(e
            .unwrap_err()
            .message
            .contains("machine=skylake-sp-56 has 56"));
    }

    #[test]
    fn a_syntax_error_carries_its_line() {
        let e = parse("title = \"t\"\n[machine\n", &[]).unwrap_err();
        assert_eq!(e.line, 2);
    }

    fn tasks(n: usize) -> String {
        let mut text = String::from("title = \"t\"\n[machine]\ncpus = 2\n");
        text.push_str(&"[[tasks]]\ncpu = 0\nprogram = \"spin 5ns\"\n".repeat(n));
        text
    }

    #[test]
    fn too_many_tasks_are_refused_at_once_at_the_first_one_over() {
        let start = std::time::Instant::now();
        let e = parse(&tasks(10_000), &[]).unwrap_err();
        let took = start.elapsed();
        assert_eq!(e.path, "tasks[4096]");
        // Three title/machine lines, then three lines a task: the 4097th header.
        assert_eq!(e.line, 4 + 4096 * 3);
        assert!(e.message.contains("10000 tasks"), "{}", e.message);
        assert!(e.message.contains("at most 4096"), "{}", e.message);
        assert!(took.as_secs() < 2, "took {took:?}");
        assert!(parse(&tasks(4096), &[]).is_ok());
    }

    #[test]
    fn too_many_tasks_in_an_inline_array_are_refused_by_validation() {
        let list = vec!["{ cpu = 0, program = \"spin 5ns\" }"; 4097].join(", ");
        let e = parse(&format!("title = \"t\"\ntasks = [{list}]\n"), &[]).unwrap_err();
        assert_eq!(e.path, "tasks[4096]");
        assert!(e.message.contains("4097 tasks"), "{}", e.message);
    }

    #[test]
    fn too_many_steps_are_refused_at_the_first_one_over() {
        let mut text = tasks(1);
        text.push_str(&"[[steps]]\ntext = \"s\"\n".repeat(101));
        let e = parse(&text, &[]).unwrap_err();
        assert_eq!(e.path, "steps[100]");
        assert_eq!(e.line, 7 + 100 * 2);
    }
}
