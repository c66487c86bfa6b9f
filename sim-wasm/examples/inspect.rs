//! Runs a scenario natively and prints its summary (and, with `--trace`, every trace row):
//! a debugging aid for scenario authors.
//!
//! `cargo run --example inspect -- <scenario.toml> [--set key=value ...] [--seed N] [--trace]`

use tlbscope_sim::events::EventKind;
use tlbscope_sim::session::Session;

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut file, mut overrides, mut seed, mut rows) = (None, Vec::new(), 1u64, false);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--set" => overrides.extend(args.next()),
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1),
            "--trace" => rows = true,
            _ => file = Some(a),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: inspect <scenario.toml> [--set key=value ...] [--seed N] [--trace]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2)
    });
    let mut s = Session::new(&text, &overrides, seed).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(1)
    });
    s.run();
    if rows {
        let t = s.trace();
        for i in 0..t.len() {
            let kind = EventKind::ALL
                .iter()
                .find(|k| **k as u8 == t.kind[i])
                .map_or("?".to_string(), |k| format!("{k:?}"));
            println!(
                "{i:6} t={:>9} dur={:>7} cpu={:<3} {kind:<18} mm={} asid={} gen={} addr={:#x} arg={} parent={}",
                t.time[i], t.dur[i], t.cpu[i], t.mm[i], t.asid[i], t.gen[i], t.addr[i] as u64, t.arg[i], t.parent[i]
            );
        }
    }
    println!("{}", s.summary().to_json());
}
