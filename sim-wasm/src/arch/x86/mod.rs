//! x86: PCID slots, lazy TLB and IPI shootdowns, after `arch/x86/mm/tlb.c` and the cross calls
//! of `kernel/smp.c`.
//!
//! File organisation (each mirrors the kernel's functions of the same names):
//! * `mod.rs` (this file): the [`Arch`] protocol, delegating to the files below.
//! * `state.rs`: per-CPU `cpu_tlbstate` (loaded mm, PCID slots with their generations, lazy).
//! * `switch_mm.rs`: `switch_mm_irqs_off`, `choose_new_asid`, `enter_lazy_tlb`.
//! * `flush.rs`: `flush_tlb_mm_range`, `should_flush_tlb`, the IPI dispatch and wait of
//!   `smp_call_function_many_cond`, and `flush_tlb_func`.
//! * `checks.rs`: the x86 invariants I1, I2, I4, I5, I7, I8, I13.

pub mod cacheline;
pub mod checks;
pub mod costs;
pub mod flush;
pub mod flush_entry;
pub mod invlpgb;
pub mod kernels;
pub mod loaded;
pub mod machine_defaults;
pub mod pti;
pub mod state;
pub mod switch_mm;

use self::state::{FixedCosts, X86State};
use crate::ids::{mul_sat, CpuId, MmId, Ns, TaskId};
use crate::machine::{Arch, World};
use crate::snapshot::Slot;
use crate::task::{Cont, FlushOp, FlushPhase};
use crate::trace::Row;

pub struct X86;

