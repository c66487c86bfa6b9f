//! Every scenario in `content/scenarios/` runs natively with the outcome its `[expect]` table
//! states: the set of violated invariants, for the file's own settings and for each
//! `[[expect.cases]]` toggle setting. `expect.test_set` overrides (e.g. fewer flushes for a
//! benchmark scenario) are applied to every run here.

mod common;

use std::path::PathBuf;

use tlbscope_sim::scenario;
use tlbscope_sim::session::Session;

fn violated(text: &str, overrides: &[String]) -> Vec<String> {
    let mut s = Session::new(text, overrides, 1)
        .unwrap_or_else(|e| panic!("does not parse with {overrides:?}: {e}"));
    s.run();
    s.summary().violated()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v.dedup();
    v
}

#[test]
fn every_scenario_shows_exactly_the_violations_it_states() {
    let files = common::scenario_files();
    assert!(!files.is_empty(), "no scenarios found");
    let mut failures = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(file).unwrap();
        let cfg = match scenario::parse(&text, &[]) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        for (set, want) in cfg.expect.runs() {
            let got = violated(&text, &set);
            let want = sorted(want.to_vec());
            if got != want {
                failures.push(format!("{name} {set:?}: expected {want:?}, got {got:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_x86_and_arm64_scenario_has_a_title_a_summary_and_a_description() {
    for file in common::scenario_files() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("x86-") && !name.starts_with("arm64-") {
            continue;
        }
        let cfg = scenario::parse(&std::fs::read_to_string(&file).unwrap(), &[]).unwrap();
        assert!(cfg.title != "Untitled scenario", "{name} has no title");
        assert!(!cfg.summary.is_empty(), "{name} has no summary");
        assert!(!cfg.description.is_empty(), "{name} has no description");
    }
}

#[test]
fn every_guided_step_fits_the_run_it_describes() {
    let mut failures = Vec::new();
    let mut steps_checked = 0;
    for file in common::scenario_files() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        let Ok(cfg) = scenario::parse(&text, &[]) else {
            continue; // reported by the test above
        };
        for (i, step) in cfg.steps.iter().enumerate() {
            if let Some(id) = &step.dataset {
                let csv = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join(format!("../content/datasets/{id}.csv"));
                if !csv.exists() {
                    failures.push(format!(
                        "{name}: line {}: steps[{i}].dataset: no content/datasets/{id}.csv",
                        step.line
                    ));
                }
            }
            if let Some(id) = &step.recording {
                let trace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join(format!("../content/recordings/{id}.trace"));
                if !trace.exists() {
                    failures.push(format!(
                        "{name}: line {}: steps[{i}].recording: no content/recordings/{id}.trace",
                        step.line
                    ));
                }
            }
            let mut s = Session::new(&text, &step.set, 1).expect("step overrides were validated");
            s.run();
            if let Err(e) = s.check_step(i) {
                failures.push(format!("{name}: {e}"));
            }
            steps_checked += 1;
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    eprintln!("{steps_checked} guided steps checked");
}

#[test]
fn guided_tour_positions_are_unique() {
    let mut seen = std::collections::BTreeMap::new();
    for file in common::scenario_files() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let Ok(cfg) = scenario::parse(&std::fs::read_to_string(&file).unwrap(), &[]) else {
            continue;
        };
        if let Some(g) = cfg.guide {
            assert!(
                !cfg.steps.is_empty(),
                "{name} is in the guided tour but has no steps"
            );
            if let Some(other) = seen.insert(g, name.clone()) {
                panic!("{name} and {other} both claim guide = {g}");
            }
        }
    }
}
