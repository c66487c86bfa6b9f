//! proptest strategies for cases: small machines, a few address spaces, short programs, and
//! only the design combinations the kernel has shipped (or the 2026 series ships).

use proptest::prelude::*;

use crate::transition::{Case, TaskCase, Transition};

fn transition() -> impl Strategy<Value = Transition> {
    let range = (0u32..24, 1u32..40);
    prop_oneof![
        4 => range.prop_map(|(page, n)| Transition::Touch { page, n }),
        3 => (0u32..24, 1u32..40).prop_map(|(page, n)| Transition::Madvise { page, n }),
        1 => (0u32..24, 1u32..40).prop_map(|(page, n)| Transition::Munmap { page, n }),
        2 => (0u64..5_000).prop_map(Transition::Spin),
        2 => (1u64..20_000).prop_map(Transition::Sleep),
        2 => (1u64..20_000).prop_map(Transition::IrqsOff),
        1 => Just(Transition::Yield),
    ]
}

fn task(cpus: u16) -> impl Strategy<Value = TaskCase> {
    (
        1u16..4,
        0..cpus,
        proptest::collection::vec(0..cpus, 0..3),
        prop_oneof![3 => Just(0u8), 1 => Just(1u8)],
        0u64..20_000,
        1u32..4,
        proptest::collection::vec(transition(), 1..7),
    )
        .prop_map(
            |(mm, cpu, cpus, prio, start_ns, repeat, program)| TaskCase {
                mm,
                cpu,
                cpus,
                prio,
                start_ns,
                repeat,
                program,
            },
        )
}

/// (flush_info, preempt) pairs that are safe by design: per-CPU descriptors only when pinned.
const DESIGNS: [(&str, &str); 5] = [
    ("percpu", "pinned"),
    ("stack", "pinned"),
    ("stack", "preemptible_wait"),
    ("stack_unaligned", "pinned"),
    ("stack_unaligned", "preemptible_wait"),
];

pub fn case() -> impl Strategy<Value = Case> {
    (2u16..6).prop_flat_map(|cpus| {
        (
            0usize..DESIGNS.len(),
            prop_oneof![Just("on"), Just("off")],
            prop_oneof![Just(16u32), Just(64u32), Just(1024u32)],
            proptest::collection::vec(task(cpus), 1..6),
            any::<u64>(),
        )
            .prop_map(move |(d, pcid, tlb_entries, tasks, seed)| Case {
                cpus,
                flush_info: DESIGNS[d].0,
                preempt: DESIGNS[d].1,
                pcid,
                tlb_entries,
                tasks,
                seed,
            })
    })
}
