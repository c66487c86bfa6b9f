//! The interleaving checker on the shipped race scenarios: each violates under its faulty
//! settings (the scenario's own) and holds under every fixed setting, as the scenario's
//! `[expect]` promises; the same scenario always gives the same counterexample; limits and bad
//! input end in an answer, not a panic.

use tlbscope_sim::check::{audit_search, race, Check, Limits, Reduce, Report, RACES};
use tlbscope_sim::session::Session;

fn scenario(name: &str) -> String {
    let p = format!(
        "{}/../content/scenarios/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn check(name: &str, set: &[&str]) -> Report {
    let set: Vec<String> = set.iter().map(|s| s.to_string()).collect();
    let mut c = Check::new(&scenario(name), &set, Limits::default()).expect("scenario parses");
    c.run()
}

/// The race's scenario violates as its `[expect]` says, and each fixed setting holds in
/// every interleaving.
fn race_verdicts(id: &str) {
    let r = race(id).expect("race in the table");
    let text = scenario(r.scenario);
    let expect: serde_json::Value =
        serde_json::from_str(&Session::new(&text, &[], 1).unwrap().expect_json()).unwrap();
    // The faulty design's promise: the scenario's own, or the case that sets `faulty`.
    let case_of = |set: &[&str]| {
        expect["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| {
                let s = c["set"].as_array().unwrap();
                s.len() == set.len() && set.iter().all(|f| s.iter().any(|x| x == f))
            })
            .cloned()
    };
    let faulty_promise = if r.faulty.is_empty() {
        expect.clone()
    } else {
        case_of(r.faulty).unwrap_or_else(|| panic!("{id}: no [[expect.cases]] for {:?}", r.faulty))
    };
    let promised: Vec<&str> = faulty_promise["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        !promised.is_empty(),
        "{id}: the faulty design must promise a violation"
    );
    let faulty = check(r.scenario, r.faulty);
    assert_eq!(faulty.verdict, "violated", "{id} faulty: {faulty:?}");
    let cx = faulty.counterexample.expect("a counterexample");
    assert!(
        promised.contains(&cx.invariant.as_str()),
        "{id}: broke {} , the scenario promises {promised:?}",
        cx.invariant
    );
    assert_eq!(cx.steps.len() as u32, cx.violation_step);
    assert!(cx.narration.contains(&cx.invariant));
    for fix in r.fixed {
        let case = case_of(&[fix]).unwrap_or_else(|| panic!("{id}: no [[expect.cases]] for {fix}"));
        assert!(
            case["violations"].as_array().unwrap().is_empty(),
            "{id}: {fix} must be clean"
        );
        let fixed = check(r.scenario, &[fix]);
        assert_eq!(fixed.verdict, "holds", "{id} with {fix}: {fixed:?}");
        assert!(
            fixed.states > faulty.states,
            "{id}: proving takes more states than refuting"
        );
        assert!(fixed.counterexample.is_none());
    }
}

#[test]
fn r1_percpu_descriptor_breaks_only_when_the_flush_can_be_preempted() {
    race_verdicts("R1");
}

#[test]
fn r2_a_second_flush_overwrites_the_per_cpu_wait_mask_of_a_preempted_one() {
    race_verdicts("R2");
}

#[test]
fn r8_a_partial_flush_overtaking_a_full_one_loses_it_without_the_plus_one_rule() {
    race_verdicts("R8");
}

/// R12: T's TLBSYNC, preempted and moved to CPU 1, returns before the INVLPGB it issued on
/// CPU 0 was performed; pinned, it cannot move. The counterexample is the migration.
#[test]
fn r12_tlbsync_on_another_cpu_returns_before_the_invlpgb_without_pinning() {
    race_verdicts("R12");
    let cx = check("x86-r12-check", &["tlbsync_pinned=off"])
        .counterexample
        .unwrap();
    let labels: Vec<&str> = cx.steps.iter().map(|s| s.label.as_str()).collect();
    let moved = labels
        .iter()
        .position(|l| l.contains("is migrated to CPU 1"))
        .unwrap_or_else(|| panic!("no migration: {labels:?}"));
    // The stale use is on CPU 0, after T left it.
    assert_eq!(cx.steps.last().unwrap().cpu, 0, "{labels:?}");
    assert!(moved < cx.steps.len() - 1);
    // The narration and the page's first step name the migration, not a reordering.
    assert_eq!(cx.enabling_step, Some(moved as u32 + 1));
    assert!(
        cx.narration.contains(&format!("Step {} (", moved + 1)),
        "{}",
        cx.narration
    );
}

#[test]
fn r13_invlpgb_misses_cpus_still_on_their_own_asid_without_asid_transition() {
    race_verdicts("R13");
}

#[test]
fn r6_lazy_cpus_skipped_while_tables_are_freed_break_i4() {
    race_verdicts("R6");
}

