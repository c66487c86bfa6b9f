//! Page-table isolation (`arch/x86/mm/tlb.c`, `invalidate_user_asid()`; R11, I11): each dynamic ASID slot has a
//! kernel PCID (kernel page tables) and a user PCID (user page tables, hardware PCID + 2048);
//! the entry code switches CR3 between them on every kernel entry and exit; kernel
//! translations are not global, so they live in the kernel PCID and die with its flushes.
//!
//! The model tags user-mode translations of slot `s` with `s + USER_TAG` (a model number
//! standing for the hardware's `kPCID | 2048`). Without PCID there is one tag and every CR3
//! write flushes it, so every kernel entry empties the user's TLB entries.
//!
//! A flush of one user page (`native_flush_tlb_one_user`) is INVLPG on the kernel PCID and then
//! either INVPCID on the user PCID or, deferred, the slot's bit in `user_pcid_flush_mask`
//! (`invalidate_user_asid`), which the next return to user space (`SWITCH_TO_USER_CR3`) turns
//! into a CR3 write without NOFLUSH. A full flush or a flushing switch always defers.

use crate::config::PtiUserFlush;
use crate::ids::{mul_sat, CpuId, Ns};
use crate::machine::World;

pub use super::state::USER_TAG;

/// The kernel PCID's tag (`switch_mm::tlb_tag`, read here from the state so the two files
/// do not import each other).
fn tlb_tag(w: &World, cpu: CpuId) -> u16 {
    if w.cfg.design.pcid {
        w.arch_state.x86.cpu_tlbstate[cpu.index()].loaded_mm_asid
    } else {
        0
    }
}

fn on(w: &World) -> bool {
    w.cfg.design.pti
}

/// The tag user-mode accesses use on `cpu`, after the return to user space did what
/// `user_pcid_flush_mask` asked of it.
pub fn user_tag(w: &mut World, cpu: CpuId) -> u16 {
    let tag = tlb_tag(w, cpu);
    if !on(w) || !w.cfg.design.pcid {
        return tag;
    }
    let ts = &mut w.arch_state.x86.cpu_tlbstate[cpu.index()];
    let bit = 1u16 << (ts.loaded_mm_asid % 16);
    let user = tag + USER_TAG;
    if ts.user_pcid_flush_mask & bit != 0 {
        ts.user_pcid_flush_mask &= !bit;
        w.cpus[cpu.index()].tlb.flush_tag(user);
        w.stats.x86_ops.user_pcid_flushes += 1;
        w.stats.x86_ops.cr3_flushes += 1;
    }
    user
}

/// Under PTI the kernel's translations are tagged with the kernel PCID.
pub fn kernel_tag(w: &World, cpu: CpuId) -> Option<u16> {
    on(w).then(|| tlb_tag(w, cpu))
}

/// One trip into the kernel and back: two CR3 writes (NOFLUSH with PCID; without PCID each
/// one flushes the user's translations).
pub fn kernel_entry(w: &mut World, cpu: CpuId) -> Ns {
    if !on(w) {
        return 0;
    }
    w.stats.x86_ops.cr3_writes += 2;
    if !w.cfg.design.pcid {
        w.cpus[cpu.index()].tlb.flush_tag(0);
        w.stats.x86_ops.cr3_flushes += 2;
    }
    w.cfg.costs.x86.pti_cr3_ns.saturating_mul(2)
}

/// `invalidate_user_asid(slot)`: the user PCID of `cpu`'s current slot is flushed at the next
/// return to user space.
pub fn invalidate_user_asid(w: &mut World, cpu: CpuId) {
    if !on(w) || !w.cfg.design.pcid {
        return;
    }
    let ts = &mut w.arch_state.x86.cpu_tlbstate[cpu.index()];
    ts.user_pcid_flush_mask |= 1u16 << (ts.loaded_mm_asid % 16);
}

/// The user-PCID half of `flush_tlb_one_user()` for `pages` pages from `start` on `cpu`
/// (after INVLPG flushed them from the kernel PCID). Returns its cost.
pub fn flush_user_pages(w: &mut World, cpu: CpuId, start: u32, pages: u32) -> Ns {
    if !on(w) || !w.cfg.design.pcid {
        // Without PCID user and kernel share the one tag INVLPG already cleared.
        return 0;
    }
    match w.cfg.design.pti_user_flush {
        PtiUserFlush::Invpcid => {
            let user = tlb_tag(w, cpu) + USER_TAG;
            let tlb = &mut w.cpus[cpu.index()].tlb;
            for vpn in start..start.saturating_add(pages) {
                tlb.invalidate_page(user, vpn);
            }
            w.stats.x86_ops.invpcid += pages as u64;
            mul_sat(w.cfg.costs.x86.invpcid_ns, pages as u64)
        }
        PtiUserFlush::Deferred => {
            invalidate_user_asid(w, cpu);
            0
        }
        PtiUserFlush::None => 0,
    }
}
