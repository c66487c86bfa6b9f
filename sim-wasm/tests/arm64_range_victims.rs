//! arm64 without and with FEAT_TLBIRANGE (TLBI ops per range, the ASID fallback) and the
//! victims of broadcast TLBI (DVM messages every other core performs, the victim-compute
//! workload), each on a small hand-built machine.

use tlbscope_sim::events::EventKind;
use tlbscope_sim::session::Session;
use tlbscope_sim::summary::Summary;

fn run(text: &str, overrides: &[&str]) -> Session {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let mut s = Session::new(text, &o, 7).unwrap_or_else(|e| panic!("{e}"));
    s.run();
    s
}

/// One CPU flushing `pages` pages once, then touching page 1000 (outside the range).
fn one_range(pages: u32) -> String {
    format!(
        "arch = \"arm64\"\n[machine]\ncpus = 1\n[workload]\nmm_pages = 1024\n\
         [[tasks]]\nmm = 1\nprogram = \"touch 0 {pages}; touch 1000; madvise 0 {pages}; touch 1000\"\n"
    )
}

/// The TLBI ops of each broadcast (`TlbiBroadcast.arg`) of a run.
fn broadcast_ops(s: &Session) -> Vec<f64> {
    let t = s.trace();
    t.rows_of(EventKind::TlbiBroadcast)
        .map(|i| t.arg[i])
        .collect()
}

fn misses(s: &Session) -> usize {
    s.trace().rows_of(EventKind::TlbMissed).count()
}

#[test]
fn without_range_tlbi_a_range_is_one_op_per_page_up_to_max_dvm_ops() {
    for (pages, ops) in [
        (1u32, 1.0),
        (2, 2.0),
        (64, 64.0),
        (511, 511.0),
        (512, 1.0),
        (900, 1.0),
    ] {
        let s = run(&one_range(pages), &["tlbi_range=off"]);
        assert_eq!(broadcast_ops(&s), [ops], "{pages} pages");
        assert_eq!(s.summary().dvm_messages, ops as u64, "{pages} pages");
    }
}

#[test]
fn max_dvm_ops_moves_the_fallback_threshold() {
    for (pages, ops) in [(7u32, 7.0), (8, 1.0), (9, 1.0)] {
        let s = run(&one_range(pages), &["tlbi_range=off", "max_dvm_ops=8"]);
        assert_eq!(broadcast_ops(&s), [ops], "{pages} pages");
    }
}

#[test]
fn with_range_tlbi_a_range_takes_a_few_range_ops_and_never_falls_back() {
    // 511 = 448 + 62 + 1; 512 = one SCALE 1 block; 900 = 896 (SCALE 1) + 4 (SCALE 0).
    for (pages, ops) in [
        (1u32, 1.0),
        (2, 1.0),
        (3, 2.0),
        (64, 1.0),
        (511, 3.0),
        (512, 1.0),
        (900, 2.0),
    ] {
        let s = run(&one_range(pages), &["tlbi_range=on"]);
        assert_eq!(broadcast_ops(&s), [ops], "{pages} pages");
    }
    // max_dvm_ops only bounds the per-page loop of CPUs without range ops.
    let s = run(&one_range(900), &["tlbi_range=on", "max_dvm_ops=8"]);
    assert_eq!(broadcast_ops(&s), [2.0]);
}

#[test]
fn the_asid_fallback_also_drops_translations_outside_the_range() {
    // 512 pages without range TLBI flush the whole ASID: page 1000's entry goes too, and the
    // last touch misses. With range ops only the 512 pages go.
    let off = run(&one_range(512), &["tlbi_range=off"]);
    let on = run(&one_range(512), &["tlbi_range=on"]);
    assert_eq!(misses(&off), misses(&on) + 1);
    // Below the threshold neither drops it.
    let off = run(&one_range(511), &["tlbi_range=off"]);
    let on = run(&one_range(511), &["tlbi_range=on"]);
    assert_eq!(misses(&off), misses(&on));
}

#[test]
fn a_per_page_sequence_costs_dvm_op_ns_per_page_before_its_dsb_completes() {
    let lat = |pages: u32, dvm: u64| {
        let text = one_range(pages);
        let set = format!("costs.dvm_op_ns={dvm}");
        run(&text, &["tlbi_range=off", &set])
            .summary()
            .flush_latency_ns
            .mean
    };
    // One more page, one more op on the interconnect; a dearer op, dearer by that per page.
    assert_eq!(lat(101, 140) - lat(100, 140), 140.0);
    assert_eq!(lat(100, 300) - lat(100, 140), 100.0 * 160.0);
}

/// One process looping mprotect on CPU 0, `victims` compute processes on CPUs 1.., nothing else.
const VICTIMS: &str = "arch = \"arm64\"\n[machine]\ncpus = 4\n[workload]\nthreads = 1\n\
    processes = true\nop = \"mprotect\"\nbusy_threads = 0\nvictims = 2\nvictim_work_ns = 2000\n\
    flushes = 200\n";

fn victims(overrides: &[&str]) -> (Session, Summary) {
    let s = run(VICTIMS, overrides);
    let m = s.summary();
    (s, m)
}

