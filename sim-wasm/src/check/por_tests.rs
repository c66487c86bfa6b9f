//! The footprints of x86's local flush steps, audited: on the states a breadth-first search
//! reaches first, every pair of choices `por.rs` calls independent commutes (`audit`), and
//! pairs with a local flush or `local_flush_done` step are among them, so the audit is not
//! passing vacuously over steps that are still dependent on everything.

use super::por::{audit, footprint, Footprint};
use crate::machine::{Event, World};
use crate::task::{Cont, FlushPhase};

fn world(name: &str, set: &[&str]) -> World {
    let mut w = super::scenario_world(name, set);
    w.mute_trace();
    w
}

/// The choice is a flush's step on its own CPU after the IPIs are out: the local
/// `flush_tlb_func` (a dispatch step past the last target) or `local_flush_done`.
fn is_local_flush_step(w: &World, ev: crate::machine::Ev) -> bool {
    let Event::Step { task, .. } = ev.unpack() else {
        return false;
    };
    let t = &w.tasks[task as usize];
    match (t.cont, &t.flush) {
        (Cont::Flush(FlushPhase::LocalDone), _) => true,
        (Cont::Flush(FlushPhase::Dispatch), Some(op)) => op.next_target >= op.targets.len(),
        _ => false,
    }
}

/// Audits the first `max_states` states of a breadth-first search from `init`; returns the
/// independent pairs with a local flush step in them.
fn audit_local_pairs(init: World, max_states: usize) -> u64 {
    let mut seen = std::collections::HashSet::from([super::key::state_key(&init)]);
    let mut queue = std::collections::VecDeque::from([init]);
    let mut local_pairs = 0;
    while let Some(w) = queue.pop_front() {
        audit(&w).unwrap_or_else(|e| panic!("{e}"));
        let choices = super::order::choices(&w);
        for (i, &(_, _, a)) in choices.iter().enumerate() {
            for &(_, _, b) in &choices[i + 1..] {
                let local = is_local_flush_step(&w, a) || is_local_flush_step(&w, b);
                let (fa, fb) = (footprint(&w, a), footprint(&w, b));
                if local && fa != Footprint::ALL && fb != Footprint::ALL && fa.independent(fb) {
                    local_pairs += 1;
                }
            }
        }
        for &(_, seq, _) in &choices {
            let mut next = w.clone();
            next.fire(seq);
            if seen.len() < max_states && seen.insert(super::key::state_key(&next)) {
                queue.push_back(next);
            }
        }
    }
    local_pairs
}

#[test]
fn local_flush_steps_called_independent_commute() {
    // Two flushes of one mm; R2's preemptible wait on the per-CPU mask and on the task's; R8's
    // overtaking partial and full flushes.
    let runs: &[(&str, &[&str])] = &[
        ("x86-check-3cpu-2flush", &[]),
        ("x86-r2-check", &[]),
        ("x86-r2-check", &["wait_mask=task"]),
        ("x86-r8-check", &["plus_one_rule=on"]),
    ];
    for &(name, set) in runs {
        let pairs = audit_local_pairs(world(name, set), 20_000);
        assert!(
            pairs > 0,
            "{name} {set:?}: no local flush step was called independent"
        );
    }
}
