//! The kernel's invariants (docs/model.md lists them all), each a named check that runs at the one
//! kind of event that can break it, in O(1) (or in time the event already spends), in every
//! run. A violation becomes an `InvariantViolated` trace row and a summary entry, never a
//! panic.
//!
//! | name | property | checked when |
//! |---|---|---|
//! | I3 | once `flush_tlb_mm_range` returned, nobody uses a translation it removed | a translation is used |
//! | I1, I2, I4, I5, I7, I8, I13 | x86 slots, cpumask, descriptors, wait masks, ceiling | see `arch/x86/checks.rs` |
//! | I16–I18 | arm64 BBM, ASID generations, skip-broadcast handshake | see `arch/arm64/checks.rs` |
//!
//! This file holds the checks every architecture shares; each architecture's own are in its
//! folder, called from its code or through the `Arch` hooks.
//!
//! Caveat (as in any reference model): these checks encode our reading of the kernel; a bug
//! in them shows up as a violation where the kernel is fine, or silence where it is not.

use crate::ids::{CpuId, MmId};
use crate::machine::{Arch as _, World, USER_BASE};
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
/// 2. the architecture's bookkeeping (`Arch::check_stale_hit`; x86: I1, the CPU's slot for
///    this mm claims generation ≥ the change's generation);
/// 3. the entry belongs to another mm under the same tag (x86: PCID slot aliasing, R10, I1;
///    arm64: an ASID reused without a flush, I17).
pub fn check_translation_use(w: &mut World, cpu: CpuId, mm: MmId, vpn: u32, e: Entry) -> bool {
    let Some(page) = w
        .mms
        .get(mm.0 as usize)
        .and_then(|m| m.pages.get(vpn as usize))
    else {
        return false;
    };
    let page = *page;
    let mut recorded = false;
    let arch = w.arch;
    if e.mm != mm {
        let (name, why) = arch.tag_alias_invariant();
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
    recorded |= arch.check_stale_hit(w, cpu, mm, vpn, page.version);
    recorded
}
