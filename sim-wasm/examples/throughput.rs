//! Native throughput of the simulator on one scenario, for `npm run bench`.
//!
//! `cargo run --release --example throughput -- <scenario.toml> [--set key=value ...] [--seed N]`
//! prints one JSON line: `{"events":N,"seconds":S,"events_per_sec":R,"trace_rows":M}`.
//! Events are popped queue events; trace rows are not counted as events.

use std::time::Instant;

use tlbscope_sim::session::Session;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut file = None;
    let mut overrides = Vec::new();
    let mut seed = 1u64;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--set" => overrides.extend(args.next()),
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1),
            _ => file = Some(a),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: throughput <scenario.toml> [--set key=value ...] [--seed N]");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let mut s = match Session::new(&text, &overrides, seed) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(1);
        }
    };
    s.run();
    let seconds = start.elapsed().as_secs_f64();
    let events = s.events();
    println!(
        "{{\"events\":{events},\"seconds\":{seconds:.6},\"events_per_sec\":{:.0},\"trace_rows\":{}}}",
        events as f64 / seconds.max(1e-9),
        s.store().len()
    );
}
