//! The run budget: how many events and how much memory one run may use. The simulator enforces
//! it itself, before memory runs out, because a WASM instance that outgrows its memory traps
//! and takes the run (and, in the CLI, the error message) with it. A run that reaches its
//! budget stops like a finished one (spans closed, summary available) and says why.

use crate::config::Config;
use crate::ids::Ns;

/// Default memory budget of a run in MiB: fits a browser tab, which also holds a copy of the
/// trace's columns on the page and another while the worker builds the timeline's model.
pub const DEFAULT_MEMORY_MB: i64 = 256;
/// Hard ceiling of `max_memory_mb`: vectors grow by doubling, so a run may briefly hold about
/// twice its counted bytes; twice this stays well inside wasm32's 4 GiB.
pub const MAX_MEMORY_MB: i64 = 1024;
pub const DEFAULT_EVENTS: i64 = 50_000_000;
pub const MAX_EVENTS: i64 = 100_000_000;
/// Most `[[tasks]]` a scenario may declare: each task is a lane's worth of state and events, and
/// more than this is a generated file gone wrong rather than a machine anyone models.
pub const MAX_TASKS: usize = 4096;
/// Most `[[steps]]` a scenario may declare: every step's settings are checked by parsing the
/// whole file again, so the cost of a file grows with steps × size.
pub const MAX_STEPS: usize = 100;

/// One pending event in the queue (time, seq, event word).
pub const QUEUE_ENTRY_BYTES: u64 = 24;
const TLB_ENTRY_BYTES: u64 = 16;
const PAGE_BYTES: u64 = 12;
pub const MIB: u64 = 1 << 20;

/// What stopped a run before its work was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Events,
    Memory,
}

/// What a run had done when it stopped, for the message.
pub struct Progress {
    pub events: u64,
    pub now: Ns,
    pub rows: usize,
    pub bytes: u64,
}

/// Bytes the machine's state needs before the first event: every CPU's TLB and the page
/// table of every address space a task uses.
pub fn state_bytes(cfg: &Config) -> u64 {
    let tlbs = cfg.cpus as u64 * cfg.tlb_entries as u64 * TLB_ENTRY_BYTES;
    tlbs + address_spaces(cfg) * cfg.workload.mm_pages as u64 * PAGE_BYTES
}

/// Address spaces (besides `init_mm`) with a page table: the workload's and the tasks'.
pub fn address_spaces(cfg: &Config) -> u64 {
    let wl = &cfg.workload;
    let mut mms = std::collections::BTreeSet::new();
    if wl.flushes > 0 {
        if wl.processes {
            mms.extend((0..wl.threads).map(|i| 1 + i));
        } else if wl.threads > 0 {
            mms.insert(1);
        }
    }
    if wl.lazy_cpus > 0 || wl.busy_threads > 0 {
        mms.insert(1);
    }
    mms.extend(cfg.tasks.iter().map(|t| t.mm.0));
    mms.extend(crate::victims::mms(cfg));
    mms.remove(&0);
    mms.len() as u64
}

/// The budget's limit in bytes.
pub fn limit_bytes(cfg: &Config) -> u64 {
    cfg.max_memory_mb as u64 * MIB
}

/// The field a stop is about and what to tell the user: what stopped the run, how far it
/// got, that the partial run is kept, and how to raise the budget.
pub fn explain(stop: Stop, cfg: &Config, p: &Progress) -> (&'static str, String) {
    let so_far = format!(
        "after {} events and {} of simulated time ({} trace rows, {} MB); what ran so far is kept",
        group(p.events),
        time(p.now),
        group(p.rows as u64),
        p.bytes.div_ceil(MIB)
    );
    match stop {
        Stop::Events => (
            "machine.max_events",
            format!(
                "the run reached its event budget of {} events (a broadcast TLBI counts once \
                 per CPU and op it reaches) {so_far}. {}simulate less (fewer flushes or CPUs, a \
                 shorter max_time_ns)",
                group(cfg.max_events),
                if cfg.max_events as i64 >= MAX_EVENTS {
                    "That is the ceiling: ".to_string()
                } else {
                    format!(
                        "Raise it with --set max_events=<n> (at most {}), or ",
                        group(MAX_EVENTS as u64)
                    )
                }
            ),
        ),
        Stop::Memory => (
            "machine.max_memory_mb",
            format!(
                "the run reached its memory budget of {} MB {so_far}. {}simulate less (fewer \
                 flushes or CPUs, a shorter max_time_ns)",
                cfg.max_memory_mb,
                if cfg.max_memory_mb as i64 >= MAX_MEMORY_MB {
                    "That is the ceiling: ".to_string()
                } else {
                    format!("Raise it with --set max_memory_mb=<MB> (at most {MAX_MEMORY_MB}), or ")
                }
            ),
        ),
    }
}

fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn time(ns: Ns) -> String {
    match ns {
        n if n >= 1_000_000_000 => format!("{:.3} s", n as f64 / 1e9),
        n if n >= 1_000_000 => format!("{:.3} ms", n as f64 / 1e6),
        n if n >= 1_000 => format!("{:.3} us", n as f64 / 1e3),
        n => format!("{n} ns"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_and_times_scaled() {
        assert_eq!(group(0), "0");
        assert_eq!(group(1234), "1,234");
        assert_eq!(group(50_000_000), "50,000,000");
        assert_eq!(time(1_500), "1.500 us");
        assert_eq!(time(2_000_000_000), "2.000 s");
    }
}
