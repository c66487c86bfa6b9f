//! x86's per-CPU TLB state: `DECLARE_PER_CPU_ALIGNED(struct tlb_state, cpu_tlbstate)` and
//! `cpu_tlbstate_shared.is_lazy` (`arch/x86/include/asm/tlbflush.h`).

use crate::ids::{CpuId, MmId};

/// `TLB_NR_DYN_ASIDS`: "6 should be plenty".
pub const NR_DYN_ASIDS: usize = 6;

/// One dynamic ASID slot: "the entries tagged with this slot's PCID are at least as fresh as
/// generation `tlb_gen` of mm `ctx_id`".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AsidSlot {
    pub ctx_id: u64,
    pub tlb_gen: u64,
}

/// `struct tlb_state` + `tlb_state_shared.is_lazy`.
#[derive(Clone, Debug)]
pub struct TlbState {
    pub loaded_mm: MmId,
    pub loaded_mm_asid: u16,
    pub next_asid: u16,
    pub ctxs: [AsidSlot; NR_DYN_ASIDS],
    pub is_lazy: bool,
    /// PTI: bit `s` set ⇒ slot `s`'s user PCID is flushed at the next return to user space.
    pub user_pcid_flush_mask: u8,
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

/// Everything x86 keeps besides the generic per-CPU and per-mm state.
#[derive(Clone, Debug, Default)]
pub struct X86State {
    /// Per CPU `cpu_tlbstate`.
    pub cpu_tlbstate: Vec<TlbState>,
    /// Per mm (by id): the CPU that last touched `mm->context.tlb_gen`, whose cache holds
    /// the line (see `flush_entry.rs`).
    pub tlb_gen_line: Vec<Option<CpuId>>,
}

impl X86State {
    pub fn new(cpus: u16) -> X86State {
        X86State {
            cpu_tlbstate: vec![TlbState::default(); cpus as usize],
            tlb_gen_line: Vec::new(),
        }
    }
}
