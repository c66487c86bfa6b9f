//! Prints one summary line for a scenario and overrides, e.g. the skip-broadcast speedup:
//! `cargo run --release --example arm64_speedup -- content/scenarios/arm64-mprotect-skip-broadcast.toml broadcast_skip=on`
use tlbscope_sim::session::Session;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let text = std::fs::read_to_string(&a[0]).unwrap();
    let mut s = Session::new(&text, &a[1..], 1).unwrap_or_else(|e| panic!("{e}"));
    s.run();
    let m = s.summary();
    println!("op mean {:.0} p50 {:.0} | flush mean {:.0} | bc {} local {} skip {} | icq mean {:.0} | victim {} | roll {} | viol {:?} | rows {} t {}",
      m.op_latency_ns.mean, m.op_latency_ns.p50, m.flush_latency_ns.mean, m.broadcasts, m.local_flushes, m.skipped_flushes, m.interconnect_queue_ns.mean, m.victim_stall_ns, m.asid_rollovers, m.violated(), m.trace_rows, m.sim_time_ns);
}
