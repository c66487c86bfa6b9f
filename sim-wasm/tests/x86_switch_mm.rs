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

/// The inspector during the split switch: between publishing and the CR3 write, CPU 1 is
/// switching to mm A (the kernel's `loaded_mm` reads `LOADED_MM_SWITCHING`), CR3 still holds
/// the previous mm, and with `none` its stores are buffered for `store_buffer_drain_ns`; with
/// `full` no instant falls inside the switch.
#[test]
fn the_snapshot_shows_a_cpu_mid_switch_and_whether_its_stores_are_buffered() {
    for (set, buffered) in [
        ("switch_mm_barrier=none", true),
        ("switch_mm_barrier=full", false),
    ] {
        let mut s = Session::new(&scenario(), &[set.to_string()], 1).unwrap();
        s.run();
        let t = s.trace();
        let rows: Vec<usize> = (0..t.kind.len())
            .filter(|&i| t.kind[i] == EventKind::SwitchMm as u8 && t.cpu[i] == 1 && t.mm[i] == 1)
            .collect();
        assert!(!rows.is_empty(), "{set}: CPU 1 switches to mm A");
        // Every 5 ns around each switch: the moments mid-switch, as the inspector shows them.
        let mut mid = Vec::new();
        for &r in &rows {
            let (from, to) = (
                (t.time[r] as u64).saturating_sub(300),
                (t.time[r] + t.dur[r]) as u64 + 300,
            );
            for ns in (from..to).step_by(5) {
                let v: serde_json::Value = serde_json::from_str(&s.snapshot_json(ns)).unwrap();
                if !v["cpus"][1]["switching_to"].is_null() {
                    mid.push(v["cpus"][1].clone());
                }
            }
        }
        // With the barrier the CR3 write follows at the same instant (its window is an order,
        // not a time); without it the stores wait `store_buffer_drain_ns` and so does CR3.
        assert_eq!(
            !mid.is_empty(),
            buffered,
            "{set}: {} snapshots mid-switch",
            mid.len()
        );
        for c in &mid {
            assert_eq!(c["switching_to"], 1, "{set}: {c}");
            assert_ne!(
                c["loaded_mm"], 1,
                "{set}: CR3 still holds the previous mm: {c}"
            );
        }
        assert!(
            mid.iter().all(|c| c["switch_buffered"] == buffered),
            "{set}: {mid:?}"
        );
    }
}
