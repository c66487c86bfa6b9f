//! `switch_mm()` and `enter_lazy_tlb()` on arm64 (`arch/arm64/include/asm/mmu_context.h`),
//! mainline and with the skip-broadcast series' `nr_active_mm` accounting: the context switch
//! through `check_and_switch_context()`, the stale-ASID flush, TTBR0 leaving the previous mm
//! (with or without the `DSB ISH` before the decrement), and idle's reserved TTBR0.

use super::asid;
use super::flush;
use super::state::{Walk, NOTHING_CACHED};
use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns};
use crate::machine::World;
use crate::trace::{Fields, Row};

/// `nr_active_mm += delta` with its trace row.
fn change_nr_active(w: &mut World, cpu: CpuId, mm: MmId, inc: bool, parent: Option<Row>) {
    let now = w.now();
    let Some(n) = w.arch_state.arm64.nr_active.get_mut(mm.0 as usize) else {
        return;
    };
    *n = if inc { *n + 1 } else { n.saturating_sub(1) };
    let f = Fields {
        mm,
        arg: *n as u64,
        parent,
        ..Fields::default()
    };
    w.trace.instant(now, cpu, EventKind::NrActiveMmChanged, f);
}

/// TTBR0 leaves `prev` (switch or idle's reserved TTBR0): with the fix, `DSB ISH` completes the
/// walks in flight before `nr_active_mm--`; without it a walk stays in flight. Returns the
/// DSB's cost.
fn leave_mm(w: &mut World, cpu: CpuId, prev: MmId) -> Ns {
    let now = w.now();
    let ptw = w.cfg.costs.arm64.ptw_ns;
    let cost = if w.cfg.design.dsb_before_dec {
        // Worst case: a walk started just before the MSR; the DSB waits for all of it.
        ptw
    } else {
        let f = Fields {
            mm: prev,
            asid: 0,
            ..Fields::default()
        };
        let row = w.trace.span(now, ptw, cpu, EventKind::PageWalk, f);
        w.arch_state.arm64.walk[cpu.index()] = Some(Walk {
            mm: prev,
            until: now.saturating_add(ptw),
            row,
        });
        0
    };
    change_nr_active(w, cpu, prev, false, None);
    cost
}

fn set_loaded(w: &mut World, cpu: CpuId, mm: MmId, asid: u16) {
    let ts = &mut w.arch_state.arm64.loaded[cpu.index()];
    let prev = ts.loaded_mm;
    ts.loaded_mm = mm;
    ts.loaded_mm_asid = asid;
    if prev != mm {
        if let Some(m) = w.mms.get_mut(prev.0 as usize) {
            m.loaded_on = m.loaded_on.saturating_sub(1);
        }
        if let Some(m) = w.mms.get_mut(mm.0 as usize) {
            m.loaded_on += 1;
        }
    }
    if mm != MmId::INIT_MM {
        let gen = w.mms[mm.0 as usize].tlb_gen;
        if let Some(s) = w.arch_state.arm64.walk_synced[cpu.index()].get_mut(mm.0 as usize) {
            if *s == NOTHING_CACHED {
                *s = gen;
            }
        }
    }
}

/// `switch_mm()` → (skip series: `nr_active_mm(next)++`) → `check_and_switch_context()`
/// → (skip series: stale-bit ASID flush) → `cpu_switch_mm()` → (skip series: `DSB ISH` if
/// `dsb_before_dec`, `nr_active_mm(prev)--`).
pub fn switch_mm(w: &mut World, cpu: CpuId, next: MmId) -> Ns {
    let now = w.now();
    let skip = w.cfg.design.broadcast_skip;
    let c = cpu.index();
    let ts = &mut w.arch_state.arm64.loaded[c];
    let prev = ts.loaded_mm;
    let was_lazy = ts.is_lazy;
    ts.is_lazy = false;
    if was_lazy {
        if let Some(r) = w.cpus[c].lazy_row.take() {
            w.trace.end(r, now);
        }
    }
    // Idle installed the reserved TTBR0 and left nr_active_mm (skip series only).
    let from_idle = skip && !w.arch_state.arm64.not_lazy[c];
    if (prev == next && !from_idle) || next.0 as usize >= w.mms.len() {
        return 0;
    }
    let mut cost = w.cfg.costs.switch_mm_ns;
    if skip {
        w.arch_state.arm64.not_lazy[c] = true;
        change_nr_active(w, cpu, next, true, None);
    }
    let (ctx_cost, asid, flushed) = asid::check_and_switch_context(w, cpu, next);
    cost = cost.saturating_add(ctx_cost);
    if skip {
        cost = cost.saturating_add(flush::flush_stale_asid(w, cpu, next, asid));
    }
    set_loaded(w, cpu, next, asid);
    if skip && !from_idle && prev != MmId::INIT_MM && prev != next {
        cost = cost.saturating_add(leave_mm(w, cpu, prev));
    }
    let f = Fields {
        mm: next,
        asid,
        gen: w
            .arch_state
            .arm64
            .gen_of(w.arch_state.arm64.ctx[next.0 as usize]),
        arg: flushed as u64,
        ..Fields::default()
    };
    w.trace.span(now, cost, cpu, EventKind::SwitchMm, f);
    cost
}

/// Mainline: nothing (TTBR0 keeps the user mm). Skip series: a kernel thread keeps
/// counting as active; idle marks the CPU lazy, installs the reserved TTBR0, (DSB,) and
/// leaves `nr_active_mm`.
pub fn enter_lazy_tlb(w: &mut World, cpu: CpuId) {
    let now = w.now();
    let c = cpu.index();
    let ts = &w.arch_state.arm64.loaded[c];
    let mm = ts.loaded_mm;
    if mm == MmId::INIT_MM {
        return;
    }
    let idle = w.cpus[c].curr.is_none();
    if !ts.is_lazy {
        let f = Fields {
            mm,
            asid: ts.loaded_mm_asid,
            ..Fields::default()
        };
        let row = w.trace.begin(now, cpu, EventKind::Lazy, f);
        w.arch_state.arm64.loaded[c].is_lazy = true;
        w.cpus[c].lazy_row = Some(row);
    }
    if w.cfg.design.broadcast_skip && idle && w.arch_state.arm64.not_lazy[c] {
        w.arch_state.arm64.not_lazy[c] = false;
        set_loaded(w, cpu, MmId::INIT_MM, 0);
        leave_mm(w, cpu, mm);
    }
}
