//! The traces of every shipped scenario (at its `expect.test_set`, as written and with each
//! `[[expect.cases]]` setting) hash to the digests recorded in `fixtures/trace_digests.txt`.
//! Changes to the event queue, the trace storage or the event loop must keep them: a digest
//! that moves means the simulator computes something else. A change of the kernel model that
//! is meant to change traces rewrites the file with `UPDATE_DIGESTS=1 cargo test --test
//! trace_digests` (and says so in its commit). A run with no digest, or a digest whose run is
//! gone, fails too: a scenario added without its digest would otherwise never be checked, and
//! the same command records it.

use std::collections::BTreeMap;
use std::path::PathBuf;

mod common;

use tlbscope_sim::scenario;
use tlbscope_sim::session::Session;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trace_digests.txt")
}

/// `"<file> [<settings>]"` → `"<hash> <events> <rows>"` for every run.
fn digests() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for file in common::scenario_files() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        let cfg = scenario::parse(&text, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (set, _) in cfg.expect.runs() {
            let mut s = Session::new(&text, &set, 1).unwrap_or_else(|e| panic!("{name}: {e}"));
            let hash = s.run().hash();
            let value = format!("{hash:016x} {} {}", s.events(), s.trace().len());
            out.insert(format!("{name} [{}]", set.join(" ")), value);
        }
    }
    out
}

#[test]
fn every_scenario_trace_hashes_to_its_recorded_digest() {
    let got = digests();
    let path = fixture();
    if std::env::var_os("UPDATE_DIGESTS").is_some() {
        let text: String = got.iter().map(|(k, v)| format!("{k} = {v}\n")).collect();
        std::fs::write(&path, text).expect("write trace_digests.txt");
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    let want: BTreeMap<&str, &str> = recorded
        .lines()
        .filter_map(|l| l.split_once(" = "))
        .collect();
    assert!(!want.is_empty(), "{} has no digests", path.display());
    let mut moved = Vec::new();
    let mut unrecorded = Vec::new();
    for (run, digest) in &got {
        match want.get(run.as_str()) {
            Some(w) if w == digest => {}
            Some(w) => moved.push(format!("{run}: recorded {w}, now {digest}")),
            None => unrecorded.push(format!("{run} = {digest}")),
        }
    }
    let gone: Vec<&str> = want
        .keys()
        .filter(|run| !got.contains_key(**run))
        .copied()
        .collect();
    assert!(
        moved.is_empty(),
        "traces changed (UPDATE_DIGESTS=1 only if the model change is meant):\n{}",
        moved.join("\n")
    );
    assert!(
        unrecorded.is_empty() && gone.is_empty(),
        "trace_digests.txt is not the scenarios' runs (record new ones with UPDATE_DIGESTS=1 \
         cargo test --test trace_digests, once their traces are what they should be):\n\
         no digest: {unrecorded:?}\nno such run: {gone:?}"
    );
}

/// The throughput benchmark's 1 M-event run (`npm run bench`'s first length): fifteen chunks
/// of the trace store, so every change of how rows are kept is checked across chunk
/// boundaries on the very run the speed figures are taken from. The digest covers every
/// column of every row (`Trace::hash_rows`); it was recorded before the rows shrank from 32
/// to 16 bytes, and both the store's chunked hash and the fully decoded trace must match it.
/// The event count went from 1,038,654 to 1,038,662 when R7's split `switch_mm` made each of
/// the run's eight CR3 writes an event of its own; the rows and their digest did not move.
/// It went to 1,038,551 (990,229 rows) when a remote `flush_tlb_func`'s read of `tlb_gen`
/// began to pay for the line it pulls from the incrementing CPU: the timing moved. And to
/// 1,041,267 (990,231 rows) when the cross-call protocol's csd and queue-head lines began to
/// cost a transfer each time they change hands.
#[test]
fn the_bench_run_of_a_million_events_keeps_its_digest() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../content/scenarios/x86-bench-128cpu.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut s = Session::new(&text, &["workload.flushes=9900".into()], 1).unwrap();
    let store_hash = s.run().hash();
    let decoded = s.trace();
    let got = format!(
        "{store_hash:016x} {:016x} {} {}",
        decoded.hash(),
        s.events(),
        decoded.len()
    );
    assert_eq!(got, "7ac432a955e52cb3 7ac432a955e52cb3 1042969 990231");
}
