//! One test per kernel mechanism the model implements, each on a tiny hand-built machine.

use tlbscope_sim::config::TlbIndex;
use tlbscope_sim::events::EventKind;
use tlbscope_sim::program::Op;
use tlbscope_sim::session::Session;
use tlbscope_sim::trace::Trace;

fn run(text: &str, overrides: &[&str]) -> Session {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let mut s = Session::new(text, &o, 7).unwrap_or_else(|e| panic!("{e}"));
    s.run();
    s
}

fn rows<'a>(t: &'a Trace, k: EventKind) -> impl Iterator<Item = usize> + 'a {
    t.rows_of(k)
}

fn scenario(cpus: u16, tasks: &[(u16, u16, u64, &str)]) -> String {
    let mut s = format!("[machine]\ncpus = {cpus}\n");
    for (mm, cpu, start, program) in tasks {
        s += &format!(
            "[[tasks]]\nmm = {mm}\ncpu = {cpu}\nstart_ns = {start}\nprogram = \"{program}\"\n"
        );
    }
    s
}

#[test]
fn a_lazy_cpu_gets_no_ipi_but_flushes_its_slot_when_its_thread_returns() {
    let text = scenario(
        2,
        &[
            (1, 0, 5_000, "touch 0; madvise 0"),
            (1, 1, 0, "touch 0; sleep 20us; touch 0"),
        ],
    );
    let s = run(&text, &[]);
    let t = s.trace();
    assert_eq!(rows(t, EventKind::IpiSent).count(), 0, "CPU 1 was lazy");
    let catch_up = rows(t, EventKind::SwitchMm)
        .filter(|&i| t.cpu[i] == 1 && t.time[i] > 20_000.0)
        .any(|i| t.arg[i] == 1.0);
    assert!(catch_up, "the return to the mm must flush the stale slot");
    assert!(s.summary().violations.is_empty());
}

#[test]
fn a_range_above_the_ceiling_becomes_a_full_flush() {
    for (pages, want) in [(33u32, 1.0), (34, 2.0)] {
        let text = scenario(
            2,
            &[
                (1, 0, 0, &format!("touch 0 {pages}; madvise 0 {pages}")),
                (1, 1, 0, "spin 200us"),
            ],
        );
        let s = run(&text, &[]);
        let t = s.trace();
        let remote: Vec<f64> = rows(t, EventKind::FlushTlbFunc)
            .filter(|&i| t.cpu[i] == 1)
            .map(|i| t.arg[i])
            .collect();
        assert_eq!(remote, [want], "{pages} pages");
    }
}

#[test]
fn requests_to_a_target_with_irqs_off_coalesce_into_one_ipi_and_one_handler() {
    let text = scenario(
        3,
        &[
            (1, 0, 2_000, "touch 0; madvise 0"),
            (1, 1, 2_000, "touch 1; madvise 1"),
            (1, 2, 0, "touch 0 2; irqsoff 20us"),
        ],
    );
    let s = run(&text, &[]);
    let t = s.trace();
    let ipis_to_2 = rows(t, EventKind::IpiSent)
        .filter(|&i| t.arg[i] == 2.0)
        .count();
    assert_eq!(
        ipis_to_2, 1,
        "the second sender piggy-backs on the pending IPI"
    );
    let handlers: Vec<usize> = rows(t, EventKind::IpiHandler)
        .filter(|&i| t.cpu[i] == 2)
        .collect();
    assert_eq!(handlers.len(), 1);
    let funcs = rows(t, EventKind::FlushTlbFunc)
        .filter(|&i| t.parent[i] == handlers[0] as i32)
        .count();
    assert_eq!(funcs, 2, "one handler runs both queued requests");
}

#[test]
fn the_initiator_waits_for_a_target_that_has_interrupts_off() {
    let text = scenario(
        2,
        &[
            (1, 0, 2_000, "touch 0; madvise 0"),
            (1, 1, 0, "touch 0; irqsoff 30us"),
        ],
    );
    let s = run(&text, &[]);
    assert!(s.summary().flush_latency_ns.max > 25_000.0);
    assert!(
        s.summary().preempt_off_ns.max > 25_000.0,
        "pinned for the whole wait"
    );
    let s = run(&text, &["preempt=preemptible_wait", "flush_info=stack"]);
    assert!(s.summary().flush_latency_ns.max > 25_000.0);
    assert!(
        s.summary().preempt_off_ns.max < 5_000.0,
        "2026: preemptible after dispatch"
    );
}

#[test]
fn a_non_preemptible_wait_is_paid_as_wakeup_latency_by_a_high_priority_task() {
    let text = "[machine]\ncpus = 4\n[workload]\nflushes = 200\nbusy_threads = 3\n\
                irqs_off_probability = 1\nirqs_off_gap_ns = 2000\nirqs_off_max_ns = 40000\n\
                wakeup_period_ns = 50000\n";
    let pinned = run(text, &[]).summary();
    let preemptible = run(text, &["flush_info=stack", "preempt=preemptible_wait"]).summary();
    assert!(pinned.wakeup_latency_ns.count > 0);
    assert!(
        preemptible.wakeup_latency_ns.max * 3.0 < pinned.wakeup_latency_ns.max,
        "pinned {:?} vs preemptible {:?}",
        pinned.wakeup_latency_ns,
        preemptible.wakeup_latency_ns
    );
    assert!(pinned.violations.is_empty() && preemptible.violations.is_empty());
}

