//! `[[steps]]`: the narrated steps of a guided scenario.

use super::file::StepSection;
use crate::error::SimError;
use crate::events::EventKind;
use crate::scenario::vocabulary::{int_in, MAX_NS};
use crate::steps::Step;

pub(super) fn validate_step(i: usize, st: StepSection, cpus: u16) -> Result<Step, SimError> {
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
    let magnify = match st.magnify {
        None => None,
        Some(w) => match w[..] {
            [a, b] if 0 <= a && a < b && b <= MAX_NS => Some([a as u64, b as u64]),
            _ => {
                return Err(SimError::new(
                    p("magnify"),
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
        if !matches!(pick.as_str(), "max" | "min" | "holds") {
            return Err(SimError::new(
                p("pick"),
                format!("must be `max`, `min` or `holds`, got `{pick}`"),
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
        magnify,
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
        check: st.check,
        claims: st.claims,
        line: 0,
    })
}
