//! x86's per-CPU TLB state: `DECLARE_PER_CPU_ALIGNED(struct tlb_state, cpu_tlbstate)` and
//! `cpu_tlbstate_shared.is_lazy` (`arch/x86/include/asm/tlbflush.h`).

use crate::ids::MmId;

/// `TLB_NR_DYN_ASIDS`: "6 should be plenty".
pub const NR_DYN_ASIDS: usize = 6;

/// The `ctxs` slot an ASID indexes. Dynamic ASIDs (all of them without INVLPGB) take one
/// compare instead of a division by 6; a global one folds onto a slot as before.
#[inline(always)]
pub fn slot_of(asid: u16) -> usize {
    let a = asid as usize;
    if a < NR_DYN_ASIDS {
        a
    } else {
        a % NR_DYN_ASIDS
    }
}

/// PTI: added to a slot (or global ASID) to tag its user PCID's translations (`pti.rs`).
pub const USER_TAG: u16 = 16;

/// The first global ASID (INVLPGB) the model hands out: right after the dynamic slots.
pub const FIRST_GLOBAL: u16 = NR_DYN_ASIDS as u16;

/// One INVLPGB in flight: performed on every CPU at its completion time (`invlpgb.rs`).
#[derive(Clone, Copy, Debug, Default, Hash)]
pub struct Broadcast {
    /// The CPU that issued it: only a `TLBSYNC` there waits for it.
    pub cpu: u16,
    pub tag: u16,
    pub start: u32,
    pub pages: u32,
    pub full: bool,
}

/// One dynamic ASID slot: "the entries tagged with this slot's PCID are at least as fresh as
/// generation `tlb_gen` of mm `ctx_id`".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AsidSlot {
    pub ctx_id: u64,
    pub tlb_gen: u64,
}

/// `struct tlb_state` + `tlb_state_shared.is_lazy`.
#[derive(Clone, Debug, Hash)]
pub struct TlbState {
    pub loaded_mm: MmId,
    pub loaded_mm_asid: u16,
    pub next_asid: u16,
    pub ctxs: [AsidSlot; NR_DYN_ASIDS],
    pub is_lazy: bool,
    /// PTI: bit `s` set ⇒ slot `s`'s user PCID is flushed at the next return to user space.
    pub user_pcid_flush_mask: u16,
}

impl Default for TlbState {
    /// At boot every CPU runs `init_mm` with ASID 0.
    fn default() -> TlbState {
        TlbState {
            loaded_mm: MmId::INIT_MM,
            loaded_mm_asid: 0,
            next_asid: 1,
            ctxs: [AsidSlot::default(); NR_DYN_ASIDS],
            is_lazy: false,
            user_pcid_flush_mask: 0,
        }
    }
}

/// A `switch_mm_irqs_off()` to another mm between its `tlb_gen` read and its CR3 write
/// (`switch_mm.rs`, race R7): what it decided, and whether its stores are still buffered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PendingSwitch {
    pub next: MmId,
    pub asid: u16,
    /// The CR3 write will flush the slot (no `CR3_NOFLUSH`).
    pub need_flush: bool,
    /// `next->context.tlb_gen` as read.
    pub gen: u64,
    /// The stores of `loaded_mm = LOADED_MM_SWITCHING` and `is_lazy = false` are still in
    /// this CPU's store buffer: other CPUs read `loaded_mm` (the previous mm) and
    /// `was_lazy`. False once they are visible: other CPUs read `LOADED_MM_SWITCHING`.
    pub buffered: bool,
    pub was_lazy: bool,
}

/// Everything x86 keeps besides the generic per-CPU and per-mm state.
#[derive(Debug, Default)]
pub struct X86State {
    /// Per CPU `cpu_tlbstate`.
    pub cpu_tlbstate: Vec<TlbState>,
    /// Per mm (by id): the CPUs whose caches hold `mm->context.tlb_gen` (`flush_entry.rs`).
    pub tlb_gen_line: Vec<super::cacheline::LineHolders>,
    /// INVLPGB: per mm (by id) its global ASID (0: none) and `asid_transition`.
    pub global_asid: Vec<u16>,
    pub asid_transition: Vec<bool>,
    pub next_global_asid: u16,
    /// Per CPU: when the INVLPGBs it issued so far are done (what its TLBSYNC waits for).
    pub invlpgb_done_at: Vec<u64>,
    /// The INVLPGBs in flight, by the id their completion timer carries (removed when
    /// performed, so a long run keeps only those outstanding).
    pub broadcasts: std::collections::BTreeMap<u32, Broadcast>,
    pub next_broadcast: u32,
    /// Tasks whose flush still owes its TLBSYNC.
    pub tlbsync_owed: std::collections::BTreeSet<u32>,
    /// Per CPU: its `switch_mm_irqs_off()` between the `tlb_gen` read and the CR3 write.
    pub switching: Vec<Option<PendingSwitch>>,
    /// How many entries of `switching` are `Some`: while none is, `flush_tlb_multi`'s walk
    /// of `mm_cpumask` reads only `cpu_tlbstate`.
    pub switching_n: u32,
    /// `cpu_tlbstate`'s `loaded_mm` and `is_lazy` as bitmaps, for `flush_tlb_multi`.
    pub loaded_bits: super::loaded::LoadedBits,
    /// Costs fixed for the run, multiplied out once.
    pub fixed: FixedCosts,
}

crate::clone_reusing::clone_reusing!(X86State {
    cpu_tlbstate,
    tlb_gen_line,
    global_asid,
    asid_transition,
    next_global_asid,
    invlpgb_done_at,
    broadcasts,
    next_broadcast,
    tlbsync_owed,
    switching,
    switching_n,
    loaded_bits,
    fixed,
});

/// Sums of the config's costs that every flush pays, computed at init.
#[derive(Clone, Copy, Debug, Default)]
pub struct FixedCosts {
    /// `flush_tlb_func`'s own cost: local, remote on the initiator's socket (which also pulls
    /// the descriptor's cache lines from it), and remote across the socket link (the same
    /// lines at `socket_transfer_ns`).
    pub func_ns: [u64; 3],
    /// The part of a `flush_tlb_mm_range()` call's entry work that is the same for every
    /// call (`flush_entry.rs`).
    pub entry_ns: u64,
}

impl X86State {
    pub fn new(cpus: u16) -> X86State {
        X86State {
            cpu_tlbstate: vec![TlbState::default(); cpus as usize],
            tlb_gen_line: Vec::new(),
            global_asid: Vec::new(),
            asid_transition: Vec::new(),
            next_global_asid: FIRST_GLOBAL,
            invlpgb_done_at: vec![0; cpus as usize],
            broadcasts: Default::default(),
            next_broadcast: 0,
            tlbsync_owed: Default::default(),
            switching: vec![None; cpus as usize],
            switching_n: 0,
            loaded_bits: super::loaded::LoadedBits::new(cpus),
            fixed: FixedCosts::default(),
        }
    }
}