impl Arch for X86 {
    fn name(&self) -> &'static str {
        "x86"
    }

    fn init_state(&self, w: &mut World) {
        let mut x86 = X86State::new(w.cfg.cpus);
        // A remote call pulls the descriptor's cache lines (as many as the `flush_info`
        // placement spans) from the initiator: fixed for the run, so multiplied out once here.
        let cfg = &w.cfg;
        let pull = |line_ns| mul_sat(cfg.descriptor_lines(), line_ns);
        let func = cfg.costs.flush_func_ns;
        x86.fixed = FixedCosts {
            func_ns: [
                func,
                func.saturating_add(pull(cfg.costs.cacheline_transfer_ns)),
                func.saturating_add(pull(cfg.costs.socket_transfer_ns)),
            ],
            entry_ns: flush_entry::fixed_cost(&w.cfg),
        };
        w.arch_state.x86 = x86;
    }

    fn tlb_tag(&self, w: &World, cpu: CpuId) -> u16 {
        switch_mm::tlb_tag(w, cpu)
    }

    fn switch_mm(&self, w: &mut World, cpu: CpuId, next: MmId) -> Ns {
        // A switch to a user task (not `flush_tlb_func` leaving lazy mode for `init_mm`) runs
        // the kernel's syscall, wakeup and scheduler paths first: their global translations.
        let kernel = if next == MmId::INIT_MM {
            0
        } else {
            // Under PTI the trip into the kernel that led here (a syscall, an interrupt)
            // switched CR3 in and will switch it out to the new task.
            pti::kernel_entry(w, cpu).saturating_add(w.touch_kernel(cpu))
        };
        kernel.saturating_add(switch_mm::switch_mm_sched(w, cpu, next))
    }

    fn enter_lazy_tlb(&self, w: &mut World, cpu: CpuId) {
        switch_mm::enter_lazy_tlb(w, cpu);
    }

    fn prepare_flush(&self, w: &mut World, t: TaskId, page: u32, n: u32, freed_tables: bool) {
        let task = &w.tasks[t.index()];
        let targets = w.scratch_targets.pop().unwrap_or_default();
        let op = FlushOp::new(task.mm, task.cpu, page, n, freed_tables, targets);
        w.tasks[t.index()].flush = Some(op);
    }

    fn flush_step(&self, w: &mut World, t: TaskId, phase: FlushPhase) {
        match phase {
            FlushPhase::Begin => flush::flush_tlb_mm_range(w, t),
            FlushPhase::Dispatch => flush::smp_call_function_many_cond(w, t),
            FlushPhase::LocalDone => flush::local_flush_done(w, t, true),
            FlushPhase::Wait => flush::csd_lock_wait(w, t),
        }
    }

    fn call_func(&self, w: &mut World, cpu: CpuId, sender: CpuId, handler: Row) -> Ns {
        let cfd = &mut w.cfd[sender.index()];
        let desc = cfd.info(cpu);
        // The handler reads the csd the sender filled (and then writes its unlock).
        let from = cfd
            .csd
            .get_mut(cpu.index())
            .and_then(|csd| crate::ipi::take_line(&mut csd.line, cpu));
        let read = from.map_or(0, |from| {
            w.stats.x86_ops.request_line_misses += 1;
            w.cfg.line_ns(from, cpu)
        });
        flush::flush_tlb_func(w, cpu, desc, false, handler).saturating_add(read)
    }

    fn on_timer(&self, w: &mut World, cpu: CpuId, data: u32) {
        match data {
            switch_mm::TIMER_DRAIN => switch_mm::drain(w, cpu),
            switch_mm::TIMER_CR3 => switch_mm::cr3(w, cpu),
            id => invlpgb::performed(w, id),
        }
    }

    fn timer_label(&self, data: u32) -> (&'static str, &'static str) {
        match data {
            switch_mm::TIMER_DRAIN => (
                "switch_mm's buffered stores (LOADED_MM_SWITCHING, is_lazy = false)",
                "become visible",
            ),
            switch_mm::TIMER_CR3 => ("switch_mm", "writes CR3"),
            _ => ("INVLPGB", "is performed on every CPU"),
        }
    }

    fn speculative_walk(&self, w: &mut World, cpu: CpuId) {
        checks::check_speculative_walk(w, cpu);
    }

    fn tag_alias_invariant(&self) -> (&'static str, &'static str) {
        ("I1", "PCID slot aliasing")
    }

    fn check_stale_hit(&self, w: &mut World, cpu: CpuId, mm: MmId, vpn: u32, version: u32) -> bool {
        checks::check_slot_freshness(w, cpu, mm, vpn, version)
    }

    /// x86 scenarios reject the `cpuid` op (`scenario/tasks.rs`): the per-CPU access the model
    /// measures is arm64's. `%gs`-relative, it would cost no more than the instruction.
    fn smp_processor_id_cost(&self, _w: &World, _n: u64) -> Ns {
        0
    }

    /// x86 scenarios reject the `this_cpu_inc` op (`scenario/tasks.rs`). On x86 it is one
    /// `%gs`-relative instruction, which needs no preemption window.
    fn this_cpu_inc(&self, w: &mut World, t: TaskId) {
        w.step(t, 0, true, Cont::NextOp);
    }

    fn loaded(&self, w: &World, cpu: CpuId) -> (MmId, u16, bool) {
        let ts = &w.arch_state.x86.cpu_tlbstate[cpu.index()];
        (ts.loaded_mm, ts.loaded_mm_asid, ts.is_lazy)
    }

    fn switching(&self, w: &World, cpu: CpuId) -> Option<(MmId, bool)> {
        let s = w
            .arch_state
            .x86
            .switching
            .get(cpu.index())
            .copied()
            .flatten()?;
        Some((s.next, s.buffered))
    }

    fn user_tag(&self, w: &mut World, cpu: CpuId) -> u16 {
        pti::user_tag(w, cpu)
    }

    fn kernel_tag(&self, w: &World, cpu: CpuId) -> Option<u16> {
        pti::kernel_tag(w, cpu)
    }

    fn kernel_entry(&self, w: &mut World, cpu: CpuId) -> Ns {
        pti::kernel_entry(w, cpu)
    }

    fn tag_slots(&self, w: &World, cpu: CpuId) -> Vec<Slot> {
        let ts = &w.arch_state.x86.cpu_tlbstate[cpu.index()];
        ts.ctxs
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
    }
}
