//! The architecture protocol: the small set of operations the machine asks of an
//! architecture's TLB code. x86 implements it with PCID slots and IPI shootdowns
//! (`x86.rs`); arm64 with broadcast TLBI, ASID generations and the skip-broadcast series
//! (`arm64/`).

pub mod arm64;
pub mod x86;

use crate::config::Config;
use crate::ids::{CpuId, MmId, Ns, TaskId};
use crate::machine::World;
use crate::task::FlushPhase;
use crate::trace::Row;

pub trait Arch: Sync {
    fn name(&self) -> &'static str;

    /// The tag (x86 PCID slot, arm64 hardware ASID) of the translations `cpu` uses right now.
    fn tlb_tag(&self, w: &World, cpu: CpuId) -> u16;

    /// Context switch of the address space on `cpu` to `next` (IRQs off). Returns its cost.
    fn switch_mm(&self, w: &mut World, cpu: CpuId, next: MmId) -> Ns;

    /// The CPU runs a kernel thread or goes idle, keeping the user mm loaded (lazy TLB).
    fn enter_lazy_tlb(&self, w: &mut World, cpu: CpuId);

    /// A task is about to unmap `[page, page+n)` of its mm: remember what to flush.
    fn prepare_flush(&self, w: &mut World, t: TaskId, page: u32, n: u32, freed_tables: bool);

    /// Advance the task's flush by one phase (the arch drives the task with `World::step`).
    fn flush_step(&self, w: &mut World, t: TaskId, phase: FlushPhase);

    /// Run one cross-call request from `sender` in `cpu`'s IPI handler. Returns its cost and
    /// the trace row of the function's span.
    fn call_func(&self, w: &mut World, cpu: CpuId, sender: CpuId, handler: Row) -> (Ns, Row);

    /// The CPU speculatively walks the page tables it has loaded (the `speculate` op).
    fn speculative_walk(&self, w: &mut World, cpu: CpuId) {
        crate::invariants::check_speculative_walk(w, cpu);
    }

    /// A timer the arch scheduled with `Ev::arch_timer` fired (e.g. arm64: a queued broadcast
    /// reaches the interconnect). `data` is what the arch stored.
    fn on_timer(&self, _w: &mut World, _cpu: CpuId, _data: u32) {}
}

static X86: x86::X86 = x86::X86;
static ARM64: arm64::Arm64 = arm64::Arm64;

/// The architecture a config asks for.
pub fn for_config(cfg: &Config) -> &'static dyn Arch {
    match cfg.arch {
        crate::config::Arch::X86 => &X86,
        crate::config::Arch::Arm64 => &ARM64,
    }
}
