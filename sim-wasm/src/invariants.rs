//! The kernel's invariants (kernel-mechanics.md §7), each a named check that runs at the one
//! kind of event that can break it, in O(1) (or in time the event already spends), in every
//! run. A violation becomes an `InvariantViolated` trace row and a summary entry, never a
//! panic.
//!
//! | name | property | checked when |
//! |---|---|---|
//! | I1 | slot freshness: a slot's entries hold nothing removed at or before its `tlb_gen` | a translation is used |
//! | I2 | a slot's `tlb_gen` only advances past generations whose flushes were applied | a partial flush advances it |
//! | I3 | once `flush_tlb_mm_range` returned, nobody uses a translation it removed | a translation is used |
//! | I4 | no CPU walks page tables freed by a flush that returned | a CPU walks speculatively |
//! | I5 | a flusher can see every CPU that has the mm loaded (cpumask ⊇ loaded) | a flush picks its targets |
//! | I7 | a per-CPU descriptor is not reused while a flush using it is in flight | a descriptor is taken |
//! | I8 | a per-CPU wait mask is not rewritten while a task waits on it | a wait mask is written |
//! | I13 | a partial flush covers at most `ceiling` pages | a partial flush runs |
//! | I16–I18 | arm64 BBM, ASID generations, skip-broadcast handshake | see `arch/arm64/checks.rs` |
//!
//! Caveat (as in any reference model): these checks encode our reading of the kernel; a bug
//! in them shows up as a violation where the kernel is fine, or silence where it is not.

use crate::cpu::NR_DYN_ASIDS;
use crate::ids::{CpuId, DescId, MmId, TaskId};
use crate::machine::{World, USER_BASE};
use crate::tlb::Entry;

fn addr(vpn: u32) -> u64 {
    USER_BASE + vpn as u64 * 4096
}

/// I1 and I3 for a TLB hit whose entry is older than the PTE (or of another mm). Returns
/// whether a violation was recorded (the entry is then not reported again).
///
/// Properties:
/// 1. (I3) `entry.version < page.safe`: the flush covering the change returned, so the page
///    may have been freed — using the translation is a use-after-free.
/// 2. (I1) the CPU's slot for this mm claims generation ≥ the change's generation.
/// 3. (I1) the entry belongs to another mm under the same PCID (slot aliasing, R10).
pub fn check_translation_use(w: &mut World, cpu: CpuId, mm: MmId, vpn: u32, e: Entry) -> bool {
    let Some(page) = w
        .mms
        .get(mm.0 as usize)
        .and_then(|m| m.pages.get(vpn as usize))
    else {
        return false;
    };
    let page = *page;
    let ts = &w.cpus[cpu.index()].tlbstate;
    let slot = ts.ctxs[ts.loaded_mm_asid as usize % NR_DYN_ASIDS];
    let ctx_id = w.mms[mm.0 as usize].ctx_id;
    let mut recorded = false;
    if e.mm != mm {
        // On arm64 the tag is the hardware ASID: another mm's entry means an ASID was reused
        // across generations without the post-rollover local flush (I17).
        let (name, why) = if w.cfg.arch == crate::config::Arch::Arm64 {
            ("I17", "ASID reused without a flush")
        } else {
            ("I1", "PCID slot aliasing")
        };
        w.violate(
            name,
            cpu,
            mm,
            addr(vpn),
            format!(
                "CPU {} used mm {}'s translation of page {:#x} while running mm {} ({why})",
                cpu.0,
                e.mm.0,
                addr(vpn),
                mm.0
            ),
        );
        return true;
    }
    if e.version < page.safe {
        w.violate(
            "I3",
            cpu,
            mm,
            addr(vpn),
            format!(
                "CPU {} used a stale translation of page {:#x} (mm {}, from before gen {}) after the flush for gen {} returned",
                cpu.0, addr(vpn), mm.0, page.version, page.safe
            ),
        );
        recorded = true;
    }
    if slot.ctx_id == ctx_id && page.version as u64 <= slot.tlb_gen {
        w.violate(
            "I1",
            cpu,
            mm,
            addr(vpn),
            format!(
                "CPU {}'s ASID slot {} claims mm {} is flushed up to gen {}, but still maps page {:#x} changed at gen {}",
                cpu.0, ts_asid(w, cpu), mm.0, slot.tlb_gen, addr(vpn), page.version
            ),
        );
        recorded = true;
    }
    recorded
}

fn ts_asid(w: &World, cpu: CpuId) -> u16 {
    w.cpus[cpu.index()].tlbstate.loaded_mm_asid
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
    let ts = &w.cpus[cpu.index()].tlbstate;
    let mm = ts.loaded_mm;
    if mm == MmId::INIT_MM {
        return;
    }
    let slot = ts.ctxs[ts.loaded_mm_asid as usize % NR_DYN_ASIDS];
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
/// it (or the switcher reads the new `tlb_gen`). `members` is the mask, already collected.
pub fn check_cpumask_covers_loaded(w: &mut World, cpu: CpuId, mm: MmId, members: &[u16]) {
    let Some(m) = w.mms.get(mm.0 as usize) else {
        return;
    };
    let seen = members
        .iter()
        .filter(|&&c| w.cpus[c as usize].tlbstate.loaded_mm == mm)
        .count() as u32;
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
    let Some(d) = w.descs.get(desc as usize).copied() else {
        return;
    };
    if let Some(owner) = d.owner {
        if owner != t {
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
