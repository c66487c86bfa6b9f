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
use crate::machine::Arch;

static X86: x86::X86 = x86::X86;
static ARM64: arm64::Arm64 = arm64::Arm64;

/// The architecture a config asks for.
pub fn for_config(cfg: &Config) -> &'static dyn Arch {
    match cfg.arch {
        crate::config::Arch::X86 => &X86,
        crate::config::Arch::Arm64 => &ARM64,
    }
}
