//! Address-space switches on x86 (`arch/x86/mm/tlb.c`):
//! `switch_mm_irqs_off` with case A (same mm, catch up after lazy) and case B (set the cpumask
//! bit, read `tlb_gen`, find or evict a slot; flush only if the slot is behind or new, else
//! CR3_NOFLUSH), `choose_new_asid`, and `enter_lazy_tlb`.
//!
//! The scheduler's case-B switch is split where ordering matters (race R7, invariant I5):
//! 1. at the switch, the stores of `loaded_mm = LOADED_MM_SWITCHING` and `is_lazy = false`
//!    and the `mm_cpumask` bit; then the barrier; then the read of `next->context.tlb_gen`
//!    and `choose_new_asid`'s decision (flush or `CR3_NOFLUSH`);
//! 2. with `switch_mm_barrier = none` and the bit already set (no locked RMW), the stores
//!    wait in the store buffer: a timer [`TIMER_DRAIN`] makes them visible later;
//! 3. the CR3 write ([`TIMER_CR3`]), serializing, so it retires only after the drain; then
//!    `loaded_mm = next` and interrupts back on.
//!
//! Between 1 and 3 interrupts stay off (`switch_mm_irqs_off`), so an IPI waits, and the
//! task's next step waits for the CR3 write (`check/order.rs` keeps both edges when the
//! checker lets any pending event go first). A flusher that reads this CPU meanwhile sees
//! `LOADED_MM_SWITCHING` and IPIs it, unless the stores are still buffered: then it sees the
//! old `loaded_mm` / `is_lazy` and sends nothing, while this CPU read the old `tlb_gen` and
//! keeps its stale entries (R7). With `full` and no other event in between, a timed run is
//! the atomic switch it was: the CR3 timer fires at the switch's own instant.
//!
//! Not split: a switch to `init_mm` (`flush_tlb_func` leaving lazy mode; kernel flushes IPI
//! everyone), case A (same mm: A.4's `smp_mb()` has always been there), and machines with
//! INVLPGB, whose global ASIDs need no generation read and whose `finish_asid_transition`
//! spin on `LOADED_MM_SWITCHING` the model does not have.

use super::state::{slot_of, AsidSlot, PendingSwitch, NR_DYN_ASIDS};
use crate::config::SwitchMmBarrier;
use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns};
use crate::machine::{Ev, World};
use crate::trace::Fields;

/// `Ev::arch_timer` data of a switch's buffered stores becoming visible (INVLPGB completion
/// timers count up from 0, so they never reach these).
pub const TIMER_DRAIN: u32 = u32::MAX - 1;
/// `Ev::arch_timer` data of a switch's CR3 write.
pub const TIMER_CR3: u32 = u32::MAX;

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

/// `switch_mm_irqs_off()` in one step: case A / case B, the ASID choice and the CR3
/// write (`flush_tlb_func`'s switches, inside an IPI handler).
pub fn switch_mm_irqs_off(w: &mut World, cpu: CpuId, next: MmId) -> Ns {
    switch(w, cpu, next, false)
}

/// The scheduler's `switch_mm_irqs_off()`: a case-B switch to a user mm is split into the
/// steps of the module comment.
pub fn switch_mm_sched(w: &mut World, cpu: CpuId, next: MmId) -> Ns {
    let split = next != MmId::INIT_MM && !w.cfg.design.invlpgb;
    switch(w, cpu, next, split)
}

fn switch(w: &mut World, cpu: CpuId, next: MmId, split: bool) -> Ns {
    let now = w.now();
    let ts = &mut w.arch_state.x86.cpu_tlbstate[cpu.index()];
    let prev = ts.loaded_mm;
    let was_lazy = ts.is_lazy;
    ts.is_lazy = false;
    if was_lazy {
        w.arch_state.x86.loaded_bits.set_lazy(cpu, false);
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
        if !was_lazy || ts.ctxs[slot_of(asid)].tlb_gen == next_gen {
            return 0;
        } else {
            (asid, true)
        }
    } else {
        // Case B: publish ourselves in mm_cpumask before reading tlb_gen (I5); the bit of
        // prev is not cleared (lazy cpumask maintenance). Setting the bit is a locked RMW,
        // a full barrier; a bit already set leaves the barrier to `smp_mb()` (R7).
        let newly = !w.mms[next.0 as usize].cpumask.contains(cpu);
        w.mms[next.0 as usize].cpumask.set(cpu);
        // Its miss, if any, is inside `switch_mm_ns`; it still holds the line for its transfer.
        let now = w.now();
        super::flush_entry::read_tlb_gen(w, cpu, next, now);
        let (asid, need_flush) = match global {
            Some(g) => (g, false),
            None => choose_new_asid(w, cpu, ctx_id, next_gen),
        };
        if split {
            let buffered = !newly && w.cfg.design.switch_mm_barrier == SwitchMmBarrier::None;
            return begin_split(w, cpu, next, asid, need_flush, next_gen, buffered, was_lazy);
        }
        (asid, need_flush)
    };
    let cost = record(w, cpu, next, asid, need_flush, next_gen);
    write_cr3(w, cpu, next, asid, need_flush, next_gen);
    cost
}

