//! The races (R1–R18, docs/model.md) the simulator models and the checker answers
//! exhaustively: each names its scenario in `content/scenarios/` and the settings that put the
//! mechanism back. The scenario file's own `[expect]` is the promise checked against: the
//! faulty design (its own settings, or those plus `faulty`) violates as it promises, each fixed
//! setting is an `[[expect.cases]]` entry with no violations (`tests/check.rs` holds the two
//! together).

use serde::Serialize;

#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Race {
    pub id: &'static str,
    pub title: &'static str,
    /// Scenario id (file name without `.toml`) in `content/scenarios/`.
    pub scenario: &'static str,
    /// Settings that make the faulty design, on top of the scenario's own: empty where the
    /// scenario itself is the faulty design (its story shows the race); set where the story
    /// shows the kernel's design and the race is one of its cases (R7, R11).
    pub faulty: &'static [&'static str],
    /// These put the mechanism back.
    pub fixed: &'static [&'static str],
}

/// R2, R8, R12 and R13 are checked on check-sized companions of their stories (`x86-r2-check`,
/// `x86-r8-check`, `x86-r12-check`, `x86-r13-check`): the stories' own machines (five tasks
/// over four CPUs; eight CPUs and forty pages; five CPUs and three flushes) take from over
/// 1,000,000 states to more than three million. R12's companion earns the global ASID with one
/// IPI flush and gets CPU 0 onto it by a sleep, so its second flush is already the INVLPGB; an
/// earlier draft needed three flushes and its fix passed 3,000,000 states unanswered.
pub const RACES: &[Race] = &[
    Race {
        id: "R1",
        title: "per-CPU flush_tlb_info reused while in flight",
        scenario: "x86-r1-percpu-descriptor-race",
        faulty: &[],
        fixed: &["flush_info=stack", "preempt=pinned"],
    },
    Race {
        id: "R2",
        title: "per-CPU wait mask overwritten during a preemptible wait",
        scenario: "x86-r2-check",
        faulty: &[],
        fixed: &["wait_mask=task", "preempt=pinned"],
    },
    Race {
        id: "R6",
        title: "lazy CPU walks freed page tables",
        scenario: "x86-r6-lazy-freed-tables",
        faulty: &[],
        fixed: &["lazy_freed_tables=ipi"],
    },
    Race {
        id: "R7",
        title: "switch_mm vs flush ordering (store buffering)",
        scenario: "x86-r7-switch-mm-order",
        faulty: &["switch_mm_barrier=none"],
        fixed: &["switch_mm_barrier=full"],
    },
    Race {
        id: "R8",
        title: "out-of-order full and partial flush requests (the \"+1\" rule)",
        scenario: "x86-r8-check",
        faulty: &["plus_one_rule=off"],
        fixed: &["plus_one_rule=on"],
    },
    Race {
        id: "R11",
        title: "PTI: a flushed user page left in the user PCID",
        scenario: "x86-pti-r11",
        faulty: &["pti_user_flush=none"],
        fixed: &["pti_user_flush=invpcid", "pti_user_flush=deferred"],
    },
    Race {
        id: "R12",
        title: "TLBSYNC on another CPU than its INVLPGBs",
        scenario: "x86-r12-check",
        faulty: &["tlbsync_pinned=off"],
        fixed: &["tlbsync_pinned=on"],
    },
    Race {
        id: "R13",
        title: "INVLPGB misses CPUs still on their per-CPU ASID",
        scenario: "x86-r13-check",
        faulty: &["asid_transition=off"],
        fixed: &["asid_transition=on"],
    },
    Race {
        id: "R15",
        title: "arm64 local-only TLBI while a lazy CPU still caches the ASID",
        scenario: "arm64-r15-lazy-kthread",
        faulty: &[],
        fixed: &["skip_rule=active_mm", "broadcast_skip=off"],
    },
    Race {
        id: "R16",
        title: "arm64 page walk outlives nr_active_mm (DSB before the decrement)",
        scenario: "arm64-r16-dsb-before-dec",
        faulty: &[],
        fixed: &["dsb_before_dec=on", "broadcast_skip=off"],
    },
];

/// The race with this id (`R1`, `r1`).
pub fn race(id: &str) -> Option<&'static Race> {
    RACES.iter().find(|r| r.id.eq_ignore_ascii_case(id))
}