#[test]
fn r7_switch_mm_without_its_barrier_misses_a_concurrent_flush() {
    race_verdicts("R7");
}

#[test]
fn r11_pti_user_pcid_keeps_a_flushed_page_without_invpcid_or_deferred_flush() {
    race_verdicts("R11");
}

#[test]
fn r15_local_only_tlbi_breaks_while_a_lazy_kthread_holds_the_asid() {
    race_verdicts("R15");
}

#[test]
fn r16_walk_in_flight_breaks_without_dsb_before_the_decrement() {
    race_verdicts("R16");
}

#[test]
fn every_race_in_the_table_has_a_test_above() {
    let ids: Vec<&str> = RACES.iter().map(|r| r.id).collect();
    assert_eq!(
        ids,
        ["R1", "R2", "R6", "R7", "R8", "R11", "R12", "R13", "R15", "R16"]
    );
}

#[test]
fn the_same_scenario_gives_the_same_counterexample() {
    let a = check("x86-r1-percpu-descriptor-race", &[]);
    let b = check("x86-r1-percpu-descriptor-race", &[]);
    assert_eq!(a, b);
    let (a, b) = (a.counterexample.unwrap(), b.counterexample.unwrap());
    assert_eq!(a.path, b.path);
    assert!(!a.path.is_empty());
}

/// R7's counterexample is the store-buffering order: CPU 1's switch reads `tlb_gen` (its
/// `SwitchMm` row) before CPU 0 increments it, and CPU 0 picks its targets before CPU 1's
/// buffered stores become visible; the same each time it is computed.
#[test]
fn r7_counterexample_is_the_store_buffering_order_every_time() {
    let faulty = ["switch_mm_barrier=none"];
    let a = check("x86-r7-switch-mm-order", &faulty);
    assert_eq!(a, check("x86-r7-switch-mm-order", &faulty));
    let cx = a.counterexample.unwrap();
    assert_eq!(cx.invariant, "I3");
    let find = |what: &str| {
        cx.steps
            .iter()
            .rposition(|s| s.label.contains(what))
            .unwrap_or_else(|| panic!("no step {what}: {:#?}", cx.steps))
    };
    let inc = find("TlbGenIncremented");
    let drain = find("become visible");
    let read = cx.steps[..inc]
        .iter()
        .rposition(|s| s.cpu == 1 && s.label.contains("SwitchMm"))
        .expect("CPU 1 switched before the increment");
    assert!(read < inc && inc < drain, "{:#?}", cx.steps);
    assert_eq!(cx.steps[drain].cpu, 1);
    assert_eq!(cx.steps[drain + 1].label, "CPU 1's switch_mm writes CR3");
    assert_eq!(cx.violation_step as usize, cx.steps.len());
}

#[test]
fn the_counterexample_replays_to_the_same_violation_in_an_ordinary_trace() {
    let text = scenario("arm64-r16-dsb-before-dec");
    let mut c = Check::new(&text, &[], Limits::default()).unwrap();
    let r = c.run();
    let cx = r.counterexample.unwrap();
    let (_, path) = c.counterexample_world().unwrap();
    assert_eq!(path, cx.path.as_slice());
    let (_, steps) = tlbscope_sim::check::replay(c.initial(), path, u64::MAX);
    assert_eq!(steps, cx.steps);
    let s = Session::of_counterexample(&c).unwrap();
    assert!(s.is_done());
    assert_eq!(s.summary().violations[0].invariant, cx.invariant);
    // The last step wrote the InvariantViolated row.
    let last = cx.steps.last().unwrap();
    let kinds = &s.trace().kind[last.rows[0] as usize..last.rows[1] as usize];
    assert!(kinds.contains(&(tlbscope_sim::EventKind::InvariantViolated as u8)));
    // Times never run backwards along the interleaving.
    assert!(cx.steps.windows(2).all(|p| p[0].time_ns <= p[1].time_ns));
}

#[test]
fn a_small_state_cap_or_step_bound_ends_in_bound_reached() {
    let text = scenario("x86-r1-percpu-descriptor-race");
    let set = vec!["flush_info=stack".to_string()];
    let limits = Limits {
        max_states: 500,
        ..Limits::default()
    };
    let r = Check::new(&text, &set, limits).unwrap().run();
    assert_eq!((r.verdict, r.bound), ("bound_reached", Some("states")));
    assert_eq!(r.states, 500);
    let limits = Limits {
        max_steps: 5,
        ..Limits::default()
    };
    let r = Check::new(&text, &set, limits).unwrap().run();
    assert_eq!((r.verdict, r.bound), ("bound_reached", Some("steps")));
    assert_eq!(r.depth, 5);
}

