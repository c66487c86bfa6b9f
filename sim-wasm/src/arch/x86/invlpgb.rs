//! AMD's broadcast invalidation (`broadcast_tlb_flush()`, the 2025 series in
//! arch/x86/mm/tlb.c): an mm active on more than 3 CPUs gets a global ASID, one PCID every CPU
//! uses for it; its flushes are `INVLPGB`s that every CPU performs without an IPI, and `TLBSYNC`
//! waits until the INVLPGBs *this CPU* issued are done (hence R12: the task must not move
//! between the two). While some CPU still runs the mm under a per-CPU dynamic ASID
//! (`asid_transition`), flushes send IPIs as well (else R13).
//!
//! The model's global ASIDs are 6..=15 (tags of their own in the TLB); the kernel's pool is
//! about 4,000. When the model's ten are taken, further mms stay on IPIs.

use super::state::NR_DYN_ASIDS;
use crate::ids::{CpuId, MmId, Ns, TaskId};
use crate::machine::{Ev, World};

pub use super::state::{Broadcast, FIRST_GLOBAL, USER_TAG};

/// The last global ASID the model hands out.
pub const LAST_GLOBAL: u16 = 15;

/// `mm_active_cpus_exceeds(mm, 3)`: a global ASID pays off from 4 active CPUs on.
const ACTIVE_THRESHOLD: usize = 3;

/// The mm's global ASID, if it has one.
pub fn global_asid(w: &World, mm: MmId) -> Option<u16> {
    let g = *w.arch_state.x86.global_asid.get(mm.0 as usize)?;
    (g != 0).then_some(g)
}

/// Whether `asid` is a global one (no per-CPU slot behind it).
pub fn is_global(asid: u16) -> bool {
    asid as usize >= NR_DYN_ASIDS
}

/// Whether flushes of `mm` go out as INVLPGB.
pub fn uses_broadcast(w: &World, mm: MmId) -> bool {
    w.cfg.design.invlpgb && w.cfg.design.pcid && global_asid(w, mm).is_some()
}

/// `consider_global_asid(mm)` after an IPI flush: sampled about once in 32 calls
/// (`pid & 0x1f == jiffies & 0x1f`, here the run's RNG) or at every call with
/// `global_asid=first_flush`; assigns one if the mm runs on more than 3 CPUs.
pub fn consider_global_asid(w: &mut World, mm: MmId) {
    if !w.cfg.design.invlpgb || !w.cfg.design.pcid || global_asid(w, mm).is_some() {
        return;
    }
    if !w.cfg.design.global_asid_first_flush && !w.rng.chance(1.0 / 32.0) {
        return;
    }
    let active = w
        .arch_state
        .x86
        .cpu_tlbstate
        .iter()
        .filter(|ts| ts.loaded_mm == mm && !ts.is_lazy)
        .count();
    if active <= ACTIVE_THRESHOLD {
        return;
    }
    let x = &mut w.arch_state.x86;
    let g = x.next_global_asid.max(FIRST_GLOBAL);
    if g > LAST_GLOBAL {
        return;
    }
    x.next_global_asid = g + 1;
    let i = mm.0 as usize;
    if x.global_asid.len() <= i {
        x.global_asid.resize(i + 1, 0);
        x.asid_transition.resize(i + 1, false);
    }
    // use_global_asid(): the transition flag first, then the ASID (release).
    x.asid_transition[i] = true;
    x.global_asid[i] = g;
    // A fresh ASID holds nothing (the kernel flushed the space before reuse).
    for c in &mut w.cpus {
        c.tlb.flush_tag(g);
        c.tlb.flush_tag(g + USER_TAG);
    }
}

