//! arm64: hardware-broadcast TLB invalidation, the ASID allocator, and Andrea Arcangeli's
//! unmerged "skip tlbi broadcast" series (2020; `arch/arm64/include/asm/tlbflush.h`,
//! `arch/arm64/mm/context.c`, `arch/arm64/include/asm/percpu.h`; races R14–R17).
//!
//! File organisation:
//! * `mod.rs` (this file): the [`Arch`] protocol, delegating to the files below, and arm64's
//!   part of the inspector's snapshot.
//! * `state.rs`: TTBR0 per CPU, the ASID allocator's state, the skip-broadcast counters, walks
//!   in flight, the interconnect's queue.
//! * `mmu_context.rs`: `switch_mm` with the `nr_active_mm` accounting, `enter_lazy_tlb`
//!   (kernel thread vs idle).
//! * `asid.rs`: `check_and_switch_context` / `new_context` / `flush_context` (`mm/context.c`).
//! * `flush.rs`: `__flush_tlb_range` with `tlb_flush_check` → no / local / broadcast.
//! * `tlbi.rs`: TLBI ops on one CPU's TLB and the shared interconnect broadcasts queue on.
//! * `presets.rs`: the arm64 server presets without range TLBI (Altra, ThunderX2).
//! * `range.rs`: how many TLBI ops a range takes with and without FEAT_TLBIRANGE, and when it
//!   falls back to an ASID flush.
//! * `checks.rs`: the arm64 invariants I16 (BBM), I17 (ASID generations), I18 (handshake).
//! * `percpu.rs`: `smp_processor_id()` cost (`cpu_id`), `this_cpu_*` preemption windows.
//!
//! Model limits: `switch_mm` is one atomic event (the `nr_active_mm` decrement of the fix
//! takes effect with it, its `DSB ISH` is charged as cost); every TTBR0 change away from a
//! running user mm leaves one page walk in flight for `ptw_ns` unless a DSB completes it; the
//! hardware never starts walks for an ASID no TTBR0 holds (Mark Rutland's open point); no
//! KPTI (ASIDs are not paired), no pinned ASIDs; a range TLBI (`tlbi_range = on`) is charged
//! as one DVM message like a single-page op.

pub mod asid;
pub mod checks;
pub mod flush;
pub mod mmu_context;
pub mod percpu;
pub mod presets;
pub mod range;
pub mod state;
pub mod tlbi;

use self::state::Arm64State;
use crate::ids::{CpuId, MmId, Ns, TaskId};
use crate::machine::{Arch, World};
use crate::snapshot::{AsidAllocator, MmContext};
use crate::task::{FlushOp, FlushPhase};
use crate::trace::Row;

pub struct Arm64;

impl Arch for Arm64 {
    fn name(&self) -> &'static str {
        "arm64"
    }

    fn init_state(&self, w: &mut World) {
        w.arch_state.arm64 = Arm64State::new(&w.cfg, w.mms.len());
    }

    fn tlb_tag(&self, w: &World, cpu: CpuId) -> u16 {
        w.arch_state.arm64.loaded[cpu.index()].loaded_mm_asid
    }

    fn switch_mm(&self, w: &mut World, cpu: CpuId, next: MmId) -> Ns {
        mmu_context::switch_mm(w, cpu, next)
    }

    fn enter_lazy_tlb(&self, w: &mut World, cpu: CpuId) {
        mmu_context::enter_lazy_tlb(w, cpu);
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
    fn call_func(&self, _w: &mut World, _cpu: CpuId, _sender: CpuId, _handler: Row) -> Ns {
        0
    }

    fn speculative_walk(&self, w: &mut World, cpu: CpuId) {
        checks::check_walk_caches(w, cpu);
    }

    fn on_timer(&self, w: &mut World, _cpu: CpuId, data: u32) {
        tlbi::service(w, data);
    }

    /// The tag is the hardware ASID: another mm's entry means an ASID was reused across
    /// generations without the post-rollover local flush.
    fn tag_alias_invariant(&self) -> (&'static str, &'static str) {
        ("I17", "ASID reused without a flush")
    }

    fn smp_processor_id_cost(&self, w: &World, n: u64) -> Ns {
        percpu::cpu_id_cost(&w.cfg, n)
    }

    fn this_cpu_inc(&self, w: &mut World, t: TaskId) {
        percpu::this_cpu_inc(w, t);
    }

    fn loaded(&self, w: &World, cpu: CpuId) -> (MmId, u16, bool) {
        let l = &w.arch_state.arm64.loaded[cpu.index()];
        (l.loaded_mm, l.loaded_mm_asid, l.is_lazy)
    }

    fn mm_context(&self, w: &World, mm: MmId) -> MmContext {
        let st = &w.arch_state.arm64;
        let ctx = st.ctx.get(mm.0 as usize).copied().unwrap_or(0);
        MmContext {
            asid: Some(ctx & st.asid_mask()),
            asid_generation: Some(ctx >> st.asid_bits),
            nr_active_mm: Some(st.nr_active_mm(mm)),
        }
    }

    fn asid_allocator(&self, w: &World) -> Option<AsidAllocator> {
        let st = &w.arch_state.arm64;
        let mask = st.asid_mask();
        Some(AsidAllocator {
            generation: st.generation >> st.asid_bits,
            active_asids: st.active_asids.iter().map(|a| a & mask).collect(),
            reserved_asids: st.reserved_asids.iter().map(|a| a & mask).collect(),
            flush_pending: (0..st.flush_pending.len() as u16)
                .filter(|&c| st.flush_pending[c as usize])
                .collect(),
        })
    }
}
