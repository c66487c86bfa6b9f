//! The search's buffer reuse and the key's leaving out of arm64's state on x86, checked
//! against what they must not change: the states a search visits (a plain breadth-first
//! search over fresh copies and `state_key`, no spares, no reused lists), the same search
//! with a frontier budget too small to keep worlds (so spares are refused and worlds are
//! replayed), and keys that still tell arm64 states apart on arm64.

use std::collections::{HashSet, VecDeque};

use super::explore::{Limits, Reduce, Search};
use super::key::state_key;
use super::scenario_world as world;
use crate::machine::World;

/// States and transitions of a plain breadth-first search: every choice fired on a fresh
/// copy, states merged by `state_key`, nothing reused.
fn reference(init: &World) -> (u64, u64) {
    let mut root = init.clone();
    root.mute_trace();
    let mut seen = HashSet::from([state_key(&root)]);
    let mut queue = VecDeque::from([root]);
    let mut transitions = 0;
    while let Some(w) = queue.pop_front() {
        for (_, seq, _) in super::order::choices(&w) {
            transitions += 1;
            let mut next = w.clone();
            next.fire(seq);
            if seen.insert(state_key(&next)) {
                queue.push_back(next);
            }
        }
    }
    (seen.len() as u64, transitions)
}

fn search(init: &World, frontier_bytes: u64) -> (u64, u64) {
    let limits = Limits {
        max_states: 1_000_000,
        max_steps: 400,
        max_frontier_bytes: frontier_bytes,
        reduce: Reduce::None,
    };
    let mut s = Search::new(init.clone(), limits);
    while !s.run_for(1 << 12) {}
    assert_eq!(s.verdict, super::Verdict::Holds);
    (s.states(), s.transitions)
}

#[test]
fn reused_buffers_visit_the_states_of_a_plain_search() {
    for (name, set) in [
        ("x86-r2-check", &["wait_mask=task"][..]),
        ("x86-r7-switch-mm-order", &["switch_mm_barrier=full"][..]),
        ("arm64-r16-dsb-before-dec", &["dsb_before_dec=on"][..]),
    ] {
        let init = world(name, set);
        let plain = reference(&init);
        assert_eq!(search(&init, 512 << 20), plain, "{name}");
        // No world fits: every state is replayed from its path, no spare is kept.
        assert_eq!(search(&init, 1), plain, "{name}, frontier without worlds");
    }
}

#[test]
fn arm64_state_is_in_the_key_on_arm64_only() {
    let mut a = world("arm64-r16-dsb-before-dec", &[]);
    let k = state_key(&a);
    a.arch_state.arm64.generation += 1;
    assert_ne!(
        state_key(&a),
        k,
        "arm64: its ASID generation tells states apart"
    );

    let mut x = world("x86-r2-check", &[]);
    let k = state_key(&x);
    x.arch_state.arm64.generation += 1;
    assert_eq!(
        state_key(&x),
        k,
        "x86: arm64's state is never written, and not hashed"
    );
}
