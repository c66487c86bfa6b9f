//! The architectures: each folder implements the machine's [`Arch`] protocol after its
//! kernel's files and owns its state, its invariants, its part of the inspector's snapshot
//! and its per-CPU-access costs. x86 (`x86/`): PCID slots, lazy TLB and IPI shootdowns;
//! arm64 (`arm64/`): broadcast TLBI, ASID generations and the skip-broadcast series.
//!
//! A new mechanism of one architecture is a new file in its folder; generic code
//! (`machine.rs`, `ops.rs`, `sched.rs`, `invariants.rs`, `inspect.rs`) reaches it only through
//! the trait.

pub mod arm64;
pub mod state;
pub mod x86;

use crate::config::Config;
use crate::ids::{CpuId, MmId, Ns, TaskId};
use crate::machine::{Arch, World};
use crate::snapshot::{AsidAllocator, MmContext, Slot};
use crate::task::FlushPhase;
use crate::trace::Row;

/// The architecture a config asks for. It is the config's own enum, not a `dyn Arch`: the
/// world holds it and [`Arch`] is implemented for it below, dispatching by a `match`, so the
/// machine's code names no architecture and imports nothing from `arch/`.
pub fn for_config(cfg: &Config) -> crate::config::Arch {
    cfg.arch
}

/// Each method of [`Arch`] forwarded to the architecture's own implementation, by a `match`
/// rather than through a `dyn Arch` vtable: with the implementation known at each call site,
/// LLVM inlines the small delegating methods (`call_func`, `flush_step`, `kernel_entry`, the
/// tags) into the per-event code and calls the kernel functions behind them directly. Node
/// 20's V8 inlines no wasm call, and an indirect one also checks the table and the
/// signature; the vtable calls were one in ~3 events of the bench run.
macro_rules! forward {
    ($(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?;)*) => {
        impl Arch for crate::config::Arch {
            $(
                #[inline]
                fn $name(&self $(, $arg: $ty)*) $(-> $ret)? {
                    match self {
                        crate::config::Arch::X86 => x86::X86.$name($($arg),*),
                        crate::config::Arch::Arm64 => arm64::Arm64.$name($($arg),*),
                    }
                }
            )*
        }
    };
}

forward! {
    fn name(&self) -> &'static str;
    fn init_state(&self, w: &mut World);
    fn tlb_tag(&self, w: &World, cpu: CpuId) -> u16;
    fn switch_mm(&self, w: &mut World, cpu: CpuId, next: MmId) -> Ns;
    fn enter_lazy_tlb(&self, w: &mut World, cpu: CpuId);
    fn prepare_flush(&self, w: &mut World, t: TaskId, page: u32, n: u32, freed_tables: bool);
    fn flush_step(&self, w: &mut World, t: TaskId, phase: FlushPhase);
    fn call_func(&self, w: &mut World, cpu: CpuId, sender: CpuId, handler: Row) -> Ns;
    fn speculative_walk(&self, w: &mut World, cpu: CpuId);
    fn on_timer(&self, w: &mut World, cpu: CpuId, data: u32);
    fn timer_label(&self, data: u32) -> (&'static str, &'static str);
    fn tag_alias_invariant(&self) -> (&'static str, &'static str);
    fn check_stale_hit(&self, w: &mut World, cpu: CpuId, mm: MmId, vpn: u32, version: u32) -> bool;
    fn smp_processor_id_cost(&self, w: &World, n: u64) -> Ns;
    fn this_cpu_inc(&self, w: &mut World, t: TaskId);
    fn loaded(&self, w: &World, cpu: CpuId) -> (MmId, u16, bool);
    fn switching(&self, w: &World, cpu: CpuId) -> Option<(MmId, bool)>;
    fn tag_slots(&self, w: &World, cpu: CpuId) -> Vec<Slot>;
    fn mm_context(&self, w: &World, mm: MmId) -> MmContext;
    fn asid_allocator(&self, w: &World) -> Option<AsidAllocator>;
    fn user_tag(&self, w: &mut World, cpu: CpuId) -> u16;
    fn kernel_tag(&self, w: &World, cpu: CpuId) -> Option<u16>;
    fn kernel_entry(&self, w: &mut World, cpu: CpuId) -> Ns;
}

#[cfg(test)]
mod tests {
    /// Names of the methods declared in the block that starts at `start` (up to its closing
    /// brace at the start of a line).
    fn methods(source: &str, start: &str) -> Vec<String> {
        let block = source.split(start).nth(1).unwrap_or("");
        let block = block.split("\n}").next().unwrap_or("");
        let mut names: Vec<String> = block
            .lines()
            .filter_map(|l| l.trim().strip_prefix("fn "))
            .map(|l| l.split('(').next().unwrap_or("").to_string())
            .collect();
        names.sort();
        names
    }

    /// A method added to `Arch` with a default body and not to `forward!` would compile and
    /// silently run the default for every architecture: the two lists must name the same.
    #[test]
    fn every_arch_method_is_forwarded() {
        let declared = methods(include_str!("../machine.rs"), "pub trait Arch: Sync {");
        let forwarded = methods(include_str!("mod.rs"), "\nforward! {");
        assert!(declared.len() > 20, "trait not found: {declared:?}");
        assert_eq!(declared, forwarded);
    }
}
