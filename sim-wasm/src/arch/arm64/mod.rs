//! arm64: hardware-broadcast TLB invalidation, the ASID allocator, and Andrea Arcangeli's
//! unmerged "skip tlbi broadcast" series (kernel-mechanics.md §5, §6, R14–R17).
//!
//! File organisation:
//! * `mod.rs` (this file): per-machine state and the [`Arch`] protocol — `switch_mm` with the
//!   `nr_active_mm` accounting, `enter_lazy_tlb` (kernel thread vs idle), speculative walks.
//! * `asid.rs`: `check_and_switch_context` / `new_context` / `flush_context` (`mm/context.c`).
//! * `flush.rs`: `__flush_tlb_range` with `tlb_flush_check` → no / local / broadcast.
//! * `tlbi.rs`: TLBI ops on one CPU's TLB and the shared interconnect broadcasts queue on.
//! * `checks.rs`: the arm64 invariants I16 (BBM), I17 (ASID generations), I18 (handshake).
//! * `percpu.rs`: `smp_processor_id()` cost (`cpu_id`), `this_cpu_*` preemption windows.
//!
//! Model limits: `switch_mm` is one atomic event (the `nr_active_mm` decrement of the fix
//! takes effect with it, its `DSB ISH` is charged as cost); every TTBR0 change away from a
//! running user mm leaves one page walk in flight for `ptw_ns` unless a DSB completes it; the
//! hardware never starts walks for an ASID no TTBR0 holds (Mark Rutland's open point); no
//! KPTI (ASIDs are not paired), no pinned ASIDs, no range TLBI (FEAT_TLBIRANGE).

pub mod asid;
pub mod checks;
pub mod flush;
pub mod percpu;
pub mod tlbi;

use crate::arch::Arch;
use crate::config::Config;
use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns, TaskId};
use crate::machine::World;
use crate::task::{FlushOp, FlushPhase};
use crate::trace::{Fields, Row};

pub struct Arm64;

/// A page-table walk still in flight on a CPU after its TTBR0 moved away from `mm`.
#[derive(Clone, Copy, Debug)]
pub struct Walk {
    pub mm: MmId,
    pub until: Ns,
    pub row: Row,
}

/// Walk-cache state of (cpu, mm) that has never been loaded: nothing cached.
pub const NOTHING_CACHED: u64 = u64::MAX;

/// Everything arm64 keeps besides the generic per-CPU and per-mm state.
#[derive(Clone, Debug, Default)]
pub struct Arm64State {
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
    pub jobs: Vec<tlbi::Job>,
    pub free_jobs: Vec<u32>,
    /// Per CPU: stalled in its own `DSB ISH`.
    pub in_dsb: Vec<bool>,
    // ---- preemption ----
    /// Per CPU open `PreemptOff` span (row, start) of `preempt_disable` windows.
    pub preempt_row: Vec<Option<(Row, Ns)>>,
}

impl Arm64State {
    pub fn new(cfg: &Config, mms: usize) -> Arm64State {
        let n = cfg.cpus as usize;
        let bits = cfg.asid_bits.clamp(2, 16);
        Arm64State {
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
            preempt_row: vec![None; n],
        }
    }

    pub fn asid_mask(&self) -> u64 {
        (1u64 << self.asid_bits) - 1
    }

    /// The generation number of a context id (for the trace's `gen` column).
    pub fn gen_of(&self, ctx: u64) -> u64 {
        ctx >> self.asid_bits
    }
}

/// The hardware ASID of `mm`'s current context id, if it has one.
pub fn asid_of(w: &World, mm: MmId) -> Option<u16> {
    let ctx = *w.arm.ctx.get(mm.0 as usize)?;
    (ctx != 0).then(|| (ctx & w.arm.asid_mask()) as u16)
}

/// `nr_active_mm += delta` with its trace row.
fn change_nr_active(w: &mut World, cpu: CpuId, mm: MmId, inc: bool, parent: Option<Row>) {
    let now = w.now();
    let Some(n) = w.arm.nr_active.get_mut(mm.0 as usize) else {
        return;
    };
    *n = if inc { *n + 1 } else { n.saturating_sub(1) };
    let f = Fields {
        mm,
        arg: *n as u64,
        parent,
        ..Fields::default()
    };
    w.trace.instant(now, cpu, EventKind::NrActiveMmChanged, f);
}

/// TTBR0 leaves `prev` (switch or idle's reserved TTBR0): with the fix, `DSB ISH` completes the
/// walks in flight before `nr_active_mm--`; without it a walk stays in flight. Returns the
/// DSB's cost.
fn leave_mm(w: &mut World, cpu: CpuId, prev: MmId) -> Ns {
    let now = w.now();
    let ptw = w.cfg.costs.arm64.ptw_ns;
    let cost = if w.cfg.design.dsb_before_dec {
        // Worst case: a walk started just before the MSR; the DSB waits for all of it.
        ptw
    } else {
        let f = Fields {
            mm: prev,
            asid: 0,
            ..Fields::default()
        };
        let row = w.trace.span(now, ptw, cpu, EventKind::PageWalk, f);
        w.arm.walk[cpu.index()] = Some(Walk {
            mm: prev,
            until: now.saturating_add(ptw),
            row,
        });
        0
    };
    change_nr_active(w, cpu, prev, false, None);
    cost
}

