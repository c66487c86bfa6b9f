//! `cargo run --release --example check -- <scenario.toml> [--set k=v ...] [--max-states N]
//! [--reduce none|por|sym|all]`:
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
                    eprintln!("--reduce {v}: expected none, por, sym or all");
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
    let cpu0 = cpu_seconds();
    let r = c.run();
    let seconds = t0.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu0;
    println!(
        "{{\"verdict\":\"{}\",\"reductions\":\"{}\",\"states\":{},\"transitions\":{},\"depth\":{},\"seconds\":{seconds:.3},\"cpu_seconds\":{cpu:.3},\"states_per_sec\":{:.0}}}",
        r.verdict,
        r.reductions,
        r.states,
        r.transitions,
        r.depth,
        r.states as f64 / seconds
    );
}

/// This process's user + system CPU time (Linux `/proc/self/stat`, in clock ticks of 1/100 s;
/// 0 elsewhere): on a loaded machine the wall time says more about the other processes.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|x| x.parse().ok())
        .collect();
    f.iter().sum::<f64>() / 100.0
}
