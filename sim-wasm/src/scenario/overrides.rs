//! `--set key=value` overrides: applied to the parsed table by the flat keys of the
//! vocabulary, the one at fault named when the result does not deserialize, and a retarget at
//! the other architecture dropping the file's fields of the old one.

use serde::Deserialize;
use toml::{Table, Value};

use super::file::ScenarioFile;
use crate::config::Arch;
use crate::error::SimError;
use crate::scenario::vocabulary;

/// Removes the scenario file's fields that belong to the architecture being switched away from
/// (and its machine preset), keeping any that an override set explicitly. Returns notes.
pub(super) fn drop_other_arch_fields(
    table: &mut Table,
    new_arch: &str,
    overridden: &[String],
) -> Vec<String> {
    let old = if new_arch == "arm64" {
        Arch::X86
    } else {
        Arch::Arm64
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
    for s in vocabulary::only_on(old) {
        drop(&s.path(), table);
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

/// The override whose value does not fit its field (each is tried alone on the file), as an
/// error naming it and the value given; the whole list's error if none fails alone.
pub(super) fn override_at_fault(text: &str, overrides: &[String], message: &str) -> SimError {
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
pub(super) fn apply_override(
    table: &mut Table,
    assignment: &str,
) -> Result<Option<String>, SimError> {
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
        None => match vocabulary::by_key(key) {
            Some(s) => (s.section.to_string(), s.field.to_string()),
            None if key == "title" => (String::new(), key.to_string()),
            None => {
                let known: Vec<&str> = vocabulary::SETTINGS
                    .iter()
                    .filter(|s| s.is_flat())
                    .flat_map(|s| std::iter::once(&s.key).chain(s.aliases))
                    .copied()
                    .collect();
                return Err(SimError::new(
                    format!("--set {key}"),
                    format!(
                        "unknown setting; known settings: {}, costs.<name>",
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
