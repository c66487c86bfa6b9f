//! Per-CPU data on arm64 (`arch/arm64/include/asm/percpu.h`, `asm/smp.h`; commit bf0baa5bbdc9;
//! race R14).
//!
//! A `this_cpu_*` op computes the address from `TPIDR_EL1` and then accesses it; a migration in
//! between would hit the old CPU's copy (R14), so arm64 wraps each op in
//! `preempt_disable_notrace()` / `preempt_enable_notrace()`: two `preempt_count` updates and a
//! window where a wakeup cannot preempt. `raw_smp_processor_id()` needs no window; its cost
//! depends on where the CPU number is read (`design.cpu_id`).

use crate::config::{Config, CpuIdImpl};
use crate::ids::{Ns, TaskId};
use crate::machine::World;
use crate::task::Cont;

/// `n` calls of `smp_processor_id()` in ns (rounded): 1.603 ns per call via the per-CPU
/// `cpu_number`, 1.206 ns via `thread_info` (the 10^9-call benchmark of bf0baa5bbdc9's mail).
pub fn cpu_id_cost(cfg: &Config, n: u64) -> Ns {
    let ps = match cfg.design.cpu_id {
        CpuIdImpl::PerCpu => cfg.costs.arm64.cpu_id_percpu_ps,
        CpuIdImpl::ThreadInfo => cfg.costs.arm64.cpu_id_thread_info_ps,
    };
    let ns = (n as u128 * ps as u128 + 500) / 1000;
    ns.min(u64::MAX as u128) as u64
}

/// One `this_cpu_inc()`: `preempt_disable`, address + RMW, `preempt_enable` at the step's end.
pub fn this_cpu_inc(w: &mut World, t: TaskId) {
    let (cpu, mm) = (w.tasks[t.index()].cpu, w.tasks[t.index()].mm);
    w.preempt_disable(cpu, mm);
    let k = &w.cfg.costs.arm64;
    let cost = k
        .preempt_op_ns
        .saturating_mul(2)
        .saturating_add(k.percpu_rmw_ns);
    w.step(t, cost, false, Cont::PreemptEnableThenNext);
}
