//! Native throughput of the simulator on one scenario, for `npm run bench`.
//!
//! `cargo run --release --example throughput -- <scenario.toml> [--set key=value ...] [--seed N]`
//! prints one JSON line: `{"events":N,"seconds":S,"cpu_seconds":C,"events_per_sec":R,
//! "trace_rows":M,"rss_bytes_per_event":B,"page_faults":F}`. Events are popped queue events;
//! trace rows are not counted as events. `cpu_seconds` is the time this thread was on a CPU
//! (Linux schedstat), which a busy machine inflates far less than wall time;
//! `rss_bytes_per_event` is the growth of the resident set over the run per event, and
//! `page_faults` the minor faults taken meanwhile, nearly all of them the kernel handing out
//! fresh pages for the trace (both 0 where /proc is missing).

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
    let (rss0, cpu0, faults0) = (rss_bytes(), cpu_ns(), minor_faults());
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
    let cpu_seconds = cpu_ns().saturating_sub(cpu0) as f64 / 1e9;
    let faults = minor_faults().saturating_sub(faults0);
    let events = s.events();
    let per_event = rss_bytes().saturating_sub(rss0) as f64 / events.max(1) as f64;
    println!(
        "{{\"events\":{events},\"seconds\":{seconds:.6},\"cpu_seconds\":{cpu_seconds:.6},\"events_per_sec\":{:.0},\"trace_rows\":{},\"rss_bytes_per_event\":{per_event:.1},\"page_faults\":{faults}}}",
        events as f64 / seconds.max(1e-9),
        s.store().len()
    );
}

/// Nanoseconds this thread has run on a CPU (first field of /proc/thread-self/schedstat).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Resident set size in bytes (VmRSS of /proc/self/status).
fn rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Minor page faults of this process so far (field 10 of /proc/self/stat, counted after the
/// command name, which may hold spaces but ends at the last ')').
fn minor_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(7)?.parse().ok())
        .unwrap_or(0)
}
