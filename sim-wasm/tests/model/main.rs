//! The engine against a reference model, on random workloads (proptest, with shrinking).
//!
//! Each case is a random machine + design (only kernel-correct settings) + tasks whose
//! programs are random sequences of transitions (touch, madvise, munmap, spin, sleep,
//! interrupts-off windows, yield). The engine runs it; then
//!
//! 1. the reference model ("every flush is instantaneous everywhere at the moment it returns")
//!    replays the flushes from the trace and checks every recorded access: the engine may be
//!    slower than the reference (stale use while a flush is in flight), never staler;
//! 2. the engine's own invariant checks record nothing;
//! 3. the trace is well formed (sorted time, finite durations, causal links of the right kinds).
//!
//! A warning in the Firezone tradition: the reference model is code too, and can be wrong in
//! the same way as the engine if both encode the same misreading of the kernel.

mod reference;
mod strategies;
mod transition;

use proptest::prelude::*;
use tlbscope_sim::events::EventKind;
use tlbscope_sim::session::Session;

use strategies::case;
use transition::Case;

fn run(c: &Case) -> Session {
    let text = c.scenario();
    let mut s = Session::new(&text, &c.overrides(), c.seed)
        .unwrap_or_else(|e| panic!("generated scenario does not parse: {e}\n{text}"));
    s.record_accesses();
    s.run();
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn the_engine_is_never_staler_than_instant_flushes_everywhere(c in case()) {
        let s = run(&c);
        let stale = reference::staler_than_reference(s.trace(), s.accesses());
        prop_assert!(stale.is_empty(), "{}\nfirst stale accesses: {:?}", c.scenario(), &stale[..stale.len().min(3)]);
    }

    #[test]
    fn kernel_designs_violate_no_invariant(c in case()) {
        let s = run(&c);
        let v = s.summary().violations;
        prop_assert!(v.is_empty(), "{}\n{:?}\n{:?}", c.scenario(), c.overrides(), v);
    }

    #[test]
    fn the_trace_is_sorted_finite_and_causally_linked(c in case()) {
        let s = run(&c);
        let t = s.trace();
        prop_assert!(t.time.windows(2).all(|w| w[0] <= w[1]));
        prop_assert!(t.dur.iter().all(|d| d.is_finite() && *d >= 0.0));
        for h in t.rows_of(EventKind::IpiHandler) {
            let p = t.parent[h];
            prop_assert!(p >= 0 && t.kind[p as usize] == EventKind::IpiSent as u8);
            prop_assert_eq!(t.arg[p as usize] as u16, t.cpu[h]);
        }
        for u in t.rows_of(EventKind::CsdUnlocked) {
            let p = t.parent[u];
            prop_assert!(p >= 0 && t.kind[p as usize] == EventKind::IpiHandler as u8);
        }
    }

    #[test]
    fn the_same_case_gives_the_same_trace(c in case()) {
        prop_assert_eq!(run(&c).trace().hash(), run(&c).trace().hash());
    }
}

/// The reference model has teeth: it flags the races the scenarios build, independently of
/// the engine's own invariant checks.
#[test]
fn the_reference_model_flags_the_r1_and_r8_races() {
    for (file, bad, good) in [
        (
            "x86-r1-percpu-descriptor-race.toml",
            "flush_info=percpu",
            "flush_info=stack",
        ),
        (
            "x86-r8-plus-one-rule.toml",
            "plus_one_rule=off",
            "plus_one_rule=on",
        ),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../content/scenarios")
            .join(file);
        let text = std::fs::read_to_string(path).unwrap();
        for (set, expect_stale) in [(bad, true), (good, false)] {
            let mut s = Session::new(&text, &[set.to_string()], 1).unwrap();
            s.record_accesses();
            s.run();
            let stale = reference::staler_than_reference(s.trace(), s.accesses());
            assert_eq!(
                !stale.is_empty(),
                expect_stale,
                "{file} with {set}: {stale:?}"
            );
        }
    }
}