/// The switch's `SwitchMm` span and counters, at the moment it decided (the `tlb_gen` read);
/// returns its cost.
fn record(w: &mut World, cpu: CpuId, next: MmId, asid: u16, need_flush: bool, gen: u64) -> Ns {
    let now = w.now();
    let costs = &w.cfg.costs;
    let mut cost = costs.switch_mm_ns;
    let f = Fields {
        mm: next,
        asid,
        gen,
        arg: need_flush as u64,
        ..Fields::default()
    };
    w.stats.x86_ops.cr3_writes += 1;
    if need_flush {
        cost = cost.saturating_add(costs.full_flush_ns);
        w.stats.switch_flushes += 1;
        w.stats.x86_ops.cr3_flushes += 1;
    }
    w.trace.span(now, cost, cpu, EventKind::SwitchMm, f);
    cost
}

/// The reload: the slot's new generation, the CR3 write (flushing the slot's PCID unless
/// `CR3_NOFLUSH`), then `loaded_mm = next` (CR3 is written before `loaded_mm`).
fn write_cr3(w: &mut World, cpu: CpuId, next: MmId, asid: u16, need_flush: bool, gen: u64) {
    let ctx_id = w.mms.get(next.0 as usize).map_or(0, |m| m.ctx_id);
    let ts = &mut w.arch_state.x86.cpu_tlbstate[cpu.index()];
    let prev = ts.loaded_mm;
    if need_flush {
        ts.ctxs[slot_of(asid)] = AsidSlot {
            ctx_id,
            tlb_gen: gen,
        };
    }
    ts.loaded_mm = next;
    ts.loaded_mm_asid = asid;
    if prev != next {
        w.arch_state.x86.loaded_bits.switch(cpu, prev, next);
        if let Some(m) = w.mms.get_mut(prev.0 as usize) {
            m.loaded_on = m.loaded_on.saturating_sub(1);
        }
        if let Some(m) = w.mms.get_mut(next.0 as usize) {
            m.loaded_on += 1;
        }
    }
    if need_flush {
        // CR3 write without NOFLUSH: this PCID's entries are gone.
        let tag = tlb_tag(w, cpu);
        w.cpus[cpu.index()].tlb.flush_tag(tag);
        super::pti::invalidate_user_asid(w, cpu);
    }
}

/// Step 1 of a split switch: the decision is made and recorded; interrupts stay off until
/// the CR3 write, which a timer performs (after the drain, when the stores are buffered).
#[allow(clippy::too_many_arguments)]
fn begin_split(
    w: &mut World,
    cpu: CpuId,
    next: MmId,
    asid: u16,
    need_flush: bool,
    gen: u64,
    buffered: bool,
    was_lazy: bool,
) -> Ns {
    let cost = record(w, cpu, next, asid, need_flush, gen);
    let x86 = &mut w.arch_state.x86;
    x86.switching_n += x86.switching[cpu.index()].is_none() as u32;
    x86.switching[cpu.index()] = Some(PendingSwitch {
        next,
        asid,
        need_flush,
        gen,
        buffered,
        was_lazy,
    });
    w.cpus[cpu.index()].irqs_off += 1;
    if buffered {
        // The CR3 write retires once the stores drained; both within the switch's own cost,
        // before the task's next step.
        let drain = w.cfg.costs.x86.store_buffer_drain_ns.min(cost);
        w.queue.after(drain, Ev::arch_timer(cpu.0, TIMER_DRAIN));
        w.queue.after(drain, Ev::arch_timer(cpu.0, TIMER_CR3));
    } else {
        w.queue.after(0, Ev::arch_timer(cpu.0, TIMER_CR3));
    }
    cost
}

/// The buffered stores of `cpu`'s switch reach the other CPUs: from now on they read
/// `LOADED_MM_SWITCHING` and `is_lazy = false`.
pub fn drain(w: &mut World, cpu: CpuId) {
    if let Some(s) = w.arch_state.x86.switching[cpu.index()].as_mut() {
        s.buffered = false;
    }
}

/// The CR3 write of `cpu`'s split switch (serializing: anything still buffered drains
/// first), then `loaded_mm = next`, interrupts back on, and a pending IPI or reschedule.
pub fn cr3(w: &mut World, cpu: CpuId) {
    let Some(s) = w.arch_state.x86.switching[cpu.index()].take() else {
        return;
    };
    w.arch_state.x86.switching_n -= 1;
    write_cr3(w, cpu, s.next, s.asid, s.need_flush, s.gen);
    let c = &mut w.cpus[cpu.index()];
    c.irqs_off = c.irqs_off.saturating_sub(1);
    w.irqs_back_on(cpu);
    w.check_resched(cpu);
}

/// What other CPUs read of `cpu`'s `loaded_mm` and `is_lazy` (`should_flush_tlb`): `None`
/// for `LOADED_MM_SWITCHING`.
pub fn visible_loaded(w: &World, cpu: CpuId) -> (Option<MmId>, bool) {
    let ts = &w.arch_state.x86.cpu_tlbstate[cpu.index()];
    match w
        .arch_state
        .x86
        .switching
        .get(cpu.index())
        .copied()
        .flatten()
    {
        Some(s) if s.buffered => (Some(ts.loaded_mm), s.was_lazy),
        Some(_) => (None, false),
        None => (Some(ts.loaded_mm), ts.is_lazy),
    }
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
    let (mm, asid) = (ts.loaded_mm, ts.loaded_mm_asid);
    w.arch_state.x86.loaded_bits.set_lazy(cpu, true);
    let f = Fields {
        mm,
        asid,
        ..Fields::default()
    };
    let row = w.trace.begin(now, cpu, EventKind::Lazy, f);
    w.cpus[cpu.index()].lazy_row = Some(row);
}
