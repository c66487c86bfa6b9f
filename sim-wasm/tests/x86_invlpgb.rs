//! AMD INVLPGB/TLBSYNC with global ASIDs (`invlpgb=on`), and races R12 and R13: which flushes
//! go out as broadcasts, who still gets IPIs, and the orderings the two races break.

use tlbscope_sim::session::Session;
use tlbscope_sim::summary::Summary;

fn run(text: &str, overrides: &[&str]) -> Summary {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let mut s = Session::new(text, &o, 7).unwrap_or_else(|e| panic!("{e}"));
    s.run();
    s.summary()
}

/// One op thread on CPU 0, busy threads of its mm on CPUs 1–4: five active CPUs.
const FIVE: &str = "[machine]\ncpus = 5\n[workload]\nthreads = 1\nflushes = 10\npages = 1\n";

#[test]
fn once_the_mm_has_a_global_asid_its_flushes_are_broadcasts_without_ipis() {
    let ipi = run(FIVE, &[]);
    assert_eq!(ipi.ipis, 40);
    let b = run(FIVE, &["invlpgb=on", "global_asid=first_flush"]);
    // Flush 1 goes by IPI and earns the global ASID; flush 2 is a broadcast that also IPIs
    // the four CPUs still on their dynamic ASID (asid_transition), which move over; the
    // other eight are broadcasts alone, each closed by one TLBSYNC.
    assert_eq!(b.ipis, 4 + 4);
    assert_eq!((b.x86_ops.invlpgb, b.x86_ops.tlbsync), (9, 9));
    assert!(b.violations.is_empty(), "{:?}", b.violations);
}

#[test]
fn a_range_takes_one_invlpgb_per_invlpgb_count_max_pages_and_twice_under_pti() {
    let text = FIVE.replace("pages = 1", "pages = 20");
    let b = |extra: &[&str]| {
        let mut o = vec![
            "invlpgb=on",
            "global_asid=first_flush",
            "costs.invlpgb_count_max=8",
        ];
        o.extend_from_slice(extra);
        run(&text, &o).x86_ops.invlpgb
    };
    assert_eq!(b(&[]), 9 * 3, "20 pages = 8 + 8 + 4");
    assert_eq!(b(&["pti=on"]), 9 * 6, "kernel and user PCID");
    assert_eq!(
        b(&["ceiling=8"]),
        9,
        "a full flush is one INVLPGB of the whole PCID"
    );
}

#[test]
fn without_global_asids_nothing_changes() {
    // Four active CPUs or fewer never get a global ASID (mm_active_cpus_exceeds(mm, 3)).
    let three = FIVE.replace("cpus = 5", "cpus = 3");
    let s = run(&three, &["invlpgb=on", "global_asid=first_flush"]);
    assert_eq!((s.ipis, s.x86_ops.invlpgb), (20, 0));
}

/// Victims of mm 1 on CPUs 2–4 keep touching page 0 while the thread on CPU 0 unmaps it.
fn victims(cpus_of_t: &str, t_program: &str, extra: &str) -> String {
    let mut s = format!(
        "[machine]\ncpus = 5\n[design]\ninvlpgb = \"on\"\nglobal_asid = \"first_flush\"\n\
         [[tasks]]\nname = \"T\"\nmm = 1\ncpu = 0\ncpus = [{cpus_of_t}]\nprogram = \"{t_program}\"\n"
    );
    for cpu in 2..5 {
        s += &format!(
            "[[tasks]]\nname = \"V{cpu}\"\nmm = 1\ncpu = {cpu}\nrepeat = 0\nprogram = \"touch 0; spin 300ns\"\n"
        );
    }
    s + extra
}

#[test]
fn r13_a_cpu_left_on_its_dynamic_asid_keeps_the_page_without_asid_transition() {
    let text = victims(
        "0",
        "touch 0; madvise 0; spin 2us; touch 0; madvise 0; spin 2us",
        "",
    );
    let fixed = run(&text, &[]);
    assert!(fixed.violations.is_empty(), "{:?}", fixed.violations);
    assert_eq!(fixed.x86_ops.invlpgb, 1);
    let broken = run(&text, &["asid_transition=off"]);
    assert!(
        broken.violated().contains(&"I3".to_string()),
        "{:?}",
        broken.violated()
    );
}

#[test]
fn r12_tlbsync_on_another_cpu_returns_before_the_broadcast_is_done() {
    let t = "touch 0; madvise 0; spin 2us; touch 0; madvise 0; spin 2us; touch 0; madvise 0";
    let rt = "[[tasks]]\nname = \"RT\"\nmm = 2\ncpu = 0\nprio = 1\nstart_ns = 35000\nprogram = \"spin 5us\"\n";
    let text = victims("0, 1", t, rt);
    let slow = ["costs.invlpgb_complete_ns=20000"];
    let pinned = run(&text, &slow);
    assert!(pinned.violations.is_empty(), "{:?}", pinned.violations);
    let broken = run(&text, &[slow[0], "tlbsync_pinned=off"]);
    assert!(
        broken.violated().contains(&"I3".to_string()),
        "{:?}",
        broken.violated()
    );
}
