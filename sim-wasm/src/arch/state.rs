//! The machine's slot for architecture state. Each architecture defines its own state in its
//! folder and fills its part in `Arch::init_state`; the other part stays empty. Generic code
//! holds this struct and never looks inside it.

use crate::arch::arm64::state::Arm64State;
use crate::arch::x86::state::X86State;

#[derive(Debug, Default)]
pub struct ArchState {
    pub(crate) x86: X86State,
    pub(crate) arm64: Arm64State,
}

crate::clone_reusing::clone_reusing!(ArchState { x86, arm64 });
