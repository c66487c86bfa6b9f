//! Address-space switches on x86 (`arch/x86/mm/tlb.c`, kernel-mechanics.md §2.1–§2.3):
//! `switch_mm_irqs_off` with case A (same mm, catch up after lazy) and case B (set the cpumask
//! bit, read `tlb_gen`, find or evict a slot; flush only if the slot is behind or new, else
//! CR3_NOFLUSH), `choose_new_asid`, and `enter_lazy_tlb`.

use super::state::{AsidSlot, NR_DYN_ASIDS};
use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns};
use crate::machine::World;
use crate::trace::Fields;

/// The PCID the CPU's translations are tagged with (0 for all without PCID).
pub fn tlb_tag(w: &World, cpu: CpuId) -> u16 {
    if w.cfg.design.pcid {
        w.arch_state.x86.cpu_tlbstate[cpu.index()].loaded_mm_asid
    } else {
        0
    }
}

/// `choose_new_asid(next, next_tlb_gen)` → (slot, need_flush).
fn choose_new_asid(w: &mut World, cpu: CpuId, ctx_id: u64, next_gen: u64) -> (u16, bool) {
    if !w.cfg.design.pcid {
        return (0, true);
    }
    let ts = &mut w.arch_state.x86.cpu_tlbstate[cpu.index()];
    if let Some(i) = ts.ctxs.iter().position(|s| s.ctx_id == ctx_id) {
        return (i as u16, ts.ctxs[i].tlb_gen < next_gen);
    }
    let mut asid = ts.next_asid;
    ts.next_asid += 1;
    if asid as usize >= NR_DYN_ASIDS {
        asid = 0;
        ts.next_asid = 1;
    }
    (asid, true)
}

/// `switch_mm_irqs_off()` (§2.1): case A / case B, the ASID choice and the CR3 write.
pub fn switch_mm_irqs_off(w: &mut World, cpu: CpuId, next: MmId) -> Ns {
    let now = w.now();
    let ts = &mut w.arch_state.x86.cpu_tlbstate[cpu.index()];
    let prev = ts.loaded_mm;
    let was_lazy = ts.is_lazy;
    ts.is_lazy = false;
    if was_lazy {
        if let Some(r) = w.cpus[cpu.index()].lazy_row.take() {
            w.trace.end(r, now);
        }
    }
    let Some(next_mm) = w.mms.get(next.0 as usize) else {
        return 0;
    };
    let (ctx_id, next_gen) = (next_mm.ctx_id, next_mm.tlb_gen);
    // INVLPGB keeps a global ASID fresh on every CPU: no slot, no gen check, no flush.
    let global =
        super::invlpgb::global_asid(w, next).filter(|_| w.cfg.design.invlpgb && w.cfg.design.pcid);
    let (asid, need_flush) = if prev == next {
        let ts = &w.arch_state.x86.cpu_tlbstate[cpu.index()];
        let asid = ts.loaded_mm_asid;
        if let Some(g) = global {
            // Case A during a transition: move from the dynamic ASID to the global one.
            if asid == g {
                return 0;
            }
            (g, false)
        } else
        // Case A: if we were not lazy we received every IPI; otherwise catch up on the
        // flushes we skipped (R9).
        if !was_lazy || ts.ctxs[asid as usize % NR_DYN_ASIDS].tlb_gen == next_gen {
            return 0;
        } else {
            (asid, true)
        }
    } else {
        // Case B: publish ourselves in mm_cpumask before reading tlb_gen (I5); the bit of
        // prev is not cleared (lazy cpumask maintenance).
        w.mms[next.0 as usize].cpumask.set(cpu);
        super::flush_entry::touch_tlb_gen(w, cpu, next);
        match global {
            Some(g) => (g, false),
            None => choose_new_asid(w, cpu, ctx_id, next_gen),
        }
    };
    let costs = &w.cfg.costs;
    let mut cost = costs.switch_mm_ns;
    let ts = &mut w.arch_state.x86.cpu_tlbstate[cpu.index()];
    if need_flush {
        ts.ctxs[asid as usize % NR_DYN_ASIDS] = AsidSlot {
            ctx_id,
            tlb_gen: next_gen,
        };
    }
    ts.loaded_mm = next;
    ts.loaded_mm_asid = asid;
    if prev != next {
        if let Some(m) = w.mms.get_mut(prev.0 as usize) {
            m.loaded_on = m.loaded_on.saturating_sub(1);
        }
        w.mms[next.0 as usize].loaded_on += 1;
    }
    let tag = tlb_tag(w, cpu);
    let f = Fields {
        mm: next,
        asid,
        gen: next_gen,
        arg: need_flush as u64,
        ..Fields::default()
    };
    w.stats.x86_ops.cr3_writes += 1;
    if need_flush {
        // CR3 write without NOFLUSH: this PCID's entries are gone.
        w.cpus[cpu.index()].tlb.flush_tag(tag);
        cost = cost.saturating_add(costs.full_flush_ns);
        w.stats.switch_flushes += 1;
        w.stats.x86_ops.cr3_flushes += 1;
        super::pti::invalidate_user_asid(w, cpu);
    }
    w.trace.span(now, cost, cpu, EventKind::SwitchMm, f);
    cost
}

/// `enter_lazy_tlb()`: a kernel thread or idle keeps the user mm loaded and stops
/// receiving flush IPIs for it (`should_flush_tlb` skips lazy CPUs).
pub fn enter_lazy_tlb(w: &mut World, cpu: CpuId) {
    let now = w.now();
    let ts = &mut w.arch_state.x86.cpu_tlbstate[cpu.index()];
    if ts.loaded_mm == MmId::INIT_MM || ts.is_lazy {
        return;
    }
    ts.is_lazy = true;
    let f = Fields {
        mm: ts.loaded_mm,
        asid: ts.loaded_mm_asid,
        ..Fields::default()
    };
    let row = w.trace.begin(now, cpu, EventKind::Lazy, f);
    w.cpus[cpu.index()].lazy_row = Some(row);
}
