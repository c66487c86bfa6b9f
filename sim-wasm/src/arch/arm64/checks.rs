//! The arm64 invariants (docs/model.md lists them all), each checked at the one event that can
//! break it, in every run. Violations become trace rows and summary entries (never panics).
//!
//! | name | property | checked when |
//! |---|---|---|
//! | I16 | BBM: no CPU walks into a page-table page freed by a returned flush (its walk caches saw the invalidation, or it cannot walk the mm) | a CPU walks speculatively; a table-freeing flush that skipped the broadcast returns while another CPU's walk is in flight |
//! | I17 | ASID generations: an mm runs only with a current-generation ASID; a CPU owing its post-rollover flush takes no fast path; no two mms share an ASID in one generation; no TLB entry of another mm is used under a reused ASID | switch / allocation / translation use |
//! | I18 | skip-broadcast handshake: when a flush skips the broadcast, no other CPU has the mm in TTBR0 or a walk of it in flight | `tlb_flush_check` returns no / local |
//!
//! I3 (no use of a translation older than a returned flush) is the shared check in
//! `invariants.rs`, run on every TLB hit on both architectures.

use super::state::NOTHING_CACHED;
use crate::ids::{CpuId, MmId};
use crate::machine::World;

/// I16 on a speculative walk through the tables TTBR0 points at.
///
/// Property: if the mm's page tables were freed by a flush that returned (generation g), this
/// CPU's walk caches for the mm were invalidated at or after g, or it never cached any.
pub fn check_walk_caches(w: &mut World, cpu: CpuId) {
    let ts = &w.arch_state.arm64.loaded[cpu.index()];
    let (mm, lazy) = (ts.loaded_mm, ts.is_lazy);
    if mm == MmId::INIT_MM {
        return; // reserved TTBR0: nothing to walk
    }
    let Some(m) = w.mms.get(mm.0 as usize) else {
        return;
    };
    let freed = m.tables_freed_gen;
    let synced = w.arch_state.arm64.walk_synced[cpu.index()]
        .get(mm.0 as usize)
        .copied()
        .unwrap_or(NOTHING_CACHED);
    if freed > 0 && synced != NOTHING_CACHED && synced < freed {
        w.violate(
            "I16",
            cpu,
            mm,
            0,
            format!(
                "{} CPU {} walked mm {}'s tables through walk-cache entries into a page-table page freed at gen {freed}: the invalidation never reached it (break-before-make)",
                if lazy { "lazy" } else { "running" },
                cpu.0,
                mm.0
            ),
        );
    }
}

/// I16 when a table-freeing flush that skipped the broadcast returns (R16's harm).
///
/// Property: no other CPU still has a walk of the mm in flight — it would read the freed (and
/// possibly reused) page as a table.
pub fn check_in_flight_walks(w: &mut World, cpu: CpuId, mm: MmId, gen: u64) {
    let now = w.now();
    for c in 0..w.cfg.cpus {
        let other = CpuId(c);
        if other == cpu {
            continue;
        }
        let Some(walk) = w.arch_state.arm64.walk[c as usize] else {
            continue;
        };
        if walk.mm == mm && walk.until > now {
            w.arch_state.arm64.walk[c as usize] = None;
            w.violate(
                "I16",
                other,
                mm,
                0,
                format!(
                    "CPU {c}'s page walk of mm {}, in flight since its TTBR0 switch, reads a page-table page CPU {} freed at gen {gen} after a local-only flush",
                    mm.0, cpu.0
                ),
            );
        }
    }
}

/// I18 when `tlb_flush_check` on `cpu` decided no / local (`decision` 0 / 1).
///
/// Properties:
/// 1. no other CPU has the mm in TTBR0 (running it, or lazily in a kernel thread): it could
///    use or walk the mm's entries that only a broadcast would remove;
/// 2. no other CPU has a walk of the mm in flight (the count dropped before a DSB).
pub fn check_skip_handshake(w: &mut World, cpu: CpuId, mm: MmId, decision: u8) {
    let now = w.now();
    let what = if decision == 0 { "no" } else { "a local-only" };
    let count = w.arch_state.arm64.nr_active_mm(mm);
    for c in 0..w.cfg.cpus {
        let other = CpuId(c);
        if other == cpu {
            continue;
        }
        let ts = &w.arch_state.arm64.loaded[c as usize];
        if ts.loaded_mm == mm {
            let how = if ts.is_lazy {
                "lazily, in a kernel thread,"
            } else {
                "in TTBR0"
            };
            w.violate(
                "I18",
                other,
                mm,
                0,
                format!(
                    "CPU {} chose {what} flush of mm {} (nr_active_mm = {count}) but CPU {c} still holds it {how} and may walk it",
                    cpu.0, mm.0
                ),
            );
        } else if let Some(walk) = w.arch_state.arm64.walk[c as usize] {
            if walk.mm == mm && walk.until > now {
                w.violate(
                    "I18",
                    other,
                    mm,
                    0,
                    format!(
                        "CPU {} chose {what} flush of mm {} (nr_active_mm = {count}) while CPU {c}'s walk of it is still in flight: nr_active_mm dropped before a DSB completed the walk",
                        cpu.0, mm.0
                    ),
                );
            }
        }
    }
}

/// I17 on the fast path: a CPU that owes its post-rollover flush must have `active_asids` = 0.
pub fn check_fast_path(w: &mut World, cpu: CpuId, mm: MmId) {
    if w.arch_state.arm64.flush_pending[cpu.index()] {
        w.violate(
            "I17",
            cpu,
            mm,
            0,
            format!(
                "CPU {} took the ASID fast path for mm {} while its tlb_flush_pending bit was set",
                cpu.0, mm.0
            ),
        );
    }
}

/// I17 after `check_and_switch_context`: the mm runs with a current-generation ASID.
pub fn check_generation(w: &mut World, cpu: CpuId, mm: MmId, ctx: u64) {
    let (have, want) = (
        w.arch_state.arm64.gen_of(ctx),
        w.arch_state.arm64.gen_of(w.arch_state.arm64.generation),
    );
    if have != want {
        w.violate(
            "I17",
            cpu,
            mm,
            0,
            format!(
                "CPU {} switched to mm {} with an ASID of generation {have}; the current one is {want}",
                cpu.0, mm.0
            ),
        );
    }
}

/// I17 at allocation: no other mm holds the same context id (generation and ASID).
pub fn check_unique(w: &mut World, cpu: CpuId, mm: MmId, id: u64) {
    let other = w
        .arch_state
        .arm64
        .ctx
        .iter()
        .enumerate()
        .find(|&(m, &c)| m != mm.0 as usize && c == id)
        .map(|(m, _)| m);
    if let Some(o) = other {
        w.violate(
            "I17",
            cpu,
            mm,
            0,
            format!(
                "mm {} got ASID {} of generation {}, which mm {o} already holds",
                mm.0,
                id & w.arch_state.arm64.asid_mask(),
                w.arch_state.arm64.gen_of(id)
            ),
        );
    }
}
