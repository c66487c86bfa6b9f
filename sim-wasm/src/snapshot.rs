//! The kernel and hardware state at one instant, for the inspector: what each CPU's TLB holds
//! (stale entries marked), `cpu_tlbstate` slots against each mm's `tlb_gen`, `mm_cpumask`,
//! lazy flags, pending IPIs and locked csds; on arm64 the ASID generation, active/reserved
//! ASIDs, `nr_active_mm` and the stale mask. The trace records events, not state, so the
//! session rebuilds the world from the same config and seed and runs it up to `t`: the run is
//! deterministic, so this is exactly the state the trace passed through.

use serde::Serialize;

use crate::config::Arch;
use crate::machine::World;

/// Translations listed per CPU, at most (the counts always cover all of them).
const MAX_ENTRIES: usize = 64;

#[derive(Serialize, Debug)]
pub struct Snapshot {
    pub time_ns: u64,
    pub arch: &'static str,
    pub cpus: Vec<CpuState>,
    pub mms: Vec<MmState>,
    /// csds still locked: the sender's request to the target has not finished.
    pub locked_csds: Vec<[u16; 2]>,
    pub arm64: Option<Arm64Global>,
}

#[derive(Serialize, Debug)]
pub struct CpuState {
    pub cpu: u16,
    /// Name of the running task, if any.
    pub task: Option<String>,
    pub loaded_mm: u16,
    pub loaded_asid: u16,
    pub lazy: bool,
    pub preempt_count: u32,
    pub irqs_off: bool,
    /// An IPI waits in the APIC (interrupts off) or is being handled.
    pub ipi_pending: bool,
    /// Senders of requests queued on this CPU's `call_single_queue`.
    pub queued_from: Vec<u16>,
    /// x86 `cpu_tlbstate.ctxs[]`: which mm each PCID slot belongs to and how fresh it is.
    pub slots: Vec<Slot>,
    pub tlb_entries: usize,
    pub stale_entries: usize,
    pub entries: Vec<TlbEntry>,
}

#[derive(Serialize, Debug)]
pub struct Slot {
    pub slot: u16,
    /// The mm whose `ctx_id` the slot holds (None: empty or a freed mm).
    pub mm: Option<u16>,
    pub tlb_gen: u64,
}

#[derive(Serialize, Debug)]
pub struct TlbEntry {
    pub mm: u16,
    /// PCID slot (x86) or hardware ASID (arm64) the entry is tagged with.
    pub tag: u16,
    pub vpn: u32,
    /// The PTE version the entry caches; stale when the page table has moved on.
    pub version: u32,
    pub stale: bool,
}

#[derive(Serialize, Debug)]
pub struct MmState {
    pub mm: u16,
    pub tlb_gen: u64,
    /// x86 `mm_cpumask` (lazily trimmed); on arm64 with skip-broadcast, the stale-ASID mask.
    pub cpumask: Vec<u16>,
    /// arm64 `context.id` split into generation and ASID, and `nr_active_mm`.
    pub asid: Option<u64>,
    pub asid_generation: Option<u64>,
    pub nr_active_mm: Option<u32>,
}

#[derive(Serialize, Debug)]
pub struct Arm64Global {
    pub generation: u64,
    pub active_asids: Vec<u64>,
    pub reserved_asids: Vec<u64>,
    pub flush_pending: Vec<u16>,
}

pub fn of(w: &World) -> Snapshot {
    let arm = w.cfg.arch == Arch::Arm64;
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
            let slots = if arm {
                Vec::new()
            } else {
                c.tlbstate
                    .ctxs
                    .iter()
                    .enumerate()
                    .map(|(i, s)| Slot {
                        slot: i as u16,
                        mm: w
                            .mms
                            .iter()
                            .find(|m| m.ctx_id == s.ctx_id && s.ctx_id != 0)
                            .map(|m| m.id.0),
                        tlb_gen: s.tlb_gen,
                    })
                    .collect()
            };
            CpuState {
                cpu: c.id.0,
                task: c
                    .curr
                    .and_then(|t| w.tasks.get(t.0 as usize))
                    .map(|t| t.name.clone()),
                loaded_mm: c.tlbstate.loaded_mm.0,
                loaded_asid: c.tlbstate.loaded_mm_asid,
                lazy: c.tlbstate.is_lazy,
                preempt_count: c.preempt_count,
                irqs_off: c.irqs_off > 0,
                ipi_pending: c.ipi_pending.is_some() || c.handler.is_some(),
                queued_from: c.call_queue.iter().map(|r| r.sender.0).collect(),
                slots,
                tlb_entries: total,
                stale_entries: stale,
                entries,
            }
        })
        .collect();
    let asid_mask = |bits: u8| (1u64 << bits) - 1;
    let mms = w
        .mms
        .iter()
        .filter(|m| m.id.0 != 0)
        .map(|m| {
            let mut mask = Vec::new();
            m.cpumask.collect_into(&mut mask);
            let ctx = arm.then(|| w.arm.ctx.get(m.id.0 as usize).copied().unwrap_or(0));
            MmState {
                mm: m.id.0,
                tlb_gen: m.tlb_gen,
                cpumask: mask,
                asid: ctx.map(|c| c & asid_mask(w.arm.asid_bits)),
                asid_generation: ctx.map(|c| c >> w.arm.asid_bits),
                nr_active_mm: arm
                    .then(|| w.arm.nr_active.get(m.id.0 as usize).copied().unwrap_or(0)),
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
    let arm64 = arm.then(|| Arm64Global {
        generation: w.arm.generation >> w.arm.asid_bits,
        active_asids: w
            .arm
            .active_asids
            .iter()
            .map(|a| a & asid_mask(w.arm.asid_bits))
            .collect(),
        reserved_asids: w
            .arm
            .reserved_asids
            .iter()
            .map(|a| a & asid_mask(w.arm.asid_bits))
            .collect(),
        flush_pending: (0..w.arm.flush_pending.len() as u16)
            .filter(|&c| w.arm.flush_pending[c as usize])
            .collect(),
    });
    Snapshot {
        time_ns: w.now(),
        arch: w.arch.name(),
        cpus,
        mms,
        locked_csds,
        arm64,
    }
}
