//! The fixed cost of an x86 flush call and the refills a full flush causes: the mechanics
//! (what is charged, to whom, how many INVLPGs and CR3 writes), not target numbers.

use tlbscope_sim::events::EventKind;
use tlbscope_sim::session::Session;

fn run(text: &str, overrides: &[&str]) -> Session {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let mut s = Session::new(text, &o, 7).unwrap_or_else(|e| panic!("{e}"));
    s.run();
    s
}

/// One op thread on CPU 0 looping touch + madvise, the other CPUs as busy threads of its mm.
fn madvise(cpus: u16, flushes: u32, extra: &[&str]) -> Session {
    let text = format!(
        "[machine]\ncpus = {cpus}\n[workload]\nthreads = 1\nflushes = {flushes}\npages = 1\n"
    );
    run(&text, extra)
}

fn flush_latencies(s: &Session) -> Vec<f64> {
    let t = s.trace();
    t.rows_of(EventKind::FlushRange).map(|i| t.dur[i]).collect()
}

#[test]
fn the_entry_work_is_paid_once_per_call_with_preemption_off() {
    let base = madvise(1, 3, &[]);
    let more = madvise(1, 3, &["costs.flush_call_ns=1040"]);
    let (a, b) = (flush_latencies(&base), flush_latencies(&more));
    assert_eq!(a.len(), 3);
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(y - x, 1000.0, "each call pays flush_call_ns once");
    }
    let poff = |s: &Session| s.summary().preempt_off_ns.mean;
    assert_eq!(
        poff(&more) - poff(&base),
        1000.0,
        "inside get_cpu()/put_cpu()"
    );
}

#[test]
fn should_flush_tlb_is_paid_for_every_other_cpu_in_the_mask() {
    let cost = |cpus: u16| {
        let s = madvise(cpus, 2, &["costs.should_flush_ns=0"]);
        let t = madvise(cpus, 2, &["costs.should_flush_ns=500"]);
        flush_latencies(&t)[1] - flush_latencies(&s)[1]
    };
    // busy threads fill the other CPUs: 1, 3 and 7 others in mm_cpumask.
    assert_eq!(cost(2), 500.0);
    assert_eq!(cost(4), 1500.0);
    assert_eq!(cost(8), 3500.0);
}

#[test]
fn the_tlb_gen_line_moves_between_the_incrementing_and_the_reading_cpu() {
    // Alone, the flusher keeps the line: no transfer. With a remote target, the target's
    // flush_tlb_func reads tlb_gen from the initiator's cache, and the next increment
    // fetches the line back.
    let alone = |x: &str| flush_latencies(&madvise(1, 2, &[x]))[1];
    assert_eq!(
        alone("costs.cacheline_transfer_ns=900"),
        alone("costs.cacheline_transfer_ns=0")
    );
    let shared = |x: &str| flush_latencies(&madvise(2, 2, &[x, "costs.ipi_send_ns=0"]))[1];
    let d = shared("costs.cacheline_transfer_ns=900") - shared("costs.cacheline_transfer_ns=0");
    // The initiator takes the tlb_gen line back at its increment (900) and the target's queue
    // head, which the target's last llist_del_all wrote, at its llist_add (900); the csd's
    // line it read back at its last wait, so csd_lock finds it here. The target takes the
    // queue head (900), reads the csd (900), the descriptor (900) and tlb_gen (900) before its
    // ack; the initiator's wait reads the acknowledged csd back (900).
    assert_eq!(d, 7.0 * 900.0);
}

#[test]
fn every_request_moves_its_protocol_lines_four_times() {
    // One initiator, k busy targets, f flushes. From the second flush on, each request moves
    // four lines: the target's queue head to the sender (llist_add) and back (llist_del_all),
    // the csd to the target (its read) and back (the sender's wait). On the first flush the
    // lines come from memory for the sender's writes, so it moves three per request.
    for (cpus, f) in [(2u16, 3u32), (4, 5), (8, 4)] {
        let s = madvise(cpus, f, &[]);
        let k = (cpus - 1) as u64;
        let want = k * (4 * f as u64 - 1);
        assert_eq!(
            s.summary().x86_ops.request_line_misses,
            want,
            "{k} targets, {f} flushes"
        );
    }
    // Each of them costs a transfer: on the initiator's path, the flush takes longer by at
    // least its own two per request (llist_add, and the wait's read).
    let lat = |x: &str| flush_latencies(&madvise(8, 3, &[x]))[2];
    let d = lat("costs.cacheline_transfer_ns=500") - lat("costs.cacheline_transfer_ns=0");
    assert!(d >= 7.0 * 2.0 * 500.0, "{d}");
}

