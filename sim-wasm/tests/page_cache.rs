//! What backs the will-it-scale loop's pages (`workload.mapping`, `src/page_cache.rs`):
//! `tlb_flush1`'s private file mapping does work `tlb_flush2`'s anonymous memory does not (a
//! page-cache lookup on the read-back, a copy instead of a zero-fill on the write), and the two
//! runs differ by exactly those named costs.

use tlbscope_sim::config::Mapping;
use tlbscope_sim::scenario;
use tlbscope_sim::session::Session;
use tlbscope_sim::summary::Summary;

const FILE: &str = include_str!("../../content/scenarios/x86-wis-tlb-flush1.toml");
const ANON: &str = include_str!("../../content/scenarios/x86-wis-tlb-flush2.toml");
const FORK: &str = include_str!("../../content/scenarios/arm64-fork-cow.toml");

fn session(text: &str, overrides: &[&str]) -> Session {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let mut s = Session::new(text, &o, 5).unwrap_or_else(|e| panic!("{e}"));
    s.run();
    s
}

fn summary(text: &str, overrides: &[&str]) -> Summary {
    session(text, overrides).summary()
}

/// One thread alone (no IPIs, no lock waits): an iteration is its faults, copies and flushes.
const ALONE: &[&str] = &["threads=1", "flushes=200", "locks=off"];

fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    ALONE.iter().copied().chain(extra.iter().copied()).collect()
}

#[test]
fn the_two_scenarios_differ_only_in_their_mapping() {
    let mapping = |text: &str| scenario::parse(text, &[]).unwrap().workload.mapping;
    assert_eq!(mapping(FILE), Mapping::File);
    assert_eq!(mapping(ANON), Mapping::Anon);
    // The anonymous loop with mapping=file runs as the file scenario does.
    let a = session(ANON, &with(&["mapping=file"])).summary();
    let f = session(FILE, &with(&[])).summary();
    assert_eq!(a.op_latency_ns, f.op_latency_ns);
}

#[test]
fn a_file_iteration_costs_a_copy_and_a_page_cache_lookup_where_anon_zero_fills() {
    for (copy, clear, lookup) in [(700u64, 350u64, 150u64), (1_000, 100, 37), (400, 900, 0)] {
        let costs = [
            format!("costs.copy_page_ns={copy}"),
            format!("costs.clear_page_ns={clear}"),
            format!("costs.page_cache_fault_ns={lookup}"),
        ];
        let costs: Vec<&str> = costs.iter().map(String::as_str).collect();
        let f = summary(FILE, &with(&costs));
        let a = summary(ANON, &with(&costs));
        // The same faults in both: the read-back maps a page (the file's or the zero page),
        // the write replaces it. Only what each fault does differs.
        assert_eq!(f.page_faults, a.page_faults);
        assert_eq!(f.op_latency_ns.count, a.op_latency_ns.count);
        let reads_per_op = 1.0; // one page per thread, read back once per iteration
        let extra = (copy as f64 - clear as f64) + lookup as f64 * reads_per_op;
        let got = f.op_latency_ns.mean - a.op_latency_ns.mean;
        // The first iteration's write finds nothing mapped yet, as in the kernel, and the
        // last iteration's read-back happens after the final op is timed: both runs' ops are
        // the same iterations, so the difference per op is exact.
        assert!(
            (got - extra).abs() < 1e-6,
            "copy {copy} clear {clear} lookup {lookup}: file − anon = {got}, expected {extra}"
        );
    }
}

#[test]
fn with_equal_page_costs_the_file_and_anon_traces_are_the_same() {
    let even = [
        "costs.clear_page_ns=700",
        "costs.copy_page_ns=700",
        "costs.page_cache_fault_ns=0",
    ];
    let mut f = session(FILE, &with(&even));
    let mut a = session(ANON, &with(&even));
    assert_eq!(f.run().hash(), a.run().hash());
    // …and the default costs make the file loop the slower one.
    let f = summary(FILE, ALONE);
    let a = summary(ANON, ALONE);
    assert!(f.op_latency_ns.mean > a.op_latency_ns.mean);
}

#[test]
fn threads_sharing_the_mm_pay_the_difference_too() {
    // With shootdowns between threads the difference is no longer exact (a slower iteration
    // shifts when the other threads' IPIs arrive), but the file loop stays the slower one.
    let f = summary(FILE, &["threads=4", "flushes=100"]);
    let a = summary(ANON, &["threads=4", "flushes=100"]);
    assert_eq!(f.ipis > 0, a.ipis > 0);
    assert!(f.op_latency_ns.mean > a.op_latency_ns.mean);
}

#[test]
fn fork_copy_on_write_copies_whatever_the_page_cache_costs() {
    let base = summary(FORK, &["flushes=20"]);
    let other = summary(
        FORK,
        &[
            "flushes=20",
            "costs.clear_page_ns=1",
            "costs.page_cache_fault_ns=99999",
        ],
    );
    assert_eq!(base.op_latency_ns, other.op_latency_ns);
    let dearer = summary(FORK, &["flushes=20", "costs.copy_page_ns=5000"]);
    assert!(dearer.op_latency_ns.mean > base.op_latency_ns.mean);
}

#[test]
fn a_file_mapping_without_the_read_back_loop_is_refused() {
    let text = "arch = \"x86\"\n[workload]\nmapping = \"file\"\n";
    let err = Session::new(text, &[], 1)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("workload.mapping"), "{err}");
    assert!(err.contains("reread"), "{err}");
    let err = Session::new(ANON, &["mapping=cache".to_string()], 1)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("anon") && err.contains("file"), "{err}");
}
