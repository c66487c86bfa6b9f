//! The scenario file format (TOML, written by authors) and its validation into a [`Config`].
//!
//! Two passes: the text is first deserialised as written, so syntax errors and unknown fields
//! are reported with their line; then `--set key=value` overrides are applied to the parsed
//! table and the result is deserialised and range-checked again. Every error names the field.

use serde::Deserialize;
use toml::{Table, Value};

use crate::config::{Arch, Config, Costs, FlushInfo, Preempt, Workload, MAX_CPUS};
use crate::error::SimError;
use crate::ids::CpuId;

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    title: Option<String>,
    description: Option<String>,
    arch: Option<String>,
    #[serde(default)]
    machine: MachineSection,
    #[serde(default)]
    design: DesignSection,
    #[serde(default)]
    workload: WorkloadSection,
    #[serde(default)]
    costs: CostsSection,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct MachineSection {
    cpus: Option<i64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct DesignSection {
    flush_info: Option<String>,
    preempt: Option<String>,
    pcid: Option<String>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct WorkloadSection {
    flushes: Option<i64>,
    pages: Option<i64>,
    initiator: Option<i64>,
    period_ns: Option<i64>,
    irqs_off_probability: Option<f64>,
    irqs_off_max_ns: Option<i64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct CostsSection {
    ipi_send_ns: Option<i64>,
    ipi_delivery_ns: Option<i64>,
    ipi_handler_ns: Option<i64>,
    invlpg_ns: Option<i64>,
    full_flush_ns: Option<i64>,
    csd_poll_ns: Option<i64>,
}

/// The flat override vocabulary shared by scenario files, the URL, the CLI and CSV `variant`
/// columns: each short key names the table it lives in.
const SECTION_OF: &[(&str, &str)] = &[
    ("cpus", "machine"),
    ("flush_info", "design"),
    ("preempt", "design"),
    ("pcid", "design"),
    ("flushes", "workload"),
    ("pages", "workload"),
    ("initiator", "workload"),
    ("period_ns", "workload"),
    ("irqs_off_probability", "workload"),
    ("irqs_off_max_ns", "workload"),
];

/// Parses a scenario and applies `key=value` overrides, returning a validated config.
pub fn parse(text: &str, overrides: &[String]) -> Result<Config, SimError> {
    let as_written: ScenarioFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    let file = if overrides.is_empty() {
        as_written
    } else {
        let mut table: Table = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        for o in overrides {
            apply_override(&mut table, o)?;
        }
        ScenarioFile::deserialize(Value::Table(table))
            .map_err(|e| SimError::new("--set", e.message().to_string()))?
    };
    validate(file).map_err(|e| {
        let line = find_line(text, &e.path);
        e.at_line(line)
    })
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
    let path = field_named_in(&message).unwrap_or_default();
    SimError::new(path, message).at_line(line)
}

/// serde names the unknown or bad field in backticks: "unknown field `cpu`, expected …".
fn field_named_in(message: &str) -> Option<String> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(message[start..start + len].to_string())
}

fn apply_override(table: &mut Table, assignment: &str) -> Result<(), SimError> {
    let (key, raw) = assignment.split_once('=').ok_or_else(|| {
        SimError::new(
            format!("--set {assignment}"),
            "expected key=value, e.g. flush_info=stack",
        )
    })?;
    let key = key.trim();
    let raw = raw.trim();
    let (section, field) = match key.split_once('.') {
        Some((s, f)) => (s.to_string(), f.to_string()),
        None => match SECTION_OF.iter().find(|(k, _)| *k == key) {
            Some((_, s)) => (s.to_string(), key.to_string()),
            None if key == "arch" || key == "title" => (String::new(), key.to_string()),
            None => {
                let known: Vec<&str> = SECTION_OF.iter().map(|(k, _)| *k).collect();
                return Err(SimError::new(
                    format!("--set {key}"),
                    format!(
                        "unknown setting; known settings: arch, {}",
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
    target.insert(field, value);
    Ok(())
}

fn validate(f: ScenarioFile) -> Result<Config, SimError> {
    let arch = match f.arch.as_deref().unwrap_or("x86") {
        "x86" => Arch::X86,
        "arm64" => Arch::Arm64,
        other => return Err(one_of("arch", other, &["x86", "arm64"])),
    };
    let cpus = int_in("machine.cpus", f.machine.cpus, 4, 1, MAX_CPUS as i64)? as u16;
    let flush_info = match f.design.flush_info.as_deref().unwrap_or("percpu") {
        "percpu" => FlushInfo::PerCpu,
        "stack" => FlushInfo::Stack,
        "stack_unaligned" => FlushInfo::StackUnaligned,
        other => {
            return Err(one_of(
                "design.flush_info",
                other,
                &["percpu", "stack", "stack_unaligned"],
            ))
        }
    };
    let preempt = match f.design.preempt.as_deref().unwrap_or("pinned") {
        "pinned" => Preempt::Pinned,
        "preemptible_wait" => Preempt::PreemptibleWait,
        other => {
            return Err(one_of(
                "design.preempt",
                other,
                &["pinned", "preemptible_wait"],
            ))
        }
    };
    let pcid = match f.design.pcid.as_deref().unwrap_or("on") {
        "on" => true,
        "off" => false,
        other => return Err(one_of("design.pcid", other, &["on", "off"])),
    };
    let w = f.workload;
    let initiator = int_in("workload.initiator", w.initiator, 0, 0, cpus as i64 - 1)? as u16;
    let probability = w.irqs_off_probability.unwrap_or(0.0);
    if !(0.0..=1.0).contains(&probability) {
        return Err(SimError::new(
            "workload.irqs_off_probability",
            format!("must be between 0 and 1, got {probability}"),
        ));
    }
    let workload = Workload {
        flushes: int_in("workload.flushes", w.flushes, 1, 0, 10_000_000)? as u32,
        pages: int_in("workload.pages", w.pages, 1, 1, 1 << 21)? as u32,
        initiator: CpuId(initiator),
        period_ns: int_in(
            "workload.period_ns",
            w.period_ns,
            20_000,
            1,
            1_000_000_000_000,
        )? as u64,
        irqs_off_probability: probability,
        irqs_off_max_ns: int_in(
            "workload.irqs_off_max_ns",
            w.irqs_off_max_ns,
            0,
            0,
            1_000_000_000,
        )? as u64,
    };
    let d = Costs::default();
    let c = f.costs;
    let cost = |name: &str, v: Option<i64>, default: u64| -> Result<u64, SimError> {
        Ok(int_in(
            &format!("costs.{name}"),
            v,
            default as i64,
            0,
            1_000_000_000_000,
        )? as u64)
    };
    let costs = Costs {
        ipi_send_ns: cost("ipi_send_ns", c.ipi_send_ns, d.ipi_send_ns)?,
        ipi_delivery_ns: cost("ipi_delivery_ns", c.ipi_delivery_ns, d.ipi_delivery_ns)?,
        ipi_handler_ns: cost("ipi_handler_ns", c.ipi_handler_ns, d.ipi_handler_ns)?,
        invlpg_ns: cost("invlpg_ns", c.invlpg_ns, d.invlpg_ns)?,
        full_flush_ns: cost("full_flush_ns", c.full_flush_ns, d.full_flush_ns)?,
        csd_poll_ns: cost("csd_poll_ns", c.csd_poll_ns, d.csd_poll_ns)?,
    };
    Ok(Config {
        title: f.title.unwrap_or_else(|| "Untitled scenario".into()),
        description: f.description.unwrap_or_default(),
        arch,
        cpus,
        flush_info,
        preempt,
        pcid,
        workload,
        costs,
    })
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
fn find_line(text: &str, path: &str) -> u32 {
    let (section, key) = match path.rsplit_once('.') {
        Some((s, k)) => (Some(s), k),
        None => (None, path),
    };
    let mut in_section = section.is_none();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            in_section = section.is_some_and(|s| t.trim_matches(|c| c == '[' || c == ']') == s);
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
        assert_eq!(c.flush_info, FlushInfo::PerCpu);
        assert_eq!(c.preempt, Preempt::Pinned);
        assert_eq!(c.costs, Costs::default());
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
        assert_eq!(c.flush_info, FlushInfo::Stack);
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
        assert_eq!(e.path, "design.preempt");
        assert!(e.message.contains("pinned, preemptible_wait"), "{e}");
    }

    #[test]
    fn a_syntax_error_carries_its_line() {
        let e = parse("title = \"t\"\n[machine\n", &[]).unwrap_err();
        assert_eq!(e.line, 2);
    }
}
