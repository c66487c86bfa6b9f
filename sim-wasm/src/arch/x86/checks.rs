//! The x86 invariants (docs/model.md lists them all), each a named check that runs at the one kind
//! of event that can break it, in O(1) (or in time the event already spends). A violation
//! becomes an `InvariantViolated` trace row and a summary entry, never a panic.
//!
//! | name | property | checked when |
//! |---|---|---|
//! | I1 | slot freshness: a slot's entries hold nothing removed at or before its `tlb_gen` | a stale translation is used |
//! | I2 | a slot's `tlb_gen` only advances past generations whose flushes were applied | a partial flush advances it |
//! | I4 | no CPU walks page tables freed by a flush that returned | a CPU walks speculatively |
//! | I5 | a flusher can see every CPU that has the mm loaded (cpumask ⊇ loaded) | a flush picks its targets |
//! | I7 | a per-CPU descriptor is not reused while a flush using it is in flight | a descriptor is taken |
//! | I8 | a per-CPU wait mask is not rewritten while a task waits on it | a wait mask is written |
//! | I13 | a partial flush covers at most `ceiling` pages | a partial flush runs |
//!
//! I3 (no use of a translation a returned flush removed) is generic: `invariants.rs`.

use super::state::slot_of;
use crate::ids::{CpuId, DescId, MmId, TaskId};
use crate::machine::{World, USER_BASE};

fn addr(vpn: u32) -> u64 {
    USER_BASE + vpn as u64 * 4096
}

/// I1 for a stale TLB hit of `mm`'s page `vpn`, changed at PTE version `version`.
///
/// Property: the CPU's slot for this mm does not claim a generation at or after the change
/// (its entries would then hold nothing removed at or before its `tlb_gen`).
pub fn check_slot_freshness(w: &mut World, cpu: CpuId, mm: MmId, vpn: u32, version: u32) -> bool {
    let ts = &w.arch_state.x86.cpu_tlbstate[cpu.index()];
    let asid = ts.loaded_mm_asid;
    if super::invlpgb::is_global(asid) {
        // A global ASID has no per-CPU slot claiming anything.
        return false;
    }
    let slot = ts.ctxs[slot_of(asid)];
    let Some(ctx_id) = w.mms.get(mm.0 as usize).map(|m| m.ctx_id) else {
        return false;
    };
    if slot.ctx_id == ctx_id && version as u64 <= slot.tlb_gen && w.cfg.design.pti {
        // Under PTI user code reads the user PCID: its twin in the kernel PCID was flushed.
        w.violate(
            "I11",
            cpu,
            mm,
            addr(vpn),
            format!(
                "CPU {}'s user PCID of slot {} still maps page {:#x} (changed at gen {}) after the slot's kernel PCID was flushed up to gen {} (R11)",
                cpu.0, asid, addr(vpn), version, slot.tlb_gen
            ),
        );
        return true;
    }
    if slot.ctx_id == ctx_id && version as u64 <= slot.tlb_gen {
        w.violate(
            "I1",
            cpu,
            mm,
            addr(vpn),
            format!(
                "CPU {}'s ASID slot {} claims mm {} is flushed up to gen {}, but still maps page {:#x} changed at gen {}",
                cpu.0, asid, mm.0, slot.tlb_gen, addr(vpn), version
            ),
        );
        return true;
    }
    false
}

/// I2: a partial flush moves a slot from `from` to `to`.
///
/// Properties:
/// 1. generations never go backwards (`to >= from`);
/// 2. every generation in `(from, to]` changed only pages inside the flushed range — else the
///    slot claims a flush that never happened (the out-of-order case R8 the "+1" rule prevents).
pub fn check_slot_advance(
    w: &mut World,
    cpu: CpuId,
    mm: MmId,
    from: u64,
    to: u64,
    start: u32,
    pages: u32,
) {
    if to < from {
        w.violate(
            "I2",
            cpu,
            mm,
            addr(start),
            format!(
                "CPU {}'s slot for mm {} went back from gen {from} to {to}",
                cpu.0, mm.0
            ),
        );
        return;
    }
    let Some(m) = w.mms.get(mm.0 as usize) else {
        return;
    };
    if let Err(g) = m.range_covers(from, to, start, pages) {
        w.violate(
            "I2",
            cpu,
            mm,
            addr(start),
            format!(
                "CPU {} advanced mm {}'s slot from gen {from} to {to} with a partial flush of {pages} page(s) at {:#x}, which does not cover the change of gen {g}",
                cpu.0, mm.0, addr(start)
            ),
        );
    }
}

