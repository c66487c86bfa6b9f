//! Builds the [`Snapshot`] of a world for the inspector: the generic state read here, each
//! architecture's part through its [`Arch`](crate::machine::Arch) hooks.

use crate::machine::{Arch as _, World};
use crate::snapshot::{CpuState, MmState, Snapshot, TlbEntry};

/// Translations listed per CPU, at most (the counts always cover all of them).
const MAX_ENTRIES: usize = 64;

pub fn of(w: &World) -> Snapshot {
    let arch = w.arch;
    let cpus = w
        .cpus
        .iter()
        .map(|c| {
            let mut entries = Vec::new();
            let (mut total, mut stale) = (0, 0);
            for (tag, e) in c.tlb.live_entries() {
                let page = w
                    .mms
                    .get(e.mm.0 as usize)
                    .and_then(|m| m.pages.get(e.vpn as usize));
                let is_stale = page.is_none_or(|p| !p.present || p.version != e.version);
                total += 1;
                stale += is_stale as usize;
                if entries.len() < MAX_ENTRIES || is_stale {
                    entries.push(TlbEntry {
                        mm: e.mm.0,
                        tag,
                        vpn: e.vpn,
                        version: e.version,
                        stale: is_stale,
                    });
                }
            }
            // Stale entries first: they are what a reader looks for.
            entries.sort_by_key(|e| (!e.stale, e.mm, e.tag, e.vpn));
            entries.truncate(MAX_ENTRIES.max(stale));
            let (loaded_mm, loaded_asid, lazy) = arch.loaded(w, c.id);
            let switching = arch.switching(w, c.id);
            CpuState {
                cpu: c.id.0,
                task: c
                    .curr
                    .and_then(|t| w.tasks.get(t.0 as usize))
                    .map(|t| t.name.clone()),
                loaded_mm: loaded_mm.0,
                loaded_asid,
                lazy,
                switching_to: switching.map(|(mm, _)| mm.0),
                switch_buffered: switching.is_some_and(|(_, b)| b),
                preempt_count: c.preempt_count,
                irqs_off: c.irqs_off > 0,
                ipi_pending: c.ipi_pending.is_some() || c.handler.is_some(),
                queued_from: c.call_queue.iter().map(|r| r.sender.0).collect(),
                slots: arch.tag_slots(w, c.id),
                tlb_entries: total,
                stale_entries: stale,
                entries,
            }
        })
        .collect();
    let mms = w
        .mms
        .iter()
        .filter(|m| m.id.0 != 0)
        .map(|m| {
            let mut mask = Vec::new();
            m.cpumask.collect_into(&mut mask);
            MmState {
                mm: m.id.0,
                tlb_gen: m.tlb_gen,
                cpumask: mask,
                context: arch.mm_context(w, m.id),
            }
        })
        .collect();
    let mut locked_csds = Vec::new();
    for (sender, cfd) in w.cfd.iter().enumerate() {
        for (target, csd) in cfd.csd.iter().enumerate() {
            if csd.locked {
                locked_csds.push([sender as u16, target as u16]);
            }
        }
    }
    Snapshot {
        time_ns: w.now(),
        arch: w.arch.name(),
        cpus,
        mms,
        locked_csds,
        asid_allocator: arch.asid_allocator(w),
    }
}
