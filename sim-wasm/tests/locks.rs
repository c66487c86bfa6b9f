//! The shared-lock model (`design.locks`, `src/locks.rs`) and the will-it-scale `tlb_flush`
//! workloads it was built for: who takes which lock, that waits grow with the contenders, and
//! that shootdowns reach every other CPU running the address space.

use tlbscope_sim::events::EventKind;
use tlbscope_sim::session::Session;
use tlbscope_sim::summary::Summary;

const WIS: &str = include_str!("../../content/scenarios/x86-wis-tlb-flush2.toml");

fn run(overrides: &[&str]) -> Session {
    let mut o = vec!["flushes=150".to_string()];
    o.extend(overrides.iter().map(|s| s.to_string()));
    let mut s = Session::new(WIS, &o, 3).unwrap_or_else(|e| panic!("{e}"));
    s.run();
    s
}

fn summary(overrides: &[&str]) -> Summary {
    run(overrides).summary()
}

/// Remote `flush_tlb_func` calls (run in an IPI handler) per flush.
fn remote_flushes_per_flush(s: &Session) -> f64 {
    let t = s.trace();
    let remote = t
        .rows_of(EventKind::FlushTlbFunc)
        .filter(|&r| {
            let p = t.parent[r];
            p >= 0 && t.kind[p as usize] == EventKind::IpiHandler as u8
        })
        .count();
    remote as f64 / t.rows_of(EventKind::FlushRange).count() as f64
}

#[test]
fn every_flush_reaches_the_other_cpus_running_the_mm_and_none_in_processes_mode() {
    let mut last = -1.0;
    for threads in [1u32, 2, 4, 8] {
        let s = run(&[&format!("threads={threads}"), "locks=off"]);
        let per = remote_flushes_per_flush(&s);
        // Each of the other threads' CPUs flushes; only the last flushes, after some threads
        // have finished and gone idle, may skip a CPU.
        let others = (threads - 1) as f64;
        assert!(
            per <= others && per >= 0.95 * others,
            "{threads} threads: {per}"
        );
        assert!(per > last);
        last = per;
        // Two flushes per iteration: the copy-on-write fault's and the madvise's.
        assert_eq!(s.summary().flush_latency_ns.count, 2 * 150 * threads as u64);
    }
    let p = run(&["threads=8", "locks=off", "processes=on"]);
    assert_eq!(remote_flushes_per_flush(&p), 0.0);
    assert_eq!(p.summary().ipis, 0);
}

#[test]
fn the_mmap_lock_wait_grows_with_the_threads_that_share_it() {
    let wait = |threads: u32| {
        let s = summary(&[&format!("threads={threads}"), "locks=mmap_lock"]);
        s.mmap_lock_wait_ns.mean * s.mmap_lock_wait_ns.count as f64
    };
    let w: Vec<f64> = [1, 4, 16].iter().map(|&n| wait(n)).collect();
    assert_eq!(w[0], 0.0);
    assert!(w[1] > 0.0 && w[2] > w[1], "{w:?}");
    // Separate processes have separate mmap_locks: nobody waits for one.
    let p = summary(&["threads=16", "locks=mmap_lock", "processes=on"]);
    assert_eq!(p.mmap_lock_wait_ns.max, 0.0);
    assert!(p.mmap_lock_wait_ns.count > 0);
    // ... but the zone and LRU locks are the whole machine's.
    assert!(p.zone_lock_wait_ns.max > 0.0 || p.lru_lock_wait_ns.max > 0.0);
}

#[test]
fn per_vma_locks_take_mmap_lock_out_of_faults_and_madvise() {
    let s = summary(&["threads=8", "locks=per_vma"]);
    assert_eq!(s.mmap_lock_wait_ns.count, 0);
    // One VMA lock per thread's region: taken by every fault and madvise, never waited for.
    assert!(s.vma_lock_wait_ns.count > 0);
    assert_eq!(s.vma_lock_wait_ns.max, 0.0);
    let m = summary(&["threads=8", "locks=mmap_lock"]);
    assert_eq!(m.vma_lock_wait_ns.count, 0);
    assert_eq!(m.mmap_lock_wait_ns.count, s.vma_lock_wait_ns.count);
    assert!(m.op_latency_ns.mean > s.op_latency_ns.mean);
}

#[test]
fn batch_locks_are_taken_once_per_batch_of_pages() {
    // One thread, 150 iterations: one page allocated (the copy-on-write fault) and one freed
    // (the madvise) per iteration.
    let s = summary(&[
        "threads=1",
        "locks=per_vma",
        "costs.pcp_batch=10",
        "costs.lru_batch=30",
    ]);
    // Zone: 150 allocations / 10 + 150 frees / 10; LRU: 300 folios / 30.
    assert_eq!(s.zone_lock_wait_ns.count, 30);
    assert_eq!(s.lru_lock_wait_ns.count, 10);
    // One thread never waits for itself.
    assert_eq!(s.zone_lock_wait_ns.max, 0.0);
    assert_eq!(s.lru_lock_wait_ns.max, 0.0);
}

#[test]
fn locks_off_takes_nothing_and_one_thread_pays_only_its_batches() {
    let off = summary(&["threads=1", "locks=off"]);
    assert_eq!(off.mmap_lock_wait_ns.count + off.zone_lock_wait_ns.count, 0);
    let mmap = summary(&["threads=1", "locks=mmap_lock"]);
    let free_batches = summary(&[
        "threads=1",
        "locks=mmap_lock",
        "costs.zone_lock_page_ns=0",
        "costs.lru_lock_page_ns=0",
    ]);
    // Its own mmap_lock line never moves, so without batch work it runs exactly as with off.
    assert_eq!(free_batches.op_latency_ns, off.op_latency_ns);
    assert!(mmap.op_latency_ns.mean > off.op_latency_ns.mean);
}

#[test]
fn the_lock_model_is_deterministic() {
    let a = summary(&["threads=8", "locks=mmap_lock"]);
    let b = summary(&["threads=8", "locks=mmap_lock"]);
    assert_eq!(a, b);
}
