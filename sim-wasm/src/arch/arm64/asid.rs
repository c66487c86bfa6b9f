//! The arm64 ASID allocator (`arch/arm64/mm/context.c`, race R17).
//!
//! A context id is `generation | asid`. Switching to an mm whose id carries the current
//! generation takes the fast path (a cmpxchg on this CPU's `active_asids`); otherwise the slow
//! path takes `cpu_asid_lock`, allocates (`new_context`), and — if a rollover happened since
//! this CPU last came here — does its one local `VMALLE1` (`tlb_flush_pending`). A rollover
//! (`flush_context`) costs no IPI and no broadcast: it zeroes every CPU's `active_asids`,
//! keeping the ASIDs that were live as `reserved_asids` so their mms keep their numbers.
//!
//! R17 (fast-path cmpxchg vs rollover): the model's events are atomic, so the cmpxchg either
//! happens before the rollover's xchg (which then reserves the ASID it installed) or after it
//! (it reads 0 and takes the slow path). Both orders are reachable and I17 checks both.

use super::checks;
use super::state::Arm64State;
use super::state::TlbiOp;
use super::tlbi;
use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns};
use crate::machine::World;
use crate::trace::Fields;

fn generation_matches(st: &Arm64State, ctx: u64) -> bool {
    ctx != 0 && (ctx >> st.asid_bits) == (st.generation >> st.asid_bits)
}

fn test_bit(map: &[u64], i: u64) -> bool {
    map.get((i / 64) as usize)
        .is_some_and(|w| w & (1 << (i % 64)) != 0)
}

fn set_bit(map: &mut [u64], i: u64) {
    if let Some(w) = map.get_mut((i / 64) as usize) {
        *w |= 1 << (i % 64);
    }
}

/// `find_next_zero_bit(asid_map, NUM_USER_ASIDS, from)`.
fn find_free(st: &Arm64State, from: u64) -> Option<u64> {
    let num = 1u64 << st.asid_bits;
    (from.max(1)..num).find(|&i| !test_bit(&st.asid_map, i))
}

/// `check_and_switch_context(mm)` on `cpu`: returns (cost, hardware ASID, whether the CPU
/// flushed its whole TLB for a pending rollover).
pub fn check_and_switch_context(w: &mut World, cpu: CpuId, mm: MmId) -> (Ns, u16, bool) {
    let c = cpu.index();
    let m = mm.0 as usize;
    let costs = &w.cfg.costs.arm64;
    let (fast_ns, slow_ns) = (costs.asid_fast_ns, costs.asid_slow_ns);
    let mut ctx = w.arch_state.arm64.ctx[m];
    let old_active = w.arch_state.arm64.active_asids[c];
    let mut flushed = false;
    let mut cost;
    if old_active != 0 && generation_matches(&w.arch_state.arm64, ctx) {
        // Fast path: cmpxchg_relaxed(active_asids, old_active, ctx) succeeds.
        checks::check_fast_path(w, cpu, mm);
        w.arch_state.arm64.active_asids[c] = ctx;
        cost = fast_ns;
    } else {
        cost = slow_ns;
        if !generation_matches(&w.arch_state.arm64, ctx) {
            let (id, c2) = new_context(w, cpu, mm);
            ctx = id;
            w.arch_state.arm64.ctx[m] = ctx;
            cost = cost.saturating_add(c2);
        }
        if w.arch_state.arm64.flush_pending[c] {
            w.arch_state.arm64.flush_pending[c] = false;
            cost = cost.saturating_add(tlbi::local(w, cpu, mm, TlbiOp::Vmalle1, 0, 0, None));
            flushed = true;
        }
        w.arch_state.arm64.active_asids[c] = ctx;
    }
    checks::check_generation(w, cpu, mm, ctx);
    (cost, (ctx & w.arch_state.arm64.asid_mask()) as u16, flushed)
}

/// `new_context(mm)`: keep the old number if it is reserved or still free in the new
/// generation, else take the next free one, rolling over when none is left. Returns the new
/// context id and the extra cost of a rollover.
fn new_context(w: &mut World, cpu: CpuId, mm: MmId) -> (u64, Ns) {
    let now = w.now();
    let mask = w.arch_state.arm64.asid_mask();
    let old = w.arch_state.arm64.ctx[mm.0 as usize];
    let mut cost = 0;
    if old != 0 {
        let asid = old & mask;
        let newid = w.arch_state.arm64.generation | asid;
        // check_update_reserved_asid(): every CPU that reserved `old` now holds `newid`.
        let mut hit = false;
        for r in &mut w.arch_state.arm64.reserved_asids {
            if *r == old {
                *r = newid;
                hit = true;
            }
        }
        if hit {
            return (newid, cost);
        }
        if !test_bit(&w.arch_state.arm64.asid_map, asid) {
            set_bit(&mut w.arch_state.arm64.asid_map, asid);
            return (newid, cost);
        }
    }
    let asid = match find_free(&w.arch_state.arm64, w.arch_state.arm64.cur_idx as u64) {
        Some(a) => a,
        None => {
            w.arch_state.arm64.generation = w
                .arch_state
                .arm64
                .generation
                .saturating_add(1 << w.arch_state.arm64.asid_bits);
            flush_context(w, cpu);
            cost = w
                .cfg
                .costs
                .arm64
                .rollover_cpu_ns
                .saturating_mul(w.cfg.cpus as u64);
            // Validation keeps 2^bits − 1 ≥ cpus + 2, so a free ASID exists; 1 is a safe
            // fallback that `check_unique` would flag.
            find_free(&w.arch_state.arm64, 1).unwrap_or(1)
        }
    };
    set_bit(&mut w.arch_state.arm64.asid_map, asid);
    w.arch_state.arm64.cur_idx = asid as u32;
    let id = w.arch_state.arm64.generation | asid;
    // Skip series: a fresh ASID cannot be stale anywhere (tlb_flush_pending covers it).
    if w.cfg.design.broadcast_skip {
        if let Some(m) = w.mms.get_mut(mm.0 as usize) {
            m.cpumask = crate::mm::CpuMask::new(w.cfg.cpus);
        }
    }
    checks::check_unique(w, cpu, mm, id);
    let f = Fields {
        mm,
        asid: asid as u16,
        gen: w.arch_state.arm64.gen_of(id),
        ..Fields::default()
    };
    w.trace.instant(now, cpu, EventKind::AsidAllocated, f);
    (id, cost)
}

/// `flush_context()`: the rollover. Every CPU's live ASID becomes reserved, the map is reset
/// to the reserved ones, and every CPU owes a local full flush.
fn flush_context(w: &mut World, cpu: CpuId) {
    let now = w.now();
    let mask = w.arch_state.arm64.asid_mask();
    let st = &mut w.arch_state.arm64;
    st.asid_map.iter_mut().for_each(|x| *x = 0);
    set_bit(&mut st.asid_map, 0);
    for c in 0..st.active_asids.len() {
        let mut asid = std::mem::replace(&mut st.active_asids[c], 0);
        // A CPU that already took the slow path since the last rollover keeps its reserve.
        if asid == 0 {
            asid = st.reserved_asids[c];
        }
        set_bit(&mut st.asid_map, asid & mask);
        st.reserved_asids[c] = asid;
    }
    st.flush_pending.iter_mut().for_each(|p| *p = true);
    w.stats.asid_rollovers += 1;
    let f = Fields {
        gen: w.arch_state.arm64.gen_of(w.arch_state.arm64.generation),
        ..Fields::default()
    };
    w.trace.instant(now, cpu, EventKind::AsidRollover, f);
}