#[test]
fn a_full_flush_is_one_cr3_write_whose_refills_the_next_op_pays() {
    let text =
        "[machine]\ncpus = 1\n[workload]\nthreads = 1\nflushes = 20\npages = 1\nhot_pages = 64\n";
    let ranged = run(text, &[]);
    let full = run(text, &["ceiling=0"]);
    let (r, f) = (ranged.summary(), full.summary());
    // The first switch to the mm is a flushing CR3 write of its new PCID; the rest are flushes.
    let flushes = |s: &tlbscope_sim::summary::Summary| s.x86_ops.cr3_flushes - s.switch_flushes;
    assert_eq!((r.x86_ops.invlpg, flushes(&r)), (20, 0));
    assert_eq!(r.full_flushes, 0);
    assert_eq!((f.x86_ops.invlpg, flushes(&f)), (0, 20));
    // After the warm-up op, a ranged flush leaves the 64 hot pages cached: each op walks only
    // its unmapped page; after a full flush it walks all 65.
    assert_eq!(r.tlb_misses, 64 + 20);
    assert_eq!(f.tlb_misses, 20 * 65);
    // So the full flush, cheaper to issue than an INVLPG, costs the op more.
    assert!(f.op_latency_ns.mean > r.op_latency_ns.mean);
    let misses = |s: &Session| {
        let t = s.trace();
        t.rows_of(EventKind::TlbMissed)
            .map(|i| t.arg[i])
            .sum::<f64>()
    };
    assert_eq!(
        misses(&full),
        1300.0,
        "charged as TLB misses of the touches"
    );
}

#[test]
fn a_line_that_crosses_the_socket_link_costs_socket_transfer_ns() {
    // Two CPUs on two sockets: every one of the seven transfers of a two-CPU flush (the
    // tlb_gen line both ways, the queue head both ways, the csd both ways, the descriptor)
    // crosses the link.
    let lat = |x: &str| {
        let set = [
            "sockets=2",
            "costs.ipi_send_ns=0",
            "costs.cacheline_transfer_ns=0",
            x,
        ];
        flush_latencies(&madvise(2, 2, &set))[1]
    };
    let d = lat("costs.socket_transfer_ns=900") - lat("costs.socket_transfer_ns=0");
    assert_eq!(d, 7.0 * 900.0);
    // On one socket the link is never used.
    let one = |x: &str| flush_latencies(&madvise(2, 2, &["sockets=1", x]))[1];
    assert_eq!(
        one("costs.socket_transfer_ns=900"),
        one("costs.socket_transfer_ns=0")
    );
}

#[test]
fn sockets_change_nothing_when_the_link_costs_what_a_socket_does() {
    // CPUs 0-3 on the first socket, 4-7 on the second: with the two costs equal, where a line
    // comes from does not matter, and the run is the one-socket run.
    let run = |sockets: &str, far: &str| {
        let s = madvise(8, 4, &[sockets, "costs.cacheline_transfer_ns=80", far]);
        (flush_latencies(&s), s.summary().op_latency_ns.mean)
    };
    assert_eq!(
        run("sockets=2", "costs.socket_transfer_ns=80"),
        run("sockets=1", "costs.socket_transfer_ns=500")
    );
    // And a dearer link makes the flushes to the second socket's CPUs slower.
    let (near, _) = run("sockets=1", "costs.socket_transfer_ns=500");
    let (far, _) = run("sockets=2", "costs.socket_transfer_ns=500");
    assert!(far[3] > near[3], "{far:?} vs {near:?}");
}

#[test]
fn sockets_are_held_to_the_cpus() {
    let text = "[machine]\npreset = \"icelake-8336c-128\"\ncpus = 1\n[workload]\nthreads = 1\nflushes = 1\n";
    let s = run(text, &[]);
    assert_eq!(
        s.config().sockets,
        1,
        "a one-CPU run of a two-socket preset"
    );
    let o = vec!["sockets=3".to_string()];
    let e = Session::new("[machine]\ncpus = 2\n", &o, 1)
        .err()
        .expect("3 sockets on 2 CPUs");
    assert!(e.to_string().contains("machine.sockets"), "{e}");
}