fn set_loaded(w: &mut World, cpu: CpuId, mm: MmId, asid: u16) {
    let ts = &mut w.cpus[cpu.index()].tlbstate;
    let prev = ts.loaded_mm;
    ts.loaded_mm = mm;
    ts.loaded_mm_asid = asid;
    if prev != mm {
        if let Some(m) = w.mms.get_mut(prev.0 as usize) {
            m.loaded_on = m.loaded_on.saturating_sub(1);
        }
        if let Some(m) = w.mms.get_mut(mm.0 as usize) {
            m.loaded_on += 1;
        }
    }
    if mm != MmId::INIT_MM {
        let gen = w.mms[mm.0 as usize].tlb_gen;
        if let Some(s) = w.arm.walk_synced[cpu.index()].get_mut(mm.0 as usize) {
            if *s == NOTHING_CACHED {
                *s = gen;
            }
        }
    }
}

impl Arch for Arm64 {
    fn name(&self) -> &'static str {
        "arm64"
    }

    fn tlb_tag(&self, w: &World, cpu: CpuId) -> u16 {
        w.cpus[cpu.index()].tlbstate.loaded_mm_asid
    }

    /// `switch_mm()` → (skip series: `nr_active_mm(next)++`) → `check_and_switch_context()`
    /// → (skip series: stale-bit ASID flush) → `cpu_switch_mm()` → (skip series: `DSB ISH` if
    /// `dsb_before_dec`, `nr_active_mm(prev)--`).
    fn switch_mm(&self, w: &mut World, cpu: CpuId, next: MmId) -> Ns {
        let now = w.now();
        let skip = w.cfg.design.broadcast_skip;
        let c = cpu.index();
        let ts = &mut w.cpus[c].tlbstate;
        let prev = ts.loaded_mm;
        let was_lazy = ts.is_lazy;
        ts.is_lazy = false;
        if was_lazy {
            if let Some(r) = w.cpus[c].lazy_row.take() {
                w.trace.end(r, now);
            }
        }
        // Idle installed the reserved TTBR0 and left nr_active_mm (skip series only).
        let from_idle = skip && !w.arm.not_lazy[c];
        if (prev == next && !from_idle) || next.0 as usize >= w.mms.len() {
            return 0;
        }
        let mut cost = w.cfg.costs.switch_mm_ns;
        if skip {
            w.arm.not_lazy[c] = true;
            change_nr_active(w, cpu, next, true, None);
        }
        let (ctx_cost, asid, flushed) = asid::check_and_switch_context(w, cpu, next);
        cost = cost.saturating_add(ctx_cost);
        if skip {
            cost = cost.saturating_add(flush::flush_stale_asid(w, cpu, next, asid));
        }
        set_loaded(w, cpu, next, asid);
        if skip && !from_idle && prev != MmId::INIT_MM && prev != next {
            cost = cost.saturating_add(leave_mm(w, cpu, prev));
        }
        let f = Fields {
            mm: next,
            asid,
            gen: w.arm.gen_of(w.arm.ctx[next.0 as usize]),
            arg: flushed as u64,
            ..Fields::default()
        };
        w.trace.span(now, cost, cpu, EventKind::SwitchMm, f);
        cost
    }

    /// Mainline: nothing (TTBR0 keeps the user mm). Skip series: a kernel thread keeps
    /// counting as active; idle marks the CPU lazy, installs the reserved TTBR0, (DSB,) and
    /// leaves `nr_active_mm`.
    fn enter_lazy_tlb(&self, w: &mut World, cpu: CpuId) {
        let now = w.now();
        let c = cpu.index();
        let ts = &w.cpus[c].tlbstate;
        let mm = ts.loaded_mm;
        if mm == MmId::INIT_MM {
            return;
        }
        let idle = w.cpus[c].curr.is_none();
        if !ts.is_lazy {
            let f = Fields {
                mm,
                asid: ts.loaded_mm_asid,
                ..Fields::default()
            };
            let row = w.trace.begin(now, cpu, EventKind::Lazy, f);
            w.cpus[c].tlbstate.is_lazy = true;
            w.cpus[c].lazy_row = Some(row);
        }
        if w.cfg.design.broadcast_skip && idle && w.arm.not_lazy[c] {
            w.arm.not_lazy[c] = false;
            set_loaded(w, cpu, MmId::INIT_MM, 0);
            leave_mm(w, cpu, mm);
        }
    }

    fn prepare_flush(&self, w: &mut World, t: TaskId, page: u32, n: u32, freed_tables: bool) {
        let task = &w.tasks[t.index()];
        let op = FlushOp::new(task.mm, task.cpu, page, n, freed_tables, Vec::new());
        w.tasks[t.index()].flush = Some(op);
    }

    /// Phases: `Begin` = PTE change, `get_cpu()`, `tlb_flush_check()`; `Dispatch` = issue the
    /// TLBIs (local, or broadcast after `put_cpu()`); `LocalDone` = the DSB completed.
    fn flush_step(&self, w: &mut World, t: TaskId, phase: FlushPhase) {
        match phase {
            FlushPhase::Begin => flush::begin(w, t),
            FlushPhase::Dispatch => flush::dispatch(w, t),
            FlushPhase::LocalDone | FlushPhase::Wait => flush::done(w, t),
        }
    }

    /// arm64 flushes send no IPIs; nothing ever queues a call-function request.
    fn call_func(&self, _w: &mut World, _cpu: CpuId, _sender: CpuId, handler: Row) -> (Ns, Row) {
        (0, handler)
    }

    fn speculative_walk(&self, w: &mut World, cpu: CpuId) {
        checks::check_walk_caches(w, cpu);
    }

    fn on_timer(&self, w: &mut World, _cpu: CpuId, data: u32) {
        tlbi::service(w, data);
    }
}