#[test]
fn bad_input_is_an_error_naming_the_field() {
    let e = Check::new(
        "arch = \"x86\"\n[machine]\ncpus = 0\n",
        &[],
        Limits::default(),
    )
    .err()
    .unwrap();
    assert_eq!(e.path, "machine.cpus");
    let e = Check::new(
        &scenario("x86-r6-lazy-freed-tables"),
        &["flush_info=bogus".into()],
        Limits::default(),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("flush_info"), "{e}");
}

#[test]
fn a_damaged_path_replays_as_far_as_it_is_valid() {
    let text = scenario("arm64-r16-dsb-before-dec");
    let c = Check::new(&text, &[], Limits::default()).unwrap();
    let (_, steps) = tlbscope_sim::check::replay(c.initial(), &[0, 9999, 0], u64::MAX);
    assert_eq!(steps.len(), 1);
}

fn check_with(name: &str, set: &[&str], reduce: Reduce) -> Report {
    let set: Vec<String> = set.iter().map(|s| s.to_string()).collect();
    let limits = Limits {
        reduce,
        ..Limits::default()
    };
    Check::new(&scenario(name), &set, limits).unwrap().run()
}

/// Proofs above this many states are not repeated without the reduction (test time).
const UNREDUCED_PROOF_CAP: u64 = 100_000;

/// Partial-order reduction changes how much is fired, never the answer: for every race in
/// the table, faulty and fixed, the reduced search gives the unreduced one's verdict, visits
/// the same states when it proves (sleep sets prune transitions, not states), finds a
/// counterexample of the same length when it refutes, and fires no more transitions.
#[test]
fn reductions_keep_every_races_verdicts_and_counterexample_lengths() {
    for r in RACES {
        let runs = std::iter::once(r.faulty.to_vec()).chain(r.fixed.iter().map(|f| vec![*f]));
        for set in runs {
            let por = check_with(r.scenario, &set, Reduce::Por);
            let what = format!("{} {set:?}", r.id);
            if por.counterexample.is_none() && por.states > UNREDUCED_PROOF_CAP {
                // R8's and R13's fixed proofs (600,000+ states) are checked once, reduced, in
                // their race tests; the same footprints run unreduced on the smaller ones.
                continue;
            }
            let full = check_with(r.scenario, &set, Reduce::None);
            assert_eq!(full.verdict, por.verdict, "{what}");
            assert_eq!(full.reductions, "none");
            assert_eq!(por.reductions, "por");
            assert!(por.transitions <= full.transitions, "{what}");
            match (&full.counterexample, &por.counterexample) {
                (Some(a), Some(b)) => {
                    assert_eq!(a.steps.len(), b.steps.len(), "{what}");
                    assert_eq!(a.invariant, b.invariant, "{what}");
                }
                (None, None) => assert_eq!(full.states, por.states, "{what}"),
                _ => panic!("{what}: one search found a counterexample, the other did not"),
            }
        }
    }
}

/// Every pair of events the reduction treats as independent commutes: both orders reach
/// one state, neither disables the other, on the first states of every race scenario.
#[test]
fn events_called_independent_commute_on_the_race_scenarios() {
    let mut pairs = 0;
    for r in RACES {
        let runs = std::iter::once(r.faulty.to_vec()).chain(r.fixed.iter().map(|f| vec![*f]));
        for set in runs {
            let set: Vec<String> = set.iter().map(|s| s.to_string()).collect();
            let c = Check::new(&scenario(r.scenario), &set, Limits::default()).unwrap();
            pairs +=
                audit_search(c.initial(), 1500).unwrap_or_else(|e| panic!("{} {set:?}: {e}", r.id));
        }
    }
    let c = Check::new(&scenario("x86-check-3cpu-2flush"), &[], Limits::default()).unwrap();
    pairs += audit_search(c.initial(), 3000).unwrap();
    assert!(pairs > 100, "only {pairs} independent pairs were exercised");
}

/// A single-threaded task that may run on CPUs 0 and 1 unmaps its pages with a local-only
/// TLBI (R15's `mm_users` rule) while a kernel thread lazy on CPU 0 still has its ASID. The
/// kernel thread wakes with a higher priority and preempts the task on CPU 0; only if the
/// preempted task then moves to CPU 1 and unmaps there is CPU 0 left holding a stale walk.
const MIGRATION_R15: &str = r#"
arch = "arm64"
[machine]
cpus = 2
[design]
broadcast_skip = "on"
skip_rule = "mm_users"
[[tasks]]
name = "T"
mm = 1
cpu = 0
cpus = CPUS
program = "touch 0 4; spin 1us; munmap 0 4"
[[tasks]]
name = "kthread"
mm = 0
cpu = 0
prio = 1
program = "spin 20us; speculate; spin 1us"
"#;

