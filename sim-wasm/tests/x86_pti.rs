//! Page-table isolation on x86 (`pti=on`): the two PCIDs of a slot, the CR3 switches of every
//! kernel entry and exit, and race R11. Counts and orderings, not target numbers.

use tlbscope_sim::session::Session;
use tlbscope_sim::summary::Summary;

fn run(text: &str, overrides: &[&str]) -> Summary {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let mut s = Session::new(text, &o, 7).unwrap_or_else(|e| panic!("{e}"));
    s.run();
    s.summary()
}

/// One op thread looping touch + madvise of `pages` pages, alone on one CPU.
fn madvise(pages: u32, flushes: u32) -> String {
    format!("[machine]\ncpus = 1\n[workload]\nthreads = 1\nflushes = {flushes}\npages = {pages}\n")
}

#[test]
fn each_flushed_user_page_is_flushed_in_the_kernel_and_the_user_pcid() {
    let off = run(&madvise(3, 4), &[]);
    let on = run(&madvise(3, 4), &["pti=on"]);
    assert_eq!((off.x86_ops.invlpg, off.x86_ops.invpcid), (12, 0));
    assert_eq!((on.x86_ops.invlpg, on.x86_ops.invpcid), (12, 12));
    assert!(on.violations.is_empty(), "{:?}", on.violations);
    assert!(on.op_latency_ns.mean > off.op_latency_ns.mean);
}

#[test]
fn every_kernel_entry_and_exit_switches_cr3() {
    let off = run(&madvise(2, 5), &[]);
    let on = run(&madvise(2, 5), &["pti=on"]);
    // Trips into the kernel: 5 madvise calls, every page fault, the switch to the task.
    let trips = 5 + on.page_faults + 1;
    assert_eq!(on.x86_ops.cr3_writes - off.x86_ops.cr3_writes, 2 * trips);
    let more = run(&madvise(2, 5), &["pti=on", "costs.pti_cr3_ns=1000"]);
    let base = run(&madvise(2, 5), &["pti=on", "costs.pti_cr3_ns=0"]);
    let d = more.sim_time_ns - base.sim_time_ns;
    assert_eq!(d, 2000.0 * trips as f64, "each trip pays two CR3 writes");
}

#[test]
fn a_deferred_user_flush_empties_the_user_pcid_at_the_next_return_to_user() {
    let text =
        "[machine]\ncpus = 1\n[workload]\nthreads = 1\nflushes = 6\npages = 1\nhot_pages = 16\n";
    let invpcid = run(text, &["pti=on"]);
    let deferred = run(text, &["pti=on", "pti_user_flush=deferred"]);
    assert_eq!(deferred.x86_ops.invpcid, 0);
    // The first switch's flush of the new slot, then one per madvise but the last: its
    // thread never returns to user code before the run ends.
    assert_eq!(deferred.x86_ops.user_pcid_flushes, 1 + 5);
    assert_eq!(invpcid.x86_ops.user_pcid_flushes, 1);
    // INVPCID drops one page; the deferred CR3 write drops the hot pages too.
    assert_eq!(invpcid.tlb_misses, 16 + 6);
    assert_eq!(deferred.tlb_misses, 6 * 17);
    assert!(deferred.violations.is_empty(), "{:?}", deferred.violations);
}

#[test]
fn r11_invlpg_alone_leaves_the_page_in_the_user_pcid() {
    let s = run(&madvise(1, 3), &["pti=on", "pti_user_flush=none"]);
    assert!(
        s.violated().contains(&"I11".to_string()),
        "{:?}",
        s.violated()
    );
    let fixed = run(&madvise(1, 3), &["pti=on"]);
    assert!(fixed.violations.is_empty());
}

#[test]
fn without_pcid_every_kernel_entry_drops_the_users_translations() {
    let text =
        "[machine]\ncpus = 1\n[workload]\nthreads = 1\nflushes = 6\npages = 1\nhot_pages = 16\n";
    let pcid = run(text, &["pti=on"]);
    let nopcid = run(text, &["pti=on", "pcid=off"]);
    assert_eq!(pcid.tlb_misses, 16 + 6);
    // The madvise syscall's entry and exit flush, so every op walks its 17 pages again.
    assert_eq!(nopcid.tlb_misses, 6 * 17);
    assert!(nopcid.violations.is_empty(), "{:?}", nopcid.violations);
}

#[test]
fn an_ipi_that_interrupts_user_code_pays_the_cr3_switches_too() {
    let text =
        "[machine]\ncpus = 2\n[workload]\nthreads = 1\nbusy_threads = 1\nflushes = 4\npages = 1\n";
    let off = run(text, &[]);
    let on = run(text, &["pti=on"]);
    assert_eq!(on.ipis, 4, "the busy thread spins in user mode on CPU 1");
    // madvise calls, faults, the two tasks' first switch, and each IPI's handler.
    let trips = 4 + on.page_faults + 2 + on.ipis;
    assert_eq!(on.x86_ops.cr3_writes - off.x86_ops.cr3_writes, 2 * trips);
    assert_eq!(
        on.x86_ops.invpcid, 8,
        "both CPUs flush the page from their user PCID"
    );
}

#[test]
fn pti_follows_the_machine_unless_the_scenario_says() {
    let invpcids = |preset: &str, extra: &[&str]| {
        let mut o = vec![format!("machine={preset}"), "cpus=1".to_string()];
        o.extend(extra.iter().map(|s| s.to_string()));
        let o: Vec<&str> = o.iter().map(String::as_str).collect();
        run(&madvise(1, 2), &o).x86_ops.invpcid
    };
    assert_eq!(
        invpcids("skylake-desktop-4", &[]),
        2,
        "Meltdown-affected: PTI on"
    );
    assert_eq!(invpcids("skylake-desktop-4", &["pti=off"]), 0);
    for preset in [
        "generic-x86",
        "icelake-8336c-128",
        "skylake-laptop-kvm",
        "zen3-epyc-7763-128",
    ] {
        assert_eq!(invpcids(preset, &[]), 0, "{preset}");
    }
}
