//! Guided steps: every way a step can be wrong is an error naming the step's line and field.

use tlbscope_sim::scenario;
use tlbscope_sim::session::Session;

const BASE: &str = "title = \"t\"\n[machine]\ncpus = 4\n[workload]\nflushes = 1\n";

fn with_step(step: &str) -> String {
    format!("{BASE}\n[[steps]]\ntitle = \"one\"\ntext = \"look\"\n\n[[steps]]\n{step}\n")
}

#[test]
fn a_valid_step_keeps_its_fields_and_header_line() {
    let text = with_step(
        "title = \"two\"\ntext = \"t\"\nwindow = [0, 500]\nhighlight = [\"IpiSent\"]\nset = [\"cpus=8\"]\nquestion = \"q?\"\nanswer = \"a\"",
    );
    let cfg = scenario::parse(&text, &[]).unwrap();
    assert_eq!(cfg.steps.len(), 2);
    assert_eq!(cfg.steps[1].window, Some([0, 500]));
    assert_eq!(cfg.steps[1].set, ["cpus=8"]);
    assert_eq!(cfg.steps[0].line, 7);
    assert_eq!(cfg.steps[1].line, 11);
}

#[test]
fn an_unknown_highlight_kind_names_the_step_and_lists_the_kinds() {
    let e = scenario::parse(
        &with_step("title = \"x\"\ntext = \"y\"\nhighlight = [\"IpiSnet\"]"),
        &[],
    )
    .unwrap_err();
    assert_eq!(e.path, "steps[1].highlight");
    assert_eq!(e.line, 11);
    assert!(
        e.message.contains("unknown event kind `IpiSnet`") && e.message.contains("IpiSent"),
        "{e}"
    );
}

#[test]
fn a_question_without_an_answer_is_an_error() {
    let e = scenario::parse(
        &with_step("title = \"x\"\ntext = \"y\"\nquestion = \"why?\""),
        &[],
    )
    .unwrap_err();
    assert_eq!(e.path, "steps[1].answer");
}

#[test]
fn a_step_that_sets_an_unknown_toggle_is_an_error_on_its_line() {
    let e = scenario::parse(
        &with_step("title = \"x\"\ntext = \"y\"\nset = [\"flush_inf=stack\"]"),
        &[],
    )
    .unwrap_err();
    assert_eq!(e.path, "steps[1].set");
    assert_eq!(e.line, 11);
    assert!(e.message.contains("flush_inf"), "{e}");
}

#[test]
fn an_unknown_field_in_a_step_is_reported_with_its_line() {
    let e = scenario::parse(&with_step("title = \"x\"\ntext = \"y\"\nzoom = 3"), &[]).unwrap_err();
    assert!(e.message.contains("unknown field `zoom`"), "{e}");
    assert_eq!(e.line, 14);
}

#[test]
fn a_window_past_the_end_of_the_run_fails_the_run_check() {
    let text = with_step("title = \"x\"\ntext = \"y\"\nwindow = [0, 999999999]");
    let mut s = Session::new(&text, &[], 1).unwrap();
    s.run();
    assert!(s.check_step(0).is_ok());
    let e = s.check_step(1).unwrap_err();
    assert_eq!(e.path, "steps[1].window");
    assert_eq!(e.line, 11);
    assert!(e.message.contains("after the run ends"), "{e}");
}

#[test]
fn a_highlight_with_nothing_in_the_window_fails_the_run_check() {
    let text =
        with_step("title = \"x\"\ntext = \"y\"\nwindow = [0, 1]\nhighlight = [\"CsdUnlocked\"]");
    let mut s = Session::new(&text, &[], 1).unwrap();
    s.run();
    let e = s.check_step(1).unwrap_err();
    assert_eq!(e.path, "steps[1].highlight");
    assert!(e.message.contains("no CsdUnlocked event"), "{e}");
}

#[test]
fn a_step_keeps_its_subject_and_refuses_unknown_lenses_and_cpus() {
    let cfg = scenario::parse(
        &with_step("title = \"x\"\ntext = \"y\"\ncpus = [0]\nexpand = [2, 3]\nlens = [\"wakeup_latency\", \"nonpreempt_wait\"]"),
        &[],
    )
    .unwrap();
    assert_eq!(cfg.steps[1].expand, [2, 3]);
    assert_eq!(cfg.steps[1].lens, ["wakeup_latency", "nonpreempt_wait"]);

    let e = scenario::parse(
        &with_step("title = \"x\"\ntext = \"y\"\nlens = [\"wakeup\"]"),
        &[],
    )
    .unwrap_err();
    assert_eq!(e.path, "steps[1].lens");
    assert_eq!(e.line, 11);
    assert!(
        e.message.contains("`wakeup`") && e.message.contains("wakeup_latency"),
        "{e}"
    );

    let e =
        scenario::parse(&with_step("title = \"x\"\ntext = \"y\"\nexpand = [4]"), &[]).unwrap_err();
    assert_eq!(e.path, "steps[1].expand");
}

#[test]
fn choices_need_a_question_two_to_four_labelled_measures_and_a_known_pick() {
    let ok = "title = \"x\"\ntext = \"y\"\nquestion = \"q?\"\nanswer = \"a\"\nchoices = [\"CPU 1 = time(CsdUnlocked, cpu=1)\", \"CPU 2 = time(CsdUnlocked, cpu=2)\"]\npick = \"max\"";
    let cfg = scenario::parse(&with_step(ok), &[]).unwrap();
    assert_eq!(cfg.steps[1].choices.len(), 2);
    assert_eq!(cfg.steps[1].pick.as_deref(), Some("max"));
    for (step, field, says) in [
        (
            "choices = [\"a = ipis\", \"b = ipis\"]",
            "choices",
            "need a question",
        ),
        (
            "question = \"q\"\nanswer = \"a\"\nchoices = [\"a = ipis\"]",
            "choices",
            "2 to 4",
        ),
        (
            "question = \"q\"\nanswer = \"a\"\nchoices = [\"a = ipis\", \"b\"]",
            "choices",
            "`b`",
        ),
        (
            "question = \"q\"\nanswer = \"a\"\npick = \"first\"",
            "pick",
            "`first`",
        ),
    ] {
        let e = scenario::parse(
            &with_step(&format!("title = \"x\"\ntext = \"y\"\n{step}")),
            &[],
        )
        .unwrap_err();
        assert_eq!(e.path, format!("steps[1].{field}"));
        assert!(e.message.contains(says), "{e}");
    }
}
