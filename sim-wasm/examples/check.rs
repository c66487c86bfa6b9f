//! `cargo run --release --example check -- <scenario.toml> [--set k=v ...] [--max-states N]
//! [--reduce none|por|all]`:
//! one exhaustive interleaving check, natively, printed as one JSON line (for `npm run bench`).

use std::time::Instant;
use tlbscope_sim::check::{Check, Limits, Reduce};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(file) = args.next() else {
        eprintln!("usage: check <scenario.toml> [--set k=v ...] [--max-states N]");
        std::process::exit(2);
    };
    let mut set = Vec::new();
    let mut limits = Limits::default();
    while let Some(a) = args.next() {
        match (a.as_str(), args.next()) {
            ("--set", Some(v)) => set.push(v),
            ("--max-states", Some(v)) => limits.max_states = v.parse().unwrap_or(limits.max_states),
            ("--reduce", Some(v)) => match Reduce::parse(&v) {
                Some(r) => limits.reduce = r,
                None => {
                    eprintln!("--reduce {v}: expected none, por or all");
                    std::process::exit(2);
                }
            },
            _ => {
                eprintln!("unexpected argument {a}");
                std::process::exit(2);
            }
        }
    }
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2);
    });
    let mut c = Check::new(&text, &set, limits).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2);
    });
    let t0 = Instant::now();
    let r = c.run();
    let seconds = t0.elapsed().as_secs_f64();
    println!(
        "{{\"verdict\":\"{}\",\"reductions\":\"{}\",\"states\":{},\"transitions\":{},\"depth\":{},\"seconds\":{seconds:.3},\"states_per_sec\":{:.0}}}",
        r.verdict,
        limits.reduce.name(),
        r.states,
        r.transitions,
        r.depth,
        r.states as f64 / seconds
    );
}
