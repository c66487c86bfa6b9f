//! The inspector's state snapshot: the machine as it was at an instant of the run.

use tlbscope_sim::events::EventKind;
use tlbscope_sim::session::Session;

fn scenario(id: &str) -> String {
    let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../content/scenarios/{id}.toml"));
    std::fs::read_to_string(p).unwrap()
}

fn json(s: &Session, t: u64) -> serde_json::Value {
    serde_json::from_str(&s.snapshot_json(t)).unwrap()
}

#[test]
fn the_snapshot_at_a_violation_shows_the_stale_translation_on_that_cpu() {
    let mut s = Session::new(&scenario("x86-r1-percpu-descriptor-race"), &[], 1).unwrap();
    s.run();
    let t = s.trace();
    let v = t
        .rows_of(EventKind::InvariantViolated)
        .next()
        .expect("R1 scenario violates");
    let (time, cpu) = (t.time[v] as u64, t.cpu[v] as usize);
    let snap = json(&s, time);
    assert_eq!(snap["time_ns"].as_u64(), Some(time));
    let c = &snap["cpus"][cpu];
    assert!(c["stale_entries"].as_u64().unwrap() > 0, "{c}");
    assert!(c["entries"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["stale"] == true));
}

#[test]
fn with_the_stack_descriptor_no_cpu_holds_a_stale_translation_at_the_end() {
    let mut s = Session::new(
        &scenario("x86-r1-percpu-descriptor-race"),
        &["flush_info=stack".into()],
        1,
    )
    .unwrap();
    s.run();
    let snap = json(&s, s.now());
    for c in snap["cpus"].as_array().unwrap() {
        assert_eq!(c["stale_entries"], 0, "{c}");
    }
}

#[test]
fn the_snapshot_reports_each_mms_latest_tlb_gen_and_the_slots_that_track_it() {
    let mut s = Session::new(&scenario("x86-munmap-shootdown"), &[], 1).unwrap();
    s.run();
    let t = s.trace();
    let last = t.rows_of(EventKind::TlbGenIncremented).last().unwrap();
    let snap = json(&s, s.now());
    let mm = snap["mms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["mm"] == t.mm[last])
        .unwrap()
        .clone();
    assert_eq!(mm["tlb_gen"].as_u64(), Some(t.gen[last] as u64));
    // After the shootdown returns every CPU running the mm has caught its slot up.
    for c in snap["cpus"].as_array().unwrap() {
        if c["loaded_mm"] == mm["mm"] {
            let slot = &c["slots"][c["loaded_asid"].as_u64().unwrap() as usize];
            assert_eq!(slot["tlb_gen"], mm["tlb_gen"], "{c}");
        }
    }
}

#[test]
fn before_the_flush_the_mm_is_still_at_its_first_generation() {
    let mut s = Session::new(&scenario("x86-munmap-shootdown"), &[], 1).unwrap();
    s.run();
    let t = s.trace();
    let bump = t.rows_of(EventKind::TlbGenIncremented).next().unwrap();
    let before = json(&s, t.time[bump] as u64 - 1);
    let mm = before["mms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["mm"] == t.mm[bump])
        .unwrap()
        .clone();
    assert_eq!(mm["tlb_gen"].as_u64(), Some(t.gen[bump] as u64 - 1));
}

#[test]
fn an_arm64_snapshot_carries_the_asid_allocator_state() {
    let mut s = Session::new(&scenario("arm64-asid-rollover"), &[], 1).unwrap();
    s.run();
    let snap = json(&s, s.now() / 2);
    assert_eq!(snap["arch"], "arm64");
    assert!(snap["arm64"]["generation"].as_u64().unwrap() >= 1);
    assert_eq!(
        snap["arm64"]["active_asids"].as_array().unwrap().len(),
        snap["cpus"].as_array().unwrap().len()
    );
    assert!(snap["mms"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["nr_active_mm"].is_u64()));
}

#[test]
fn the_same_instant_gives_the_same_snapshot() {
    let mut s = Session::new(&scenario("x86-lazy-tlb"), &[], 3).unwrap();
    s.run();
    let t = s.now() / 3;
    assert_eq!(s.snapshot_json(t), s.snapshot_json(t));
}
