//! Same scenario, same seed ⇒ the identical trace. Every failure prints the seed to replay.

use tlbscope_sim::session::Session;

const NOISY: &str = r#"
title = "determinism probe"
[machine]
cpus = 8
[workload]
flushes = 200
pages = 4
irqs_off_probability = 0.3
irqs_off_max_ns = 20000
"#;

fn trace_hash(seed: u64) -> u64 {
    let mut s = Session::new(NOISY, &[], seed).expect("scenario parses");
    s.run().hash()
}

#[test]
fn the_same_seed_gives_the_identical_trace_twice() {
    for seed in [0u64, 1, 42, 0xDEAD_BEEF] {
        let (a, b) = (trace_hash(seed), trace_hash(seed));
        assert_eq!(a, b, "non-deterministic trace for seed {seed}");
    }
}

#[test]
fn different_seeds_give_different_traces_when_the_workload_is_random() {
    assert_ne!(
        trace_hash(1),
        trace_hash(2),
        "seed has no effect on a random workload"
    );
}