#[test]
fn choose_new_asid_hands_out_six_slots_then_evicts_round_robin() {
    let mut tasks = Vec::new();
    let programs: Vec<String> = (0..7).map(|_| "touch 0".to_string()).collect();
    for (i, p) in programs.iter().enumerate() {
        tasks.push((i as u16 + 1, 0u16, i as u64 * 10_000, p.as_str()));
    }
    let s = run(&scenario(1, &tasks), &[]);
    let t = s.trace();
    let asids: Vec<u16> = rows(t, EventKind::SwitchMm).map(|i| t.asid[i]).collect();
    assert_eq!(asids, [1, 2, 3, 4, 5, 0, 1]);
}

#[test]
fn with_pcid_a_recently_used_mm_keeps_its_translations_across_switches() {
    let text = "[machine]\ncpus = 1\n\
                [[tasks]]\nmm = 1\nrepeat = 20\nprogram = \"touch 0 16; sleep 1us\"\n\
                [[tasks]]\nmm = 2\nstart_ns = 300\nrepeat = 20\nprogram = \"touch 0 16; sleep 1us\"\n";
    let on = run(text, &["pcid=on"]).summary();
    let off = run(text, &["pcid=off"]).summary();
    assert_eq!(on.tlb_misses, 32, "only the first touch of each mm misses");
    assert!(
        off.tlb_misses > 10 * on.tlb_misses,
        "{} vs {}",
        off.tlb_misses,
        on.tlb_misses
    );
}

#[test]
fn on_skylakes_xor7_stlb_the_512_page_ping_pong_keeps_every_translation_with_pcid() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../content/scenarios/x86-pcid-pingpong-512.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let cfg = tlbscope_sim::scenario::parse(&text, &[]).unwrap();
    assert_eq!(cfg.preset, "skylake-laptop-kvm");
    assert_eq!(cfg.tlb_index, TlbIndex::Xor7);
    // Pages both sides touch per round trip: the touches of the two repeating ping-pong tasks.
    let per_round_trip: u64 = cfg
        .tasks
        .iter()
        .filter(|t| t.repeat > 1)
        .flat_map(|t| &t.program)
        .map(|op| match op {
            Op::Touch { n, .. } => *n as u64,
            _ => 0,
        })
        .sum();
    let on = run(&text, &["pcid=on"]).summary();
    let off = run(&text, &["pcid=off"]).summary();
    let round_trips = on.op_latency_ns.count;
    assert!(round_trips > 0 && off.op_latency_ns.count == round_trips);
    assert_eq!(
        on.tlb_misses_measured, 0,
        "with PCID both processes' pages and the kernel's fit every set: no conflict misses"
    );
    assert_eq!(
        off.tlb_misses_measured,
        round_trips * per_round_trip,
        "without PCID every hop flushes, so every page misses on every turn"
    );
    // The warm-up before the measured window did miss: the window is what leaves it out.
    assert!(on.tlb_misses >= per_round_trip);
    // The hash index scatters the same pages and overfills some sets.
    let hash = run(&text, &["pcid=on", "tlb_index=hash"]).summary();
    assert!(hash.tlb_misses_measured > round_trips, "{hash:?}");
}

#[test]
fn a_larger_kernel_footprint_at_scattered_addresses_starts_evicting_user_pages_despite_pcid() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../content/scenarios/x86-pcid-pingpong-512.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let misses = |pages: u64, pcid: &str| {
        let set = format!("costs.kernel_pages={pages}");
        run(&text, &[set.as_str(), pcid])
            .summary()
            .tlb_misses_measured
    };
    // Kernel pages sit at unrelated addresses, so as their number grows more and more of the
    // xor7 sets (8 user entries each here) overflow, and each overflowing set thrashes.
    let on: Vec<u64> = [100, 200, 250, 300]
        .iter()
        .map(|&k| misses(k, "pcid=on"))
        .collect();
    assert_eq!(on[0], 0, "100 kernel pages still fit: {on:?}");
    assert!(on.windows(2).all(|w| w[0] < w[1]), "{on:?}");
    // Without PCID only one process's pages are live at a time, so the sets never overflow:
    // every user page misses once per turn, as before, and no kernel page does.
    assert_eq!(misses(300, "pcid=off"), misses(12, "pcid=off"));
}

#[test]
fn the_plus_one_rule_turns_an_out_of_order_partial_request_into_a_full_flush() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../content/scenarios/x86-r8-plus-one-rule.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let s = run(&text, &["plus_one_rule=on"]);
    let t = s.trace();
    let on_cpu7: Vec<(f64, u32)> = rows(t, EventKind::FlushTlbFunc)
        .filter(|&i| t.cpu[i] == 7)
        .map(|i| (t.arg[i], t.gen[i]))
        .collect();
    // Gen 3's (partial) request arrives first and flushes everything; gen 2's finds nothing.
    assert_eq!(on_cpu7, [(2.0, 3), (0.0, 2)]);
}

#[test]
fn a_cpu_that_left_the_mm_clears_itself_from_the_cpumask_on_a_trim_flush() {
    // CPU 1 ran mm 1, then mm 2: it lingers in mm 1's cpumask. The first flush of mm 1 after
    // a second trims (should_trim_cpumask), so CPU 1 gets an IPI and drops out.
    let text = "[machine]\ncpus = 2\n\
                [[tasks]]\nmm = 1\ncpu = 0\nstart_ns = 1000001000\nprogram = \"touch 0; madvise 0; madvise 0\"\n\
                [[tasks]]\nmm = 1\ncpu = 1\nprogram = \"touch 0\"\n\
                [[tasks]]\nmm = 2\ncpu = 1\nstart_ns = 5000\nprogram = \"touch 0; spin 2s\"\n";
    let s = run(text, &[]);
    let t = s.trace();
    assert_eq!(rows(t, EventKind::CpumaskCleared).count(), 1);
    assert_eq!(
        rows(t, EventKind::IpiSent).count(),
        1,
        "the second flush skips CPU 1"
    );
}