/// I4: a speculative walk through the loaded page tables.
///
/// Property: if this CPU has mm M loaded (lazily or not), M's page tables freed by a returned
/// flush must not be reachable from its paging-structure caches, i.e. its slot must have
/// caught up with that flush (or it must have switched to `init_mm`).
pub fn check_speculative_walk(w: &mut World, cpu: CpuId) {
    let ts = &w.arch_state.x86.cpu_tlbstate[cpu.index()];
    let mm = ts.loaded_mm;
    if mm == MmId::INIT_MM {
        return;
    }
    let slot = ts.ctxs[slot_of(ts.loaded_mm_asid)];
    let Some(m) = w.mms.get(mm.0 as usize) else {
        return;
    };
    let freed = m.tables_freed_gen;
    if freed > 0 && (slot.ctx_id != m.ctx_id || slot.tlb_gen < freed) {
        let lazy = ts.is_lazy;
        w.violate(
            "I4",
            cpu,
            mm,
            0,
            format!(
                "{} CPU {} walked mm {}'s page tables through caches older than gen {freed}, whose flush freed page tables and returned",
                if lazy { "lazy" } else { "running" },
                cpu.0,
                mm.0
            ),
        );
    }
}

/// I5: the flusher reads `mm_cpumask` (after its full barrier).
///
/// Property: every CPU whose `loaded_mm` is the mm is in the cpumask, so the flusher can see
/// it (or the switcher reads the new `tlb_gen`). `seen` is how many CPUs of the mask have it
/// loaded, counted by the walk that picks the targets.
pub fn check_cpumask_covers_loaded(w: &mut World, cpu: CpuId, mm: MmId, seen: u32) {
    let Some(m) = w.mms.get(mm.0 as usize) else {
        return;
    };
    if seen < m.loaded_on {
        let missing = m.loaded_on - seen;
        w.violate(
            "I5",
            cpu,
            mm,
            0,
            format!(
                "{missing} CPU(s) have mm {} loaded but are not in its mm_cpumask: the flush from CPU {} cannot reach them",
                mm.0, cpu.0
            ),
        );
    }
}

/// I7: `get_flush_tlb_info()` takes descriptor `desc` for task `t`.
///
/// Property: the descriptor has no other owner — no flush that may still be read by a remote
/// CPU uses it (the DEBUG_VM `flush_tlb_info_idx` check).
pub fn check_descriptor_get(w: &mut World, desc: DescId, t: TaskId, cpu: CpuId) {
    // Only the owner is read on the way (a copy of the whole descriptor went to the stack).
    let Some(owner) = w.descs.get(desc as usize).and_then(|d| d.owner) else {
        return;
    };
    if owner != t {
        let d = w.descs[desc as usize];
        w.violate(
            "I7",
            cpu,
            d.mm,
            0,
            format!(
                "CPU {}'s per-CPU flush_tlb_info was overwritten by task {} while task {}'s flush of mm {} (gen {}) was still in flight",
                cpu.0, t.0, owner.0, d.mm.0, d.new_tlb_gen
            ),
        );
    }
}

/// I8: `smp_call_function_many_cond` writes `cfd(cpu)->cpumask`.
///
/// Property: no other task is still waiting on that mask.
pub fn check_wait_mask_write(w: &mut World, cpu: CpuId, t: TaskId) {
    if let Some(owner) = w.cfd[cpu.index()].mask_user {
        if owner != t {
            w.violate(
                "I8",
                cpu,
                MmId::INIT_MM,
                0,
                format!(
                    "task {} rewrote CPU {}'s cfd->cpumask while task {} was still waiting on it",
                    t.0, cpu.0, owner.0
                ),
            );
        }
    }
}

/// I13: a partial flush of `pages` pages runs.
///
/// Property: `pages <= tlb_single_page_flush_ceiling`.
pub fn check_ceiling(w: &mut World, cpu: CpuId, mm: MmId, pages: u32) {
    let ceiling = w.cfg.design.ceiling;
    if pages > ceiling {
        w.violate(
            "I13",
            cpu,
            mm,
            0,
            format!("a partial flush of {pages} pages exceeds the ceiling of {ceiling}"),
        );
    }
}
