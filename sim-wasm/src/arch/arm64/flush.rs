//! `__flush_tlb_range()` / `flush_tlb_page()` / `flush_tlb_mm()` on arm64, mainline and with
//! the skip-broadcast series (`arch/arm64/include/asm/tlbflush.h`; Andrea Arcangeli, "arm64: tlb:
//! skip tlbi broadcast", v2 2020, not merged).
//!
//! Mainline: the PTE change, then `DSB ISHST; TLBI VALE1IS|VAE1IS × pages; DSB ISH` — ranges of
//! `MAX_DVM_OPS` pages or more become one `ASIDE1IS` (with FEAT_TLBIRANGE: a few range ops, see
//! `range.rs`). Always broadcast, no cpumask.
//!
//! Skip series: under `get_cpu()`, `tlb_flush_check()` decides:
//! 1. `nr_active_mm > 1` ⇒ broadcast;
//! 2. else mark every other CPU stale in `mm_cpumask` (`cpumask_setall`), `smp_mb()`, re-read:
//!    the caller runs the mm (not lazily) ⇒ local TLBIs; nobody runs it ⇒ no TLBI; else
//!    broadcast. A stale CPU flushes the ASID locally when it next switches to the mm.
//!
//! With `skip_rule = mm_users` the RFC's test `mm_users <= 1 && current->mm == mm` replaces 1–2.

use super::checks;
use super::state::TlbiOp;
use super::tlbi;
use crate::config::SkipRule;
use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns, TaskId};
use crate::machine::World;
use crate::task::{Cont, FlushPhase, TaskState};
use crate::trace::{Fields, Row};

/// `tlb_flush_check()` outcomes (the `arg` of `TlbFlushChecked`).
pub const TLB_FLUSH_NO: u8 = 0;
pub const TLB_FLUSH_LOCAL: u8 = 1;
pub const TLB_FLUSH_BROADCAST: u8 = 2;

fn op_for(w: &World, pages: u32, freed_tables: bool) -> TlbiOp {
    if super::range::falls_back_to_asid(&w.cfg, pages) {
        TlbiOp::Aside1
    } else if freed_tables {
        TlbiOp::Vae1
    } else {
        TlbiOp::Vale1
    }
}

fn put_cpu(w: &mut World, cpu: CpuId) {
    if let Some(d) = w.preempt_enable_no_resched(cpu) {
        w.stats.preempt_off.push(d as f64);
    }
}

/// Skip series, `check_and_switch_context()` end: if this CPU is marked stale for `mm`, clear
/// the bit and flush the ASID locally before TTBR0 gets it. Returns the cost.
pub fn flush_stale_asid(w: &mut World, cpu: CpuId, mm: MmId, _asid: u16) -> Ns {
    let stale = w
        .mms
        .get(mm.0 as usize)
        .is_some_and(|m| m.cpumask.contains(cpu));
    if !stale {
        return 0;
    }
    w.mms[mm.0 as usize].cpumask.clear(cpu);
    tlbi::local(w, cpu, mm, TlbiOp::Aside1, 0, 0, None)
}

/// `tlb_flush_check(mm, cpu)` for task `t`.
fn tlb_flush_check(w: &mut World, t: TaskId, cpu: CpuId, mm: MmId) -> u8 {
    let c = cpu.index();
    let runs_it = w.tasks[t.index()].mm == mm && w.arch_state.arm64.not_lazy[c];
    let count = w.arch_state.arm64.nr_active_mm(mm);
    let mark_others_stale = |w: &mut World, keep_own: bool| {
        let m = &mut w.mms[mm.0 as usize];
        for o in 0..w.cfg.cpus {
            if o != cpu.0 || !keep_own {
                m.cpumask.set(CpuId(o));
            }
        }
        if keep_own {
            m.cpumask.clear(cpu);
        }
    };
    match w.cfg.design.skip_rule {
        SkipRule::MmUsers => {
            let users = w
                .tasks
                .iter()
                .filter(|x| x.mm == mm && x.state != TaskState::Done)
                .count();
            if users <= 1 && w.tasks[t.index()].mm == mm {
                mark_others_stale(w, true);
                TLB_FLUSH_LOCAL
            } else {
                TLB_FLUSH_BROADCAST
            }
        }
        SkipRule::ActiveMm => {
            if count > 1 {
                return TLB_FLUSH_BROADCAST;
            }
            // cpumask_setall (our own bit only if we will not flush here); smp_mb(); re-read
            // nr_active_mm — the same value, since the model's check is one atomic event.
            mark_others_stale(w, runs_it);
            if runs_it {
                TLB_FLUSH_LOCAL
            } else if count == 0 {
                TLB_FLUSH_NO
            } else {
                TLB_FLUSH_BROADCAST
            }
        }
    }
}

