//! Every scenario and `--set` error names the field and, for files, the line (the examples of
//! issue 20 that did not).

use tlbscope_sim::session::Session;

fn error(text: &str, o: &[&str]) -> String {
    let o: Vec<String> = o.iter().map(|s| s.to_string()).collect();
    Session::new(text, &o, 1)
        .err()
        .expect("refused")
        .to_string()
}

#[test]
fn a_value_of_the_wrong_type_names_its_field_and_line() {
    assert_eq!(
        error("title = \"x\"\n[machine]\ncpus = \"four\"\n", &[]),
        "line 3: machine.cpus: invalid type: string \"four\", expected i64"
    );
    assert_eq!(
        error("[machine]\ncpus = 1.5\n", &[]),
        "line 2: machine.cpus: invalid type: floating point `1.5`, expected i64"
    );
}

#[test]
fn a_wrong_value_in_a_task_names_the_task() {
    let text = "[[tasks]]\ncpu = 0\nprogram = \"touch 0\"\n[[tasks]]\ncpu = 1\nrepeat = \"x\"\nprogram = \"touch 0\"\n";
    assert!(error(text, &[]).starts_with("line 6: tasks[1].repeat: invalid type"));
}

#[test]
fn an_override_of_the_wrong_type_names_its_key_and_value() {
    assert_eq!(
        error("", &["pcid=off", "cpus=NaN"]),
        "--set machine.cpus: invalid type: floating point `NaN`, expected i64 (given `NaN`)"
    );
    assert_eq!(
        error("", &["flushes=lots"]),
        "--set workload.flushes: invalid type: string \"lots\", expected i64 (given `lots`)"
    );
}

#[test]
fn dotted_keys_keep_their_line() {
    assert_eq!(
        error("title = \"x\"\nmachine.cpus = 0\n", &[]),
        "line 2: machine.cpus: must be between 1 and 512, got 0"
    );
    assert_eq!(
        error("title = \"x\"\n\"workload\" . flushes = -1\n", &[]),
        "line 2: workload.flushes: must be between 0 and 10000000, got -1"
    );
}