#[test]
fn every_broadcast_op_is_a_dvm_message_each_running_victim_pays_for() {
    for (pages, range, per_flush) in [(1u32, "off", 1u64), (16, "off", 16), (16, "on", 1)] {
        let p = format!("pages={pages}");
        let r = format!("tlbi_range={r}", r = range);
        let (s, m) = victims(&[&p, &r]);
        assert_eq!(m.broadcasts, 200);
        assert_eq!(
            m.dvm_messages,
            200 * per_flush,
            "{pages} pages, range {range}"
        );
        // Both victims (CPUs 1 and 2) run throughout: each performs every message, losing
        // victim_ns (15 ns on generic-arm64) for each.
        let t = s.trace();
        for cpu in [1u16, 2] {
            let stalls: Vec<usize> = t
                .rows_of(EventKind::VictimStall)
                .filter(|&i| t.cpu[i] == cpu)
                .collect();
            assert_eq!(stalls.len(), 200, "CPU {cpu}");
            let lost: f64 = stalls.iter().map(|&i| t.dur[i]).sum();
            assert_eq!(lost, (200 * per_flush * 15) as f64, "CPU {cpu}");
        }
        // Nobody runs on CPU 3: an idle core performs the messages but loses no work.
        assert!(t.rows_of(EventKind::VictimStall).all(|i| t.cpu[i] != 3));
        assert_eq!(m.victim_stall_ns, 2 * 200 * per_flush * 15);
    }
}

#[test]
fn broadcast_skip_spares_the_victims_of_an_unrelated_process() {
    let (_, mainline) = victims(&["pages=16"]);
    let (_, skip) = victims(&["pages=16", "broadcast_skip=on"]);
    assert_eq!(skip.broadcasts, 0);
    assert_eq!(skip.dvm_messages, 0);
    assert_eq!(skip.victim_stall_ns, 0);
    // Undisturbed chunks take exactly their work; stalled ones take longer.
    assert_eq!(skip.victim_op_ns.max, 2000.0);
    assert_eq!(skip.victim_throughput, Some(1.0));
    let slowed = mainline.victim_throughput.unwrap_or(1.0);
    assert!(slowed < 1.0, "{slowed}");
    assert!(mainline.victim_op_ns.max > 2000.0);
}

#[test]
fn the_victims_loss_grows_with_victim_ns_and_vanishes_without_it() {
    let thr = |v: &str| victims(&["pages=16", v]).1.victim_throughput.unwrap_or(0.0);
    assert_eq!(thr("costs.victim_ns=0"), 1.0);
    assert!(thr("costs.victim_ns=30") < thr("costs.victim_ns=15"));
}

#[test]
fn on_x86_another_process_flushes_without_touching_the_victims() {
    let (_, m) = victims(&["arch=x86", "pages=16"]);
    assert_eq!(m.ipis, 0);
    assert_eq!(m.victim_throughput, Some(1.0));
}

#[test]
fn victims_take_cpus_after_the_busy_threads_and_are_bounded_by_what_is_left() {
    let s = run(VICTIMS, &["busy_threads=1"]);
    let t = s.trace();
    // op0 + main0 on CPU 0, busy0 on CPU 1, victims on CPUs 2 and 3.
    assert!(t.rows_of(EventKind::VictimStall).any(|i| t.cpu[i] == 3));
    assert!(t.rows_of(EventKind::VictimStall).all(|i| t.cpu[i] >= 1));
    let err = Session::new(VICTIMS, &["victims=4".to_string()], 1)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("workload.victims"), "{err}");
}

#[test]
fn the_arm64_server_presets_scale_the_generic_core_by_their_clock() {
    use tlbscope_sim::config::Arch;
    use tlbscope_sim::presets::by_id;
    let preset = |id: &str| by_id(id).unwrap_or_else(|| panic!("{id}"));
    let generic = preset("generic-arm64").costs;
    // Altra runs at the generic core's 3 GHz: the same times.
    let altra = preset("altra-n1-80");
    assert_eq!(
        (altra.arch, altra.cpus, altra.tlb_entries, altra.tlb_ways),
        (Arch::Arm64, 80, 1280, 5)
    );
    assert_eq!(altra.costs, generic);
    // ThunderX2 at 2.2 GHz: work on the core takes 30/22 as long; its DVM path, twice that.
    let tx2 = preset("thunderx2-2s");
    assert_eq!((tx2.arch, tx2.cpus), (Arch::Arm64, 256));
    let slower = |ns: u64| (ns * 30).div_ceil(22);
    assert_eq!(tx2.costs.syscall_ns, slower(generic.syscall_ns));
    assert_eq!(tx2.costs.arm64.victim_ns, slower(generic.arm64.victim_ns));
    assert_eq!(
        tx2.costs.arm64.dvm_op_ns,
        2 * slower(generic.arm64.dvm_op_ns)
    );
    // What is not work on the core keeps the generic value (unused IPI costs on arm64).
    assert_eq!(tx2.costs.ipi_delivery_ns, generic.ipi_delivery_ns);
    assert_eq!(
        tx2.costs.cacheline_transfer_ns,
        generic.cacheline_transfer_ns
    );
    // Neither has range TLBI: the setting's default follows the preset.
    for id in ["altra-n1-80", "thunderx2-2s"] {
        let text = format!("arch = \"arm64\"\n[machine]\npreset = \"{id}\"\ncpus = 2\n");
        let s = Session::new(&text, &[], 1).unwrap_or_else(|e| panic!("{e}"));
        assert!(!s.config().design.tlbi_range, "{id}");
    }
}