/// `broadcast_tlb_flush()`: the INVLPGBs (one per `invlpgb_count_max` pages, or one for the
/// whole PCID; twice under PTI), scheduled to be performed everywhere at completion. Returns
/// their issue cost.
pub fn issue(
    w: &mut World,
    cpu: CpuId,
    mm: MmId,
    start: u32,
    pages: u32,
    full: bool,
    after: Ns,
) -> Ns {
    let Some(g) = global_asid(w, mm) else {
        return 0;
    };
    let x = &w.cfg.costs.x86;
    let per = x.invlpgb_count_max.max(1);
    let mut n = if full {
        1
    } else {
        (pages as u64).div_ceil(per)
    };
    let tags: &[u16] = if w.cfg.design.pti {
        n = n.saturating_mul(2);
        &[g, g + USER_TAG]
    } else {
        &[g]
    };
    let cost = n.saturating_mul(x.invlpgb_ns);
    let complete = w
        .now()
        .saturating_add(after)
        .saturating_add(cost)
        .saturating_add(x.invlpgb_complete_ns);
    w.stats.x86_ops.invlpgb += n;
    for &tag in tags {
        let x = &mut w.arch_state.x86;
        let id = x.next_broadcast;
        x.next_broadcast = id.wrapping_add(1);
        let b = Broadcast {
            cpu: cpu.0,
            tag,
            start,
            pages,
            full,
        };
        x.broadcasts.insert(id, b);
        w.queue.at(complete, Ev::arch_timer(cpu.0, id));
    }
    let done = &mut w.arch_state.x86.invlpgb_done_at[cpu.index()];
    *done = (*done).max(complete);
    cost
}

/// A broadcast completes: every CPU has dropped the translations.
pub fn performed(w: &mut World, id: u32) {
    let Some(b) = w.arch_state.x86.broadcasts.remove(&id) else {
        return;
    };
    for c in &mut w.cpus {
        if b.full {
            c.tlb.flush_tag(b.tag);
        } else {
            for vpn in b.start..b.start.saturating_add(b.pages) {
                c.tlb.invalidate_page(b.tag, vpn);
            }
        }
    }
}

/// `finish_asid_transition()`: the CPUs that still run `mm` under a dynamic ASID (besides
/// `cpu`, whose own flush runs locally). While there are any, the flush IPIs them too and the
/// flag stays; once there are none, it is cleared. With `asid_transition=off` (R13) the flag
/// is ignored and nobody is IPIed.
pub fn stragglers(w: &mut World, mm: MmId) -> Vec<u16> {
    let i = mm.0 as usize;
    if !w
        .arch_state
        .x86
        .asid_transition
        .get(i)
        .copied()
        .unwrap_or(false)
    {
        return Vec::new();
    }
    let out: Vec<u16> = w
        .arch_state
        .x86
        .cpu_tlbstate
        .iter()
        .enumerate()
        .filter(|(_, ts)| ts.loaded_mm == mm && !is_global(ts.loaded_mm_asid))
        .map(|(c, _)| c as u16)
        .collect();
    if out.is_empty() {
        w.arch_state.x86.asid_transition[i] = false;
    }
    if !w.cfg.design.asid_transition {
        return Vec::new();
    }
    out
}

/// `TLBSYNC` on the CPU task `t` runs on now: the time until the INVLPGBs issued from *this*
/// CPU are done (0: it returns at once).
pub fn tlbsync_remaining(w: &World, t: TaskId) -> Ns {
    let cpu = w.tasks[t.index()].cpu;
    let x = &w.arch_state.x86;
    let left = x.invlpgb_done_at[cpu.index()].saturating_sub(w.now());
    // Not before they are performed, whatever the clock says: at their completion time the
    // timer may not have fired yet, and the interleaving checker can delay it further.
    if x.broadcasts.values().any(|b| b.cpu == cpu.0) {
        left.max(1)
    } else {
        left
    }
}

/// The CPU's current tag is the mm's global ASID.
pub fn runs_global(w: &World, cpu: CpuId) -> bool {
    w.cfg.design.pcid && is_global(w.arch_state.x86.cpu_tlbstate[cpu.index()].loaded_mm_asid)
}
