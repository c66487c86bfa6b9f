//! Bad input never panics: it comes back as an error naming the field.

use tlbscope_sim::session::Session;

fn err(text: &str, overrides: &[&str]) -> tlbscope_sim::error::SimError {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    match Session::new(text, &o, 1) {
        Ok(_) => panic!("expected an error for {text:?} {overrides:?}"),
        Err(e) => e,
    }
}

#[test]
fn an_unknown_scenario_field_is_named_in_the_error() {
    let e = err("[workload]\nflushs = 3\n", &[]);
    assert_eq!(e.path, "flushs");
    assert!(e.to_string().contains("unknown field `flushs`"), "{e}");
}

#[test]
fn zero_cpus_is_an_error_naming_machine_cpus() {
    let e = err("[machine]\ncpus = 0\n", &[]);
    assert_eq!(
        e.to_string(),
        "line 2: machine.cpus: must be between 1 and 512, got 0"
    );
}

#[test]
fn zero_cpus_by_override_is_an_error_too() {
    let e = err("[machine]\ncpus = 4\n", &["cpus=0"]);
    // The bad value came from the override, so the error points there, not at line 2.
    assert_eq!(e.path, "--set machine.cpus");
    assert_eq!(e.line, 0);
    assert!(e.message.contains("between 1 and 512"), "{e}");
}

#[test]
fn garbage_input_is_an_error_not_a_panic() {
    for text in [
        "\u{0}\u{1}",
        "[[[",
        "cpus = \"x\"",
        "[machine]\ncpus = 1e99",
        "arch = 5",
    ] {
        let o: Vec<String> = vec![];
        assert!(Session::new(text, &o, 0).is_err(), "accepted {text:?}");
    }
}

#[test]
fn an_initiator_beyond_the_last_cpu_is_rejected() {
    let e = err("[machine]\ncpus = 2\n[workload]\ninitiator = 2\n", &[]);
    assert_eq!(e.path, "workload.initiator");
}

const X86_SCENARIO: &str = "arch = \"x86\"\n[machine]\ncpus = 4\npreset = \"generic-x86\"\n[design]\nflush_info = \"stack\"\npreempt = \"pinned\"\n";

#[test]
fn setting_arch_retargets_a_scenario_and_notes_the_dropped_toggles() {
    let mut s = Session::new(X86_SCENARIO, &["arch=arm64".to_string()], 1).expect("retargets");
    s.run();
    let summary = s.summary();
    assert_eq!(summary.arch, "arm64");
    assert_ne!(summary.machine, "generic-x86");
    let notes = summary.notes.join(" ");
    assert!(
        notes.contains("design.flush_info") && notes.contains("machine.preset"),
        "{notes}"
    );
}

#[test]
fn an_explicit_toggle_of_the_other_arch_is_still_an_error() {
    let e = err(X86_SCENARIO, &["arch=arm64", "flush_info=percpu"]);
    assert!(e.path.ends_with("design.flush_info"), "{e}");
    assert!(e.message.contains("not used on arm64"), "{e}");
}

#[test]
fn more_tlb_ways_than_the_model_holds_are_refused_by_name() {
    let e = err("[machine]\ntlb_entries = 4096\ntlb_ways = 256\n", &[]);
    assert_eq!(e.path, "machine.tlb_ways");
    assert_eq!(e.line, 3);
    assert!(e.message.contains("at most 255"), "{e}");
    assert!(e.message.contains("got 256"), "{e}");
    let e = err("[machine]\ntlb_entries = 65536\n", &["tlb_ways=65536"]);
    assert!(e.path.ends_with("machine.tlb_ways"), "{e}");
    assert!(e.message.contains("at most 255"), "{e}");
    let text = "[machine]\ntlb_entries = 4096\ntlb_ways = 255\n";
    assert!(Session::new(text, &[], 1).is_ok());
}

#[test]
fn the_xor7_index_needs_128_sets_and_says_so() {
    let e = err(
        "[machine]\ntlb_entries = 1024\ntlb_ways = 4\ntlb_index = \"xor7\"\n",
        &[],
    );
    assert_eq!(e.path, "machine.tlb_index");
    assert_eq!(e.line, 4);
    assert!(e.message.contains("4 ways make 256"), "{e}");
    let e = err(
        "[machine]\npreset = \"skylake-laptop-kvm\"\n",
        &["tlb_ways=8"],
    );
    assert!(e.message.contains("xor7 indexes 128 sets"), "{e}");
    let e = err("", &["tlb_index=linear"]);
    assert!(e.path.ends_with("machine.tlb_index"), "{e}");
}

#[test]
fn a_kernel_footprint_beyond_the_modelled_range_is_refused_by_name() {
    let e = tlbscope_sim::scenario::parse("[costs]\nkernel_pages = 16385\n", &[]).unwrap_err();
    assert_eq!(e.path, "costs.kernel_pages");
    assert!(e.message.contains("16384"), "{e}");
    assert!(tlbscope_sim::scenario::parse("[costs]\nkernel_pages = 16384\n", &[]).is_ok());
}
