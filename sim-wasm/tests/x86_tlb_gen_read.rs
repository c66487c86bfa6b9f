//! `tlb_gen_read`: when a remote `flush_tlb_func()` reads the mm's shared `tlb_gen` line
//! (aa44284960d5, "x86/mm/tlb: Avoid reading mm_tlb_gen when possible", Nadav Amit, 2022), and
//! what a read costs: the line comes from the CPU that incremented it.

use tlbscope_sim::session::Session;

fn run(text: &str, overrides: &[&str]) -> Session {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let mut s = Session::new(text, &o, 7).unwrap_or_else(|e| panic!("{e}"));
    s.run();
    s
}

/// `threads` op threads of one mm, each flushing one page of its own range back to back, so
/// that requests pile up in the targets' call queues and ride one IPI.
fn threads(n: u16, extra: &[&str]) -> Session {
    let text = format!(
        "[machine]\npreset = \"generic-x86\"\ncpus = {n}\n[workload]\nthreads = {n}\nflushes = 60\npages = 1\n"
    );
    run(&text, extra)
}

#[test]
fn one_target_reads_the_line_once_per_request_either_way() {
    // One initiator, one busy target: each request finds the target behind, so the read is
    // needed with or without the skip; the initiator's own call reads it too (a hit: its
    // increment left the line there).
    let text =
        "[machine]\ncpus = 2\n[workload]\nthreads = 1\nbusy_threads = 1\nflushes = 30\npages = 1\n";
    let reads = |mode: &str| {
        let s = run(text, &[&format!("tlb_gen_read={mode}")]);
        s.summary().x86_ops.tlb_gen_reads
    };
    assert_eq!(reads("always"), 60);
    assert_eq!(reads("when_needed"), 60);
}

#[test]
fn the_skip_saves_the_reads_of_requests_an_earlier_one_covered() {
    let before_run = threads(16, &["tlb_gen_read=always"]);
    let before = before_run.summary();
    let after = threads(16, &["tlb_gen_read=when_needed"]).summary();
    // Before the patch every call that finds the mm loaded reads the line: up to 16 threads
    // x 60 flushes x 16 calls each (the local one and 15 remote). Fewer calls are made once
    // the first threads have finished and their CPUs, lazy, are no longer sent requests, and
    // a request that reaches a CPU just after its thread finished finds nothing to flush.
    let calls = before_run
        .trace()
        .rows_of(tlbscope_sim::events::EventKind::FlushTlbFunc)
        .count() as u64;
    let reads = before.x86_ops.tlb_gen_reads;
    assert!(
        calls <= 16 * 60 * 16 && calls > 16 * 60 * 15,
        "{calls} calls"
    );
    assert!(
        reads <= calls && reads > calls * 99 / 100,
        "{reads} reads of {calls} calls"
    );
    // After it, a target that caught up (its own flushes read the newest generation) returns
    // without the read for every request that generation covers.
    assert!(
        after.x86_ops.tlb_gen_reads < before.x86_ops.tlb_gen_reads / 4,
        "{} reads after vs {} before",
        after.x86_ops.tlb_gen_reads,
        before.x86_ops.tlb_gen_reads
    );
    assert!(
        after.op_latency_ns.mean < before.op_latency_ns.mean,
        "{} vs {}",
        after.op_latency_ns.mean,
        before.op_latency_ns.mean
    );
}

#[test]
fn a_miss_costs_one_line_transfer() {
    let cost = |ns: u32, mode: &str| {
        threads(
            8,
            &[
                &format!("costs.cacheline_transfer_ns={ns}"),
                &format!("tlb_gen_read={mode}"),
            ],
        )
        .summary()
        .op_latency_ns
        .mean
    };
    // With free transfers the reads the skip saves cost nothing but the catch-up flushes.
    let free = cost(0, "always") - cost(0, "when_needed");
    let dear = cost(400, "always") - cost(400, "when_needed");
    assert!(dear > free, "{dear} vs {free}");
}

#[test]
fn kernels_before_5_18_read_always() {
    let cfg = |k: &str| {
        tlbscope_sim::scenario::parse("[workload]\nthreads = 1\n", &[format!("kernel={k}")])
            .unwrap()
            .design
            .tlb_gen_read
    };
    use tlbscope_sim::config::TlbGenRead::{Always, WhenNeeded};
    let history: Vec<_> = ["4.13", "5.3", "5.18", "6.15", "7.3"].map(cfg).into();
    assert_eq!(
        history,
        [Always, Always, WhenNeeded, WhenNeeded, WhenNeeded]
    );
}

#[test]
fn before_5_18_every_call_reads_the_line_first_a_lazy_one_too() {
    // The lazy-TLB story: a munmap that frees a page table calls CPU 1 while it idles lazily
    // on the mm, and flush_tlb_func() moves it to init_mm. Before aa44284960d5 the call had
    // read the loaded mm's tlb_gen first of all; since, a lazy CPU never reads it.
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../content/scenarios/x86-lazy-tlb.toml"),
    )
    .unwrap();
    let lazy_calls = |s: &Session| {
        s.trace()
            .rows_of(tlbscope_sim::events::EventKind::FlushTlbFunc)
            .filter(|&r| s.trace().arg[r] == 4.0)
            .count() as u64
    };
    let always = run(&text, &["tlb_gen_read=always"]);
    let needed = run(&text, &["tlb_gen_read=when_needed"]);
    assert!(lazy_calls(&always) >= 1);
    assert_eq!(lazy_calls(&always), lazy_calls(&needed));
    let reads = |s: &Session| s.summary().x86_ops.tlb_gen_reads;
    assert_eq!(reads(&always) - reads(&needed), lazy_calls(&always));
}
