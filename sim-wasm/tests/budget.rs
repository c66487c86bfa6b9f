//! The run budget: hostile runs (a task that never ends, ten million flushes with the event
//! and time limits at their ceilings, 512 CPUs) stop at their budget with an error naming the
//! field to raise, keep what they simulated, and never hold much more than the budget.

use tlbscope_sim::budget::MIB;
use tlbscope_sim::session::Session;

const FOREVER: &str = include_str!("fixtures/forever.toml");
const MUNMAP: &str = include_str!("../../content/scenarios/x86-munmap-shootdown.toml");

fn set(o: &[&str]) -> Vec<String> {
    o.iter().map(|s| s.to_string()).collect()
}

/// Runs to the end and checks the budget held: the counted bytes stay near the limit.
fn run_within(text: &str, o: &[&str], mb: u64) -> Session {
    let mut s = Session::new(text, &set(o), 1).expect("valid scenario");
    s.run();
    assert!(s.is_done());
    let used = s.world().used_bytes();
    assert!(
        used <= mb * MIB + MIB,
        "used {used} bytes with a {mb} MB budget"
    );
    s
}

#[test]
fn a_task_that_never_ends_stops_at_the_memory_budget_and_keeps_its_trace() {
    let s = run_within(FOREVER, &["max_memory_mb=8"], 8);
    let e = s.budget_error().expect("a budget stop");
    assert_eq!(e.path, "machine.max_memory_mb");
    assert!(e.message.contains("memory budget of 8 MB"), "{e}");
    assert!(e.message.contains("--set max_memory_mb="), "{e}");
    assert!(e.message.contains("what ran so far is kept"), "{e}");
    // The partial run is whole: rows up to the budget, spans closed, a summary.
    assert!(s.trace().len() > 100_000);
    assert!(s.trace().dur.iter().all(|d| d.is_finite()));
    assert!(s.summary().to_json().contains("flush_latency"));
}

#[test]
fn ten_million_flushes_with_limits_at_their_ceilings_stop_at_the_budget() {
    let o = [
        "flushes=10000000",
        "max_events=100000000",
        "max_time_ns=1000000000000",
        "max_memory_mb=16",
    ];
    let s = run_within(MUNMAP, &o, 16);
    assert_eq!(s.budget_error().unwrap().path, "machine.max_memory_mb");
}

#[test]
fn the_event_budget_names_max_events() {
    let s = run_within(FOREVER, &["max_events=5000"], 256);
    let e = s.budget_error().expect("an event budget stop");
    assert_eq!(e.path, "machine.max_events");
    assert!(e.message.contains("event budget of 5,000 events"), "{e}");
    assert!(e.message.contains("--set max_events="), "{e}");
}

#[test]
fn a_512_cpu_run_with_a_large_workload_stops_at_the_budget() {
    let o = [
        "cpus=512",
        "threads=256",
        "lazy_cpus=128",
        "busy_threads=64",
        "flushes=100000",
        "pages=64",
        "max_memory_mb=24",
    ];
    let s = run_within(MUNMAP, &o, 24);
    assert_eq!(s.budget_error().unwrap().path, "machine.max_memory_mb");
}

#[test]
fn a_run_that_finishes_reports_no_budget_error() {
    let mut s = Session::new(MUNMAP, &[], 1).unwrap();
    s.run();
    assert!(s.budget_error().is_none());
}

#[test]
fn a_machine_state_over_the_budget_is_refused_before_it_is_allocated() {
    let o = set(&[
        "cpus=512",
        "threads=512",
        "processes=true",
        "mm_pages=1048576",
    ]);
    let e = Session::new(MUNMAP, &o, 1).err().expect("refused");
    assert_eq!(e.path, "--set workload.mm_pages");
    assert!(e.message.contains("512 address spaces"), "{e}");
    assert!(e.message.contains("memory budget of 256 MB"), "{e}");
}

#[test]
fn the_memory_budget_has_a_ceiling() {
    let e = Session::new(MUNMAP, &set(&["max_memory_mb=100000"]), 1)
        .err()
        .expect("refused");
    assert_eq!(
        e.to_string(),
        "--set machine.max_memory_mb: must be between 1 and 1024, got 100000"
    );
}

#[test]
fn arm64_broadcasts_to_512_cpus_count_against_the_event_budget() {
    // Found by bench/fuzz-wasm.mjs: each broadcast invalidates on all 512 PEs, so events were
    // few but each took ~0.2 ms; at the 1e9 event ceiling the run took minutes of CPU.
    let o = [
        "arch=arm64",
        "cpus=512",
        "threads=480",
        "flushes=100000",
        "pages=53",
        "max_events=2000000",
    ];
    let s = run_within("", &o, 256);
    let e = s.budget_error().expect("an event budget stop");
    assert_eq!(e.path, "machine.max_events");
    assert!(s.events() < 2_000_000 / 512, "{} events", s.events());
}