/// Phase `Begin`: change the PTEs, then (skip series) `get_cpu()` + `tlb_flush_check()`.
pub fn begin(w: &mut World, t: TaskId) {
    let now = w.now();
    let Some(mut op) = w.tasks[t.index()].flush.take() else {
        return w.step(t, 0, true, Cont::NextOp);
    };
    let cpu = w.tasks[t.index()].cpu;
    let mm = op.mm;
    op.cpu = cpu;
    op.started = now;
    let Some(m) = w.mms.get_mut(mm.0 as usize) else {
        return w.step(t, 0, true, Cont::NextOp);
    };
    let gen = World::open_flush_range(&mut w.trace, m, &mut op, cpu, now).gen;
    World::trim_gen_ranges(&mut w.mms, &w.arch_state, mm);
    let mut cost = 0;
    op.check = if w.cfg.design.broadcast_skip {
        w.preempt_disable(cpu, mm);
        let k = &w.cfg.costs.arm64;
        cost = k
            .preempt_op_ns
            .saturating_add(k.flush_check_ns)
            .saturating_add(super::percpu::cpu_id_cost(&w.cfg, 1));
        let check = tlb_flush_check(w, t, cpu, mm);
        let f = Fields {
            mm,
            gen,
            arg: check as u64,
            parent: Some(op.flush_row),
            ..Fields::default()
        };
        w.trace.instant(now, cpu, EventKind::TlbFlushChecked, f);
        if check != TLB_FLUSH_BROADCAST {
            checks::check_skip_handshake(w, cpu, mm, check);
        }
        check
    } else {
        TLB_FLUSH_BROADCAST
    };
    w.tasks[t.index()].flush = Some(op);
    w.step(t, cost, false, Cont::Flush(FlushPhase::Dispatch));
}

/// Phase `Dispatch`: the TLBIs.
pub fn dispatch(w: &mut World, t: TaskId) {
    let Some(op) = w.tasks[t.index()].flush.as_ref() else {
        return w.step(t, 0, true, Cont::NextOp);
    };
    let (cpu, mm, start, pages, check, row): (CpuId, MmId, u32, u32, u8, Row) =
        (op.cpu, op.mm, op.start, op.pages, op.check, op.flush_row);
    let tlbi_op = op_for(w, pages, op.freed_tables);
    match check {
        TLB_FLUSH_LOCAL => {
            w.stats.local_flushes += 1;
            let cost = tlbi::local(w, cpu, mm, tlbi_op, start, pages, Some(row));
            w.step(t, cost, false, Cont::Flush(FlushPhase::LocalDone));
        }
        TLB_FLUSH_NO => {
            w.stats.skipped_flushes += 1;
            put_cpu(w, cpu);
            done(w, t);
        }
        _ => {
            if w.cfg.design.broadcast_skip {
                put_cpu(w, cpu);
            }
            let b = tlbi::broadcast(w, t, cpu, mm, tlbi_op, start, pages, row);
            if let Some(op) = w.tasks[t.index()].flush.as_mut() {
                op.wait_row = Some(b);
            }
        }
    }
}

/// Phase `LocalDone`: the DSB completed; the flush returns and the caller may free the pages
/// (and page tables).
pub fn done(w: &mut World, t: TaskId) {
    let now = w.now();
    let Some(op) = w.tasks[t.index()].flush.take() else {
        return w.step(t, 0, true, Cont::NextOp);
    };
    let cpu = op.cpu;
    if op.check == TLB_FLUSH_LOCAL {
        put_cpu(w, cpu);
    }
    if let Some(r) = op.wait_row {
        w.trace.end(r, now);
        w.arch_state.arm64.in_dsb[cpu.index()] = false;
    }
    w.flush_returned(&op, w.now());
    if op.freed_tables && op.check != TLB_FLUSH_BROADCAST {
        checks::check_in_flight_walks(w, cpu, op.mm, op.new_tlb_gen);
    }
    w.step(t, 0, true, Cont::NextOp);
}
