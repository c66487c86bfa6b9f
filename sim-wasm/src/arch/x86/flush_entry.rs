//! The fixed cost of a `flush_tlb_mm_range()` call (arch/x86/mm/tlb.c), paid whatever it
//! invalidates: the descriptor's get/put and fill, `inc_mm_tlb_gen()`'s atomic on a line other
//! CPUs read, the scans of `mm_cpumask` and `should_flush_tlb()` per other CPU in it, and the
//! tracepoints. Without it a flush of one page costs only its INVLPG and the ranged-flush cost
//! curve starts at zero.

use crate::config::Config;
use crate::ids::{mul_sat, CpuId, MmId, Ns};
use crate::machine::World;

use super::cacheline::LineHolders;

fn holders(w: &mut World, mm: MmId) -> &mut LineHolders {
    let lines = &mut w.arch_state.x86.tlb_gen_line;
    let i = mm.0 as usize;
    if i >= lines.len() {
        lines.resize(i + 1, LineHolders::default());
    }
    &mut lines[i]
}

/// `cpu` reads `mm->context.tlb_gen` (`flush_tlb_func` or `switch_mm_irqs_off`) at `at`.
/// Returns what the read cost if it missed (another CPU's increment, or nobody's read yet,
/// left this CPU without a copy): the wait for the line's transfers ahead of it and its own.
pub fn read_tlb_gen(w: &mut World, cpu: CpuId, mm: MmId, at: Ns) -> Option<Ns> {
    let line = holders(w, mm);
    let missed = !line.holds(cpu) && !line.is_empty();
    let cost = missed.then(|| {
        let ns = transfer_ns(w, cpu, mm, false);
        holders(w, mm).read(at, ns)
    });
    holders(w, mm).add(cpu);
    cost
}

/// `inc_mm_tlb_gen()` on `cpu` at `at`: returns what it cost if the line had to move or other
/// copies be invalidated before the locked add could run.
pub fn write_tlb_gen(w: &mut World, cpu: CpuId, mm: MmId, at: Ns) -> Option<Ns> {
    let line = holders(w, mm);
    let moved = !line.is_empty() && !line.only(cpu);
    let ns = moved.then(|| transfer_ns(w, cpu, mm, true));
    let line = holders(w, mm);
    let cost = line.write(at, ns);
    line.keep_only(cpu);
    cost
}

/// One transfer of the line to `cpu`, across the socket link when the other copies make it
/// cross: a write's invalidation must reach any copy on another socket; a read is served from
/// a copy on this CPU's socket if there is one.
fn transfer_ns(w: &World, cpu: CpuId, mm: MmId, write: bool) -> Ns {
    let cfg = &w.cfg;
    if cfg.sockets <= 1 {
        return cfg.costs.cacheline_transfer_ns;
    }
    let here = cfg.socket_of(cpu.0);
    let line = &w.arch_state.x86.tlb_gen_line[mm.0 as usize];
    let across = if write {
        line.any_other(cpu, |c| cfg.socket_of(c) != here)
    } else {
        !line.any_other(cpu, |c| cfg.socket_of(c) == here)
    };
    if across {
        cfg.costs.socket_transfer_ns
    } else {
        cfg.costs.cacheline_transfer_ns
    }
}

/// What every call pays, whatever its mm and CPU: the call, its tracepoints, the atomic, and
/// the word-by-word walks of the mask by `cpumask_any_but()` and the cond loop. Computed once
/// per run (saturating sums of costs do not depend on their order).
pub fn fixed_cost(cfg: &Config) -> Ns {
    let x = &cfg.costs.x86;
    let words = (cfg.cpus as u64).div_ceil(64);
    x.flush_call_ns
        .saturating_add(x.flush_trace_ns)
        .saturating_add(x.tlb_gen_atomic_ns)
        .saturating_add(mul_sat(words, x.cpumask_word_ns))
}

/// The entry work of one call on `cpu` for `mm`, whose `mm_cpumask` holds `others` CPUs
/// besides this one. `inc_mm_tlb_gen()` is counted as a touch of the mm's `tlb_gen` line.
pub fn entry_cost(w: &mut World, cpu: CpuId, mm: MmId, others: u64) -> Ns {
    // The increment comes early in the call, before the mask walks.
    let moved = write_tlb_gen(w, cpu, mm, w.now());
    let mut cost = w.arch_state.x86.fixed.entry_ns;
    if let Some(ns) = moved {
        w.stats.x86_ops.tlb_gen_misses += 1;
        cost = cost.saturating_add(ns);
    }
    cost.saturating_add(mul_sat(others, w.cfg.costs.x86.should_flush_ns))
}
