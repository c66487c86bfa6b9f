//! Random input never panics the simulator: random `--set` overrides (known keys with wild
//! values, and unknown keys) and random task programs either fail with a `SimError` or run to
//! completion (bounded by a small event budget).

use proptest::prelude::*;
use tlbscope_sim::session::Session;

const KEYS: &[&str] = &[
    "cpus",
    "machine",
    "tlb_entries",
    "tlb_ways",
    "stack_offset",
    "max_time_ns",
    "flush_info",
    "preempt",
    "pcid",
    "wait_mask",
    "plus_one_rule",
    "lazy_freed_tables",
    "ceiling",
    "threads",
    "busy_threads",
    "lazy_cpus",
    "flushes",
    "pages",
    "initiator",
    "period_ns",
    "freed_tables",
    "irqs_off_probability",
    "irqs_off_gap_ns",
    "irqs_off_dist",
    "irqs_off_mean_ns",
    "irqs_off_max_ns",
    "wakeup_period_ns",
    "wakeup_cpu",
    "wakeup_work_ns",
    "mm_pages",
    "costs.ipi_delivery_ns",
    "costs.invlpg_ns",
    "costs.nonsense",
    "broadcast_skip",
    "dsb_before_dec",
    "skip_rule",
    "cpu_id",
    "max_dvm_ops",
    "asid_bits",
    "op",
    "processes",
    "hot_pages",
    "pti",
    "pti_user_flush",
    "invlpgb",
    "global_asid",
    "asid_transition",
    "tlbsync_pinned",
    "kernel",
    "costs.invlpgb_count_max",
    "costs.flush_call_ns",
    "costs.pti_cr3_ns",
    "costs.dvm_op_ns",
    "costs.ptw_ns",
    "arch",
    "bogus",
    "design.x",
];

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|v| v.to_string()),
        (0i64..600).prop_map(|v| v.to_string()),
        any::<f64>().prop_map(|v| v.to_string()),
        (0.0f64..1.0).prop_map(|v| v.to_string()),
        prop::sample::select(vec![
            "percpu",
            "stack",
            "stack_unaligned",
            "pinned",
            "preemptible_wait",
            "on",
            "off",
            "task",
            "ipi",
            "skip",
            "exp",
            "pareto",
            "uniform",
            "invpcid",
            "deferred",
            "none",
            "first_flush",
            "4.13",
            "7.3",
            "sampled",
            "zen3-epyc-7763-128",
            "skylake-desktop-4",
            "skylake-sp-56",
            "icelake-8336c-128",
            "skylake-laptop-kvm",
            "x86",
            "arm64",
            "active_mm",
            "mm_users",
            "thread_info",
            "mprotect",
            "cow",
            "munmap",
            "ampere-32",
            "generic-arm64",
            "",
            "NaN",
            "true",
        ])
        .prop_map(String::from),
        "[ -~]{0,12}",
    ]
}

fn overrides() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(
        (prop::sample::select(KEYS), value()).prop_map(|(k, v)| format!("{k}={v}")),
        0..8,
    )
}

/// `op args…` pairs as one program string (`touch 0 8; madvise 0 8`).
fn program_text(ops: &[(&str, Vec<u64>)]) -> String {
    let ops: Vec<String> = ops
        .iter()
        .map(|(op, args)| {
            let args: Vec<String> = args.iter().map(u64::to_string).collect();
            format!("{op} {}", args.join(" "))
        })
        .collect();
    ops.join("; ")
}

fn run_bounded(text: &str, mut o: Vec<String>, seed: u64) {
    // Keep each run small; these come last so they win over random values.
    o.push("max_events=20000".into());
    o.push("max_time_ns=5000000".into());
    if let Ok(mut s) = Session::new(text, &o, seed) {
        s.run();
        let _ = s.summary().to_json();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_overrides_never_panic(o in overrides(), seed in any::<u64>()) {
        run_bounded("title = \"fuzz\"\n[workload]\nflushes = 20\n", o, seed);
    }

    #[test]
    fn random_arm64_overrides_never_panic(o in overrides(), seed in any::<u64>()) {
        run_bounded(
            "arch = \"arm64\"\n[machine]\ncpus = 6\n[workload]\nflushes = 20\nthreads = 3\nprocesses = true\n",
            o,
            seed,
        );
    }

    #[test]
    fn random_arm64_programs_never_panic(
        ops in proptest::collection::vec(
            (
                prop::sample::select(vec![
                    "touch", "madvise", "munmap", "mprotect", "cow", "spin", "sleep", "speculate",
                    "migrate", "yield", "cpuid", "this_cpu_inc",
                ]),
                proptest::collection::vec(prop_oneof![0u64..70, any::<u32>().prop_map(u64::from)], 0..3),
            ),
            1..10,
        ),
        skip in any::<bool>(),
        dsb in any::<bool>(),
        bits in 3u8..6,
    ) {
        let program = program_text(&ops);
        let mut text = format!(
            "arch = \"arm64\"\n[machine]\ncpus = 3\nasid_bits = {bits}\n[[tasks]]\ncpu = 1\nrepeat = 3\nprogram = \"{}\"\n",
            program
        );
        for mm in 0..6 {
            text += &format!("[[tasks]]\nmm = {mm}\ncpu = {}\ncpus = [0, 1, 2]\nrepeat = 3\nprogram = \"touch 0 8; munmap 0 8; sleep 1us; speculate\"\n", mm % 3);
        }
        let o = vec![
            format!("broadcast_skip={}", if skip { "on" } else { "off" }),
            format!("dsb_before_dec={}", if dsb { "on" } else { "off" }),
        ];
        run_bounded(&text, o, 3);
    }

    #[test]
    fn random_programs_never_panic(program in "[a-z0-9 ;]{0,60}", cpu in 0i64..6, mm in -1i64..4) {
        let text = format!(
            "[machine]\ncpus = 4\n[[tasks]]\ncpu = {cpu}\nmm = {mm}\nrepeat = 3\nprogram = \"{program}\"\n"
        );
        run_bounded(&text, vec![], 1);
    }

    #[test]
    fn random_well_formed_programs_never_panic(
        ops in proptest::collection::vec(
            (
                prop::sample::select(vec![
                    "touch", "madvise", "munmap", "spin", "cli", "sti", "irqsoff",
                    "maybe_irqsoff", "sleep", "at", "pace", "speculate", "migrate", "yield",
                ]),
                proptest::collection::vec(prop_oneof![0u64..70, any::<u32>().prop_map(u64::from)], 0..3),
            ),
            1..10,
        ),
        repeat in 0u32..4,
        prio in 0u8..3,
    ) {
        let program = program_text(&ops);
        let text = format!(
            "[machine]\ncpus = 3\n[[tasks]]\ncpu = 1\nrepeat = {repeat}\nprio = {prio}\nprogram = \"{}\"\n[[tasks]]\ncpu = 1\ncpus = [0, 2]\nprogram = \"touch 0 8; madvise 0 8; spin 1us; munmap 2 40\"\n",
            program
        );
        run_bounded(&text, vec!["irqs_off_probability=0.5".into(), "irqs_off_max_ns=9000".into()], 3);
    }

    #[test]
    fn random_bytes_as_a_scenario_never_panic(text in "\\PC{0,200}") {
        run_bounded(&text, vec![], 1);
    }
}
