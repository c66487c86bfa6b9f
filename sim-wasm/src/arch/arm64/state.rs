//! What arm64 keeps besides the generic per-CPU and per-mm state: the model's record of each
//! CPU's TTBR0, the ASID allocator (`mm/context.c`), the skip-broadcast series' counters, the
//! walks in flight, and the interconnect's queue of broadcast TLBIs.

use crate::config::Config;
use crate::ids::{CpuId, MmId, Ns};
use crate::trace::Row;

/// What one CPU's TTBR0 holds.
#[derive(Clone, Copy, Debug, Hash)]
pub struct Loaded {
    pub loaded_mm: MmId,
    pub loaded_mm_asid: u16,
    pub is_lazy: bool,
}

impl Default for Loaded {
    /// At boot every CPU runs `init_mm` (the reserved TTBR0, ASID 0).
    fn default() -> Loaded {
        Loaded {
            loaded_mm: MmId::INIT_MM,
            loaded_mm_asid: 0,
            is_lazy: false,
        }
    }
}

/// A page-table walk still in flight on a CPU after its TTBR0 moved away from `mm`.
#[derive(Clone, Copy, Debug, Hash)]
pub struct Walk {
    pub mm: MmId,
    pub until: Ns,
    pub row: Row,
}

/// Walk-cache state of (cpu, mm) that has never been loaded: nothing cached.
pub const NOTHING_CACHED: u64 = u64::MAX;

/// Everything arm64 keeps besides the generic per-CPU and per-mm state.
#[derive(Debug, Default, Hash)]
pub struct Arm64State {
    /// Per CPU: the mm whose tables TTBR0 holds (init_mm's reserved TTBR0 for none), its
    /// ASID, and whether the CPU is lazy (a kernel thread or idle on a borrowed mm).
    pub loaded: Vec<Loaded>,
    // ---- ASID allocator (`mm/context.c`) ----
    pub asid_bits: u8,
    /// `asid_generation`: a multiple of `ASID_FIRST_VERSION = 1 << asid_bits`.
    pub generation: u64,
    /// `asid_map`, one bit per ASID of the current generation.
    pub asid_map: Vec<u64>,
    pub cur_idx: u32,
    /// `tlb_flush_pending`: this CPU must `VMALLE1` at its next slow-path switch.
    pub flush_pending: Vec<bool>,
    /// Per CPU `active_asids` (0 = take the slow path) and `reserved_asids`.
    pub active_asids: Vec<u64>,
    pub reserved_asids: Vec<u64>,
    /// Per mm `context.id` = generation | asid (0 = never allocated).
    pub ctx: Vec<u64>,
    // ---- skip-broadcast series ----
    /// Per mm `context.nr_active_mm`.
    pub nr_active: Vec<u32>,
    /// Per CPU `cpu_not_lazy_tlb`.
    pub not_lazy: Vec<bool>,
    /// Per CPU page walk in flight (for R16).
    pub walk: Vec<Option<Walk>>,
    /// `[cpu][mm]`: the mm generation up to which this CPU's walk caches for the mm were
    /// invalidated ([`NOTHING_CACHED`] if it never loaded the mm).
    pub walk_synced: Vec<Vec<u64>>,
    // ---- interconnect ----
    /// When the shared interconnect finishes the broadcasts queued so far.
    pub free_at: Ns,
    pub jobs: Vec<Job>,
    pub free_jobs: Vec<u32>,
    /// Per CPU: stalled in its own `DSB ISH`.
    pub in_dsb: Vec<bool>,
}

crate::clone_reusing::clone_reusing!(Arm64State {
    loaded,
    asid_bits,
    generation,
    asid_map,
    cur_idx,
    flush_pending,
    active_asids,
    reserved_asids,
    ctx,
    nr_active,
    not_lazy,
    walk,
    walk_synced,
    free_at,
    jobs,
    free_jobs,
    in_dsb,
});

impl Arm64State {
    /// `nr_active_mm` of `mm` (0 for an mm the state has not sized for yet).
    pub fn nr_active_mm(&self, mm: MmId) -> u32 {
        self.nr_active.get(mm.0 as usize).copied().unwrap_or(0)
    }

    pub fn new(cfg: &Config, mms: usize) -> Arm64State {
        let n = cfg.cpus as usize;
        let bits = cfg.asid_bits.clamp(2, 16);
        Arm64State {
            loaded: vec![Loaded::default(); n],
            asid_bits: bits,
            generation: 1 << bits,
            // ASID 0 is reserved for init_mm's reserved TTBR0.
            asid_map: {
                let mut m = vec![0u64; (1usize << bits).div_ceil(64)];
                m[0] = 1;
                m
            },
            cur_idx: 1,
            flush_pending: vec![false; n],
            active_asids: vec![0; n],
            reserved_asids: vec![0; n],
            ctx: vec![0; mms],
            nr_active: vec![0; mms],
            not_lazy: vec![false; n],
            walk: vec![None; n],
            walk_synced: vec![vec![NOTHING_CACHED; mms]; n],
            free_at: 0,
            jobs: Vec::new(),
            free_jobs: Vec::new(),
            in_dsb: vec![false; n],
        }
    }

    pub fn asid_mask(&self) -> u64 {
        (1u64 << self.asid_bits) - 1
    }

    /// The hardware ASID of `mm`'s current context id, if it has one.
    pub fn asid_of(&self, mm: MmId) -> Option<u16> {
        let ctx = *self.ctx.get(mm.0 as usize)?;
        (ctx != 0).then(|| (ctx & self.asid_mask()) as u16)
    }

    /// The generation number of a context id (for the trace's `gen` column).
    pub fn gen_of(&self, ctx: u64) -> u64 {
        ctx >> self.asid_bits
    }
}

/// Which TLBI (local form; the broadcast form adds `IS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TlbiOp {
    /// By VA + ASID, leaf only: walk caches kept (no page tables freed).
    Vale1,
    /// By VA + ASID, all levels: also the walk-cache entries for that VA.
    Vae1,
    /// Every entry of one ASID (`flush_tlb_mm`, ranges ≥ `MAX_DVM_OPS`).
    Aside1,
    /// Everything at EL1 (the post-rollover local flush).
    Vmalle1,
}

impl TlbiOp {
    /// Ops the CPU issues for `pages` pages.
    pub fn ops(self, pages: u32) -> u64 {
        match self {
            TlbiOp::Vale1 | TlbiOp::Vae1 => pages.max(1) as u64,
            _ => 1,
        }
    }

    /// The `arg` of a `LocalTlbi` row.
    pub(crate) fn code(self) -> u64 {
        match self {
            TlbiOp::Vale1 | TlbiOp::Vae1 => 0,
            TlbiOp::Aside1 => 1,
            TlbiOp::Vmalle1 => 2,
        }
    }
}

/// One broadcast on the interconnect.
#[derive(Clone, Copy, Debug, Hash)]
pub struct Job {
    pub cpu: CpuId,
    pub mm: MmId,
    pub asid: u16,
    pub op: TlbiOp,
    pub start: u32,
    pub pages: u32,
    /// TLBI ops (DVM messages) the flush issues: `pages` one by one, or range ops.
    pub ops: u64,
    pub row: Row,
}