/// Migrations are the checker's choices: the violation needs the preempted task to move, so
/// it is found when the task may run on CPU 1 and the design holds when it is pinned to CPU 0.
#[test]
fn a_preempted_task_moving_to_another_cpu_is_explored() {
    let run = |cpus: &str| {
        let text = MIGRATION_R15.replace("CPUS", cpus);
        Check::new(&text, &[], Limits::default()).unwrap().run()
    };
    let free = run("[0, 1]");
    assert_eq!(free.verdict, "violated", "{free:?}");
    let cx = free.counterexample.unwrap();
    assert!(
        cx.steps
            .iter()
            .any(|s| s.label.contains("is migrated to CPU 1")),
        "{:?}",
        cx.steps.iter().map(|s| &s.label).collect::<Vec<_>>()
    );
    let pinned = run("[0]");
    assert_eq!(pinned.verdict, "holds", "{pinned:?}");
}

/// CPU symmetry changes how many states are visited, never the answer: on the bystanders
/// scenario (CPUs 2 and 3 interchangeable) the faulty design's shortest counterexample has
/// the same length and invariant with and without it, the fixed design holds either way,
/// and both searches visit fewer states. The counterexample is a concrete path: it replays
/// from the initial world to the same violation.
#[test]
fn symmetry_keeps_verdicts_and_counterexample_lengths_with_fewer_states() {
    let name = "x86-check-bystanders";
    for (plain, sym) in [(Reduce::None, Reduce::Sym), (Reduce::Por, Reduce::All)] {
        let faulty = ["switch_mm_barrier=none"];
        let (a, b) = (
            check_with(name, &faulty, plain),
            check_with(name, &faulty, sym),
        );
        assert_eq!(b.symmetric_cpus, vec![vec![2u16, 3]]);
        assert!(b.reductions.ends_with("sym"), "{}", b.reductions);
        assert!(!a.reductions.contains("sym"));
        assert_eq!((a.verdict, b.verdict), ("violated", "violated"));
        let (ca, cb) = (a.counterexample.unwrap(), b.counterexample.unwrap());
        assert_eq!(ca.steps.len(), cb.steps.len());
        assert_eq!(ca.invariant, cb.invariant);
        assert!(b.states < a.states, "{} !< {}", b.states, a.states);
        let fixed = ["switch_mm_barrier=full"];
        let (a, b) = (
            check_with(name, &fixed, plain),
            check_with(name, &fixed, sym),
        );
        assert_eq!((a.verdict, b.verdict), ("holds", "holds"));
        assert!(b.states < a.states, "{} !< {}", b.states, a.states);
    }
    // Replayed from the initial world, the symmetric search's path breaks the same invariant
    // at its last step, and is the same on every run.
    let text = scenario(name);
    let set = vec!["switch_mm_barrier=none".to_string()];
    let mut c = Check::new(&text, &set, Limits::default()).unwrap();
    let r = c.run();
    assert_eq!(r.reductions, "por+sym");
    let cx = r.counterexample.unwrap();
    let (_, steps) = tlbscope_sim::check::replay(c.initial(), &cx.path, u64::MAX);
    assert_eq!(steps, cx.steps);
    let s = Session::of_counterexample(&c).unwrap();
    assert_eq!(s.summary().violations[0].invariant, cx.invariant);
    let again = Check::new(&text, &set, Limits::default()).unwrap().run();
    assert_eq!(again.counterexample.unwrap().path, cx.path);
}

/// Symmetry merges only CPUs that are interchangeable: none of the race scenarios has two
/// (their CPUs run different programs or take part in one flush), nor does the bystanders
/// scenario once the bystanders differ, or once their mm is flushed (a flush would visit
/// both in CPU order).
#[test]
fn symmetry_finds_no_class_where_cpus_are_not_interchangeable() {
    for r in RACES {
        let c = Check::new(&scenario(r.scenario), &[], Limits::default()).unwrap();
        assert!(c.report().symmetric_cpus.is_empty(), "{}", r.id);
    }
    let text = scenario("x86-check-bystanders");
    let classes = |t: &str| {
        Check::new(t, &[], Limits::default())
            .unwrap()
            .report()
            .symmetric_cpus
    };
    assert_eq!(classes(&text), vec![vec![2u16, 3]]);
    let differ = text.replacen(
        "cpu = 3\nprogram = \"touch 0; touch 0\"",
        "cpu = 3\nprogram = \"touch 0\"",
        1,
    );
    assert_ne!(differ, text);
    assert!(classes(&differ).is_empty());
    let flushed = text.replacen(
        "cpu = 0\nstart_ns = 10460\nprogram = \"madvise 0\"",
        "cpu = 0\nstart_ns = 10460\nprogram = \"madvise 0\"\n\n[[tasks]]\nname = \"C0\"\nmm = 3\ncpu = 0\nprogram = \"madvise 0\"",
        1,
    );
    assert_ne!(flushed, text);
    assert!(classes(&flushed).is_empty());
}
