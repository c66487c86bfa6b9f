//! x86 `switch_mm_irqs_off` against a concurrent flush of the mm it switches to (race R7) in
//! seeded runs: the store buffer's drain time decides whether the flush sees the switching CPU.

use tlbscope_sim::events::EventKind;
use tlbscope_sim::session::Session;

fn scenario() -> String {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../content/scenarios/x86-r7-switch-mm-order.toml"
    );
    std::fs::read_to_string(p).unwrap()
}

/// The invariants the run broke, and whether CPU 0's flush sent CPU 1 an IPI.
fn run(set: &[&str]) -> (Vec<String>, bool) {
    let set: Vec<String> = set.iter().map(|s| s.to_string()).collect();
    let mut s = Session::new(&scenario(), &set, 1).unwrap_or_else(|e| panic!("{e}"));
    s.run();
    let t = s.trace();
    let ipi = (0..t.kind.len())
        .any(|i| t.kind[i] == EventKind::IpiSent as u8 && t.cpu[i] == 0 && t.arg[i] == 1.0);
    let broke = s
        .summary()
        .violations
        .iter()
        .map(|v| v.invariant.clone())
        .collect();
    (broke, ipi)
}

#[test]
fn with_the_barrier_the_flush_sees_the_switching_cpu_and_interrupts_it() {
    let (broke, ipi) = run(&[]);
    assert!(broke.is_empty(), "{broke:?}");
    assert!(ipi, "LOADED_MM_SWITCHING must draw the IPI");
    assert_eq!(run(&["switch_mm_barrier=full"]), (broke, ipi));
}

#[test]
fn without_it_a_flush_inside_the_drain_time_misses_the_cpu_and_a_stale_entry_is_used() {
    let (broke, ipi) = run(&["switch_mm_barrier=none"]);
    assert_eq!(broke, ["I3"]);
    assert!(!ipi);
}

#[test]
fn a_drain_quicker_than_the_flush_leaves_nothing_for_the_flush_to_miss() {
    // CPU 0 increments tlb_gen 10 ns after CPU 1's read: a 5 ns drain is over by then.
    let (broke, ipi) = run(&["switch_mm_barrier=none", "costs.store_buffer_drain_ns=5"]);
    assert!(broke.is_empty(), "{broke:?}");
    assert!(ipi);
}
