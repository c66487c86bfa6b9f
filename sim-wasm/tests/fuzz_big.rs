//! Big configurations (up to 512 CPUs, millions of flushes, processes, daemons that never end)
//! with the time limit at its ceiling and an event budget a debug build gets through: each run
//! either is refused with a located error or stops within its memory budget, never panics, and
//! keeps a consistent partial trace.

use proptest::prelude::*;
use tlbscope_sim::budget::MIB;
use tlbscope_sim::session::Session;

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn big_runs_stop_within_their_budget(
        arm in any::<bool>(),
        cpus in 64u32..=512,
        threads in 1u32..=512,
        flushes in prop::sample::select(vec![1_000u32, 100_000, 10_000_000]),
        lazy in 0u32..=64,
        busy in 0u32..=64,
        processes in any::<bool>(),
        pages in 1u32..=512,
        mb in 2u64..=16,
        seed in any::<u64>(),
    ) {
        let text = if arm { "arch = \"arm64\"\n" } else { "" };
        let o: Vec<String> = vec![
            format!("cpus={cpus}"),
            format!("threads={}", threads.min(cpus)),
            format!("flushes={flushes}"),
            format!("lazy_cpus={lazy}"),
            format!("busy_threads={busy}"),
            format!("processes={processes}"),
            format!("pages={pages}"),
            "max_events=5000000".into(),
            "max_time_ns=1000000000000".into(),
            format!("max_memory_mb={mb}"),
        ];
        match Session::new(text, &o, seed) {
            Err(e) => prop_assert!(!e.path.is_empty(), "unlocated error: {e}"),
            Ok(mut s) => {
                s.run();
                prop_assert!(s.is_done());
                prop_assert!(s.world().used_bytes() <= mb * MIB + MIB);
                prop_assert!(s.trace().dur.iter().all(|d| d.is_finite()));
                if let Some(e) = s.budget_error() {
                    prop_assert!(e.path.starts_with("machine.max_"), "{e}");
                }
            }
        }
    }
}
