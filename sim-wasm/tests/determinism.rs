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

/// An arm64 run with broadcasts queueing on the interconnect, victim stalls and (with 3-bit
/// ASIDs and nine mms) rollovers.
const ARM64: &str = r#"
title = "arm64 determinism probe"
arch = "arm64"
[machine]
cpus = 4
asid_bits = 3
[workload]
threads = 2
processes = true
op = "mprotect"
flushes = 50
busy_threads = 0
[[tasks]]
mm = 3
cpu = 2
repeat = 20
program = "touch 0 2; munmap 0 2; sleep 2us"
[[tasks]]
mm = 4
cpu = 2
repeat = 20
program = "touch 0; cow 0; sleep 1us"
[[tasks]]
mm = 5
cpu = 3
repeat = 20
program = "touch 0; this_cpu_inc; sleep 3us"
[[tasks]]
mm = 6
cpu = 3
repeat = 20
program = "cpuid 1000; sleep 2us"
[[tasks]]
mm = 7
cpu = 1
repeat = 20
program = "touch 0; sleep 1us"
[[tasks]]
mm = 8
cpu = 0
repeat = 20
program = "touch 0; sleep 2us"
[[tasks]]
mm = 9
cpu = 1
repeat = 20
program = "touch 0; sleep 1500ns"
"#;

#[test]
fn an_arm64_run_gives_the_identical_trace_twice() {
    for set in [["broadcast_skip=off"], ["broadcast_skip=on"]] {
        let o: Vec<String> = set.iter().map(|s| s.to_string()).collect();
        let hash = |seed: u64| {
            let mut s = Session::new(ARM64, &o, seed).expect("scenario parses");
            let h = s.run().hash();
            assert!(s.summary().asid_rollovers > 0, "the probe should roll over");
            h
        };
        for seed in [0u64, 9] {
            assert_eq!(
                hash(seed),
                hash(seed),
                "non-deterministic arm64 trace for seed {seed} {set:?}"
            );
        }
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
