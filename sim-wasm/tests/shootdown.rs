//! The walking-skeleton shootdown: one flush on a 4-CPU machine.

use tlbscope_sim::events::EventKind;
use tlbscope_sim::session::Session;

fn run(text: &str, overrides: &[&str]) -> Session {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let mut s = Session::new(text, &o, 7).unwrap();
    s.run();
    s
}

const FOUR: &str = "[machine]\ncpus = 4\n";

#[test]
fn one_flush_sends_an_ipi_to_every_other_cpu_and_each_acks_once() {
    let s = run(FOUR, &[]);
    let t = s.trace();
    assert_eq!(t.rows_of(EventKind::IpiSent).count(), 3);
    assert_eq!(t.rows_of(EventKind::IpiHandler).count(), 3);
    assert_eq!(t.rows_of(EventKind::CsdUnlocked).count(), 3);
    let targets: Vec<u16> = t.rows_of(EventKind::IpiHandler).map(|i| t.cpu[i]).collect();
    assert_eq!(targets, [1, 2, 3]);
}

#[test]
fn every_handler_is_caused_by_an_ipi_to_its_cpu() {
    let s = run(FOUR, &[]);
    let t = s.trace();
    for h in t.rows_of(EventKind::IpiHandler) {
        let sent = t.parent[h] as usize;
        assert_eq!(t.kind[sent], EventKind::IpiSent as u8);
        assert_eq!(t.arg[sent] as u16, t.cpu[h]);
        assert!(t.time[h] > t.time[sent]);
    }
}

#[test]
fn the_initiator_waits_until_the_last_ack() {
    let s = run(FOUR, &[]);
    let t = s.trace();
    let wait = t.rows_of(EventKind::IpiWait).next().unwrap();
    let last_ack = t
        .rows_of(EventKind::CsdUnlocked)
        .map(|i| t.time[i])
        .fold(0.0, f64::max);
    assert!(t.time[wait] + t.dur[wait] >= last_ack);
}

#[test]
fn the_trace_time_column_is_sorted() {
    let s = run("[machine]\ncpus = 16\n[workload]\nflushes = 50\nirqs_off_probability = 0.5\nirqs_off_max_ns = 5000\n", &[]);
    let t = s.trace();
    assert!(t.time.windows(2).all(|w| w[0] <= w[1]));
    assert!(t.dur.iter().all(|d| d.is_finite() && *d >= 0.0));
}

#[test]
fn with_preemptible_wait_preemption_is_off_only_until_dispatch() {
    let pinned = run(FOUR, &["preempt=pinned"]).summary();
    let preemptible = run(FOUR, &["preempt=preemptible_wait"]).summary();
    assert_eq!(pinned.flush_latency_ns, preemptible.flush_latency_ns);
    assert!(preemptible.preempt_off_ns.max < pinned.preempt_off_ns.max);
}

#[test]
fn a_remote_cpu_with_irqs_off_stretches_the_initiators_wait() {
    let quiet = run(FOUR, &[]).summary();
    let noisy = run(
        FOUR,
        &[
            "irqs_off_probability=1",
            "irqs_off_gap_ns=100",
            "irqs_off_max_ns=50000",
        ],
    )
    .summary();
    assert!(noisy.flush_latency_ns.max > quiet.flush_latency_ns.max);
}

#[test]
fn back_to_back_ipis_to_one_cpu_run_one_handler_at_a_time() {
    // Two CPUs flush the same mm over and over while CPU 2 uses it: CPU 2 gets IPIs from both,
    // often queued behind each other, and a woken waiter sends the next while CPU 2's handler
    // unlocks the last (the debug build asserts no handler starts inside another).
    let text = "[machine]\ncpus = 3\n\
        [[tasks]]\nmm = 1\ncpu = 0\nrepeat = 40\nprogram = \"madvise 0; spin 20ns\"\n\
        [[tasks]]\nmm = 1\ncpu = 1\nrepeat = 40\nprogram = \"madvise 0; spin 30ns\"\n\
        [[tasks]]\nmm = 1\ncpu = 2\nrepeat = 400\nprogram = \"touch 0; spin 10ns\"\n";
    let s = run(text, &[]);
    let t = s.trace();
    let handlers: Vec<usize> = t
        .rows_of(EventKind::IpiHandler)
        .filter(|&h| t.cpu[h] == 2)
        .collect();
    assert!(handlers.len() >= 4, "{} handlers on CPU 2", handlers.len());
    // Handlers on one CPU never overlap.
    for w in handlers.windows(2) {
        assert!(t.time[w[0]] + t.dur[w[0]] <= t.time[w[1]], "{w:?}");
    }
    // Both senders were acknowledged by CPU 2.
    let senders: std::collections::BTreeSet<u64> = t
        .rows_of(EventKind::CsdUnlocked)
        .filter(|&u| t.cpu[u] == 2)
        .map(|u| t.arg[u] as u64)
        .collect();
    assert_eq!(senders.into_iter().collect::<Vec<_>>(), [0, 1]);
}
