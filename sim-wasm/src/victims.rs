//! The victim-compute workload (`workload.victims`): unrelated processes, each on a core of its
//! own, that only compute, and measure how much of that compute they get done while the op
//! threads flush. On arm64 every broadcast TLBI is a DVM message every core of the
//! inner-shareable domain performs, whatever it runs, so a victim of another process still
//! loses `victim_ns` per message; on x86 it is never sent an IPI for another process's flush.
//!
//! Each victim is its own process (the mms after the generated workload's) looping
//! `spin victim_work_ns` on the CPU after the busy threads'. Every finished chunk's elapsed
//! time but the first (which also paid for the first switch into its mm) is a sample of
//! `victim_op_ns`; `victim_throughput` is the nominal work over the elapsed
//! time (1 = undisturbed).

use crate::config::{Config, Workload};
use crate::program::Op;
use crate::summary::Stats;

/// The mm of victim `i`: after mm 1 (or one per op process) and the wakeup task's mm 2, so a
/// victim never shares an address space with the generated workload.
pub fn victim_mm(wl: &Workload, i: u16) -> u16 {
    let ops = if wl.processes { wl.threads.max(1) } else { 1 };
    let rt = if wl.wakeup_period_ns > 0 { 2 } else { 0 };
    ops.max(rt).saturating_add(1).saturating_add(i)
}

/// The CPU of victim `i`: after the op, lazy and busy threads' CPUs.
pub fn victim_cpu(wl: &Workload, i: u16) -> u16 {
    wl.initiator.0 + wl.threads + wl.lazy_cpus + wl.busy_threads + i
}

/// One victim's program: a chunk of pure compute, looped.
pub fn program(wl: &Workload) -> Vec<Op> {
    vec![Op::Spin(Some(wl.victim_work_ns))]
}

/// The mms the victims add (for the memory budget).
pub fn mms(cfg: &Config) -> impl Iterator<Item = u16> + '_ {
    (0..cfg.workload.victims).map(|i| victim_mm(&cfg.workload, i))
}

/// Nominal work done over elapsed time across every finished chunk; `None` without chunks.
pub fn throughput(work_ns: u64, elapsed: &Stats) -> Option<f64> {
    (elapsed.count > 0 && elapsed.mean > 0.0).then(|| work_ns as f64 / elapsed.mean)
}
