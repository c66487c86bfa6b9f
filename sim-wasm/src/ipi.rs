//! The generic cross-call layer (`kernel/smp.c`): one csd per (sender, target) pair in the
//! sender's `cfd_data`, the sender's `cfd->cpumask`, and the flush descriptors
//! (`struct flush_tlb_info`) the requests point at.
//!
//! The IPI bus itself is in the machine: a request is `llist_add`ed to the target's
//! `call_queue`; the sender raises an IPI only if the queue was empty (coalescing, as `__smp_call_single_queue()` does).

use crate::ids::{CpuId, MmId, TaskId, TLB_GENERATION_INVALID};

/// `call_single_data_t` of one (sender, target) pair.
#[derive(Debug)]
pub struct Csd {
    /// `CSD_FLAG_LOCK`.
    pub locked: bool,
    /// `csd->info`: which descriptor the target's `flush_tlb_func` will read.
    pub info: u32,
    /// Tasks spinning on this csd (`csd_lock` or `csd_lock_wait`), with their epoch.
    pub waiters: Vec<(TaskId, u32)>,
    /// The CPU whose cache holds the csd's line ([`UNTOUCHED`] before its first use): the
    /// sender writes it, the target reads it and writes the unlock, the sender reads it again.
    pub line: u16,
}

impl Default for Csd {
    fn default() -> Self {
        Csd {
            locked: false,
            info: 0,
            waiters: Vec::new(),
            line: UNTOUCHED,
        }
    }
}

crate::clone_reusing::clone_reusing!(Csd {
    locked,
    info,
    waiters,
    line,
});

/// A line of the request protocol no CPU has touched yet: it comes from memory, whose cost is
/// the path's own.
pub const UNTOUCHED: u16 = u16::MAX;

/// `cpu` takes a line of the request protocol (a csd, a target's `call_single_queue` head)
/// that one CPU at a time holds, to write it or to read what another CPU just wrote: returns
/// the CPU whose cache it came from (a `Config::line_ns` transfer), if any. Every step of the
/// protocol hands such a line from one side to the other, so these transfers grow with the
/// number of requests, not with the work the requests ask for.
#[inline(always)]
pub fn take_line(holder: &mut u16, cpu: CpuId) -> Option<u16> {
    let from = *holder;
    *holder = cpu.0;
    (from != cpu.0 && from != UNTOUCHED).then_some(from)
}

/// `struct call_function_data` of one sender CPU.
#[derive(Debug, Default)]
pub struct Cfd {
    /// Indexed by target CPU; allocated on first use and never freed (2026 patch 5).
    pub csd: Vec<Csd>,
    /// `cfd->cpumask`: the targets of the latest many-call from this CPU.
    pub mask: Vec<u16>,
    /// The task currently waiting on `mask` (only when `wait_mask = percpu`), for I8.
    pub mask_user: Option<TaskId>,
}

crate::clone_reusing::clone_reusing!(Cfd {
    csd,
    mask,
    mask_user,
});

impl Cfd {
    // Three calls per request (dispatch, the handler's read, the unlock): inlined, as a call
    // of its own it was 3 % of a WASM run. `always`: LLVM still kept an outlined copy that
    // the flush path called, 20 instructions a call with its prologue.
    // The common case, a target below the csds' count, is one compare: the allocation and
    // the clamp of an out-of-range target (an emptiness test, a min and a bounds check on
    // every call) are in `csd_cold`.
    #[inline(always)]
    pub fn csd(&mut self, target: CpuId, cpus: u16) -> &mut Csd {
        let i = target.index();
        if i < self.csd.len() {
            return &mut self.csd[i];
        }
        self.csd_cold(target, cpus)
    }

    #[cold]
    #[inline(never)]
    fn csd_cold(&mut self, target: CpuId, cpus: u16) -> &mut Csd {
        if self.csd.is_empty() {
            self.csd = vec![Csd::default(); cpus as usize];
        }
        let i = target.index().min(self.csd.len() - 1);
        &mut self.csd[i]
    }

    /// `csd(target).info` without `csd`'s allocation (a csd not yet allocated reads as a fresh
    /// one): with that cold path in it, `call_func` saved and restored six registers around
    /// its tail call to `flush_tlb_func`, 14 of its 20 instructions. `csd`'s clamp is not
    /// repeated: the csds, once there, cover every CPU of the machine, and the target is one.
    pub fn info(&self, target: CpuId) -> u32 {
        self.csd.get(target.index()).map_or(0, |c| c.info)
    }

    pub fn is_locked(&self, target: CpuId) -> bool {
        self.csd.get(target.index()).is_some_and(|c| c.locked)
    }
}

/// `struct flush_tlb_info`.
#[derive(Clone, Copy, Debug, Hash)]
pub struct FlushTlbInfo {
    pub mm: MmId,
    pub start: u32,
    pub pages: u32,
    /// `end == TLB_FLUSH_ALL`.
    pub full: bool,
    pub new_tlb_gen: u64,
    pub initiating_cpu: CpuId,
    pub freed_tables: bool,
    pub trim_cpumask: bool,
    /// The task between `get_flush_tlb_info()` and `put_flush_tlb_info()` (I7).
    pub owner: Option<TaskId>,
}

impl Default for FlushTlbInfo {
    fn default() -> Self {
        FlushTlbInfo {
            mm: MmId::INIT_MM,
            start: 0,
            pages: 0,
            full: true,
            new_tlb_gen: TLB_GENERATION_INVALID,
            initiating_cpu: CpuId(0),
            freed_tables: false,
            trim_cpumask: false,
            owner: None,
        }
    }
}
