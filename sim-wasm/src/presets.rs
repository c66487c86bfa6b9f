//! Machine cost presets (`machine.preset`, `--set machine=<id>`). Each preset gives the default
//! CPU count, TLB geometry and every cost parameter; a scenario's `[costs]` table and
//! `--set costs.<name>=<ns>` override single values on top.
//!
//! The numbers are plausible values from kernel-mechanics.md §9–§10, not yet fitted to the seed
//! tables (that calibration is a later issue). Where a number is derived from a seed
//! measurement, the comment says how.

use crate::config::Costs;

pub struct Preset {
    pub id: &'static str,
    pub cpus: u16,
    pub tlb_entries: u32,
    pub tlb_ways: u32,
    pub costs: Costs,
}

/// Every preset id, the first being the default.
pub const IDS: [&str; 3] = ["generic-x86", "icelake-8336c-128", "skylake-laptop-kvm"];

pub fn by_id(id: &str) -> Option<Preset> {
    match id {
        // A ~3 GHz server core with the §10 mid-range values.
        "generic-x86" => Some(Preset {
            id: "generic-x86",
            cpus: 4,
            tlb_entries: 1024,
            tlb_ways: 8,
            costs: Costs {
                ipi_send_ns: 200,
                csd_queue_ns: 20,
                ipi_delivery_ns: 1_000,
                ipi_handler_ns: 500,
                flush_func_ns: 40,
                invlpg_ns: 100,
                full_flush_ns: 32,
                tlb_refill_ns: 20,
                tlb_hit_ns: 1,
                page_fault_ns: 600,
                syscall_ns: 150,
                zap_pte_ns: 20,
                cacheline_transfer_ns: 60,
                csd_poll_ns: 50,
                context_switch_ns: 1_000,
                switch_mm_ns: 100,
            },
        }),
        // Xeon Platinum 8336C, 128 CPUs, 2 NUMA nodes, PTI and mitigations off (seeds 000/001).
        // Chosen so that touch + MADV_DONTNEED with 3 busy threads lands near the measured
        // 2.53 µs/op; the descriptor line cost is what an extra (adjacent, prefetched) line
        // adds on the remote read path, so that an unaligned descriptor costs ≈1 % as measured.
        "icelake-8336c-128" => Some(Preset {
            id: "icelake-8336c-128",
            cpus: 128,
            tlb_entries: 2048,
            tlb_ways: 16,
            costs: Costs {
                ipi_send_ns: 100,
                csd_queue_ns: 20,
                ipi_delivery_ns: 900,
                ipi_handler_ns: 400,
                flush_func_ns: 30,
                invlpg_ns: 90,
                full_flush_ns: 32,
                tlb_refill_ns: 20,
                tlb_hit_ns: 1,
                page_fault_ns: 660,
                syscall_ns: 180,
                zap_pte_ns: 20,
                cacheline_transfer_ns: 25,
                csd_poll_ns: 40,
                context_switch_ns: 900,
                switch_mm_ns: 80,
            },
        }),
        // Skylake laptop at 2.3 GHz under KVM, idle=poll (10af6235e0d3, seed 004). The refill
        // cost is (6.2 − 1.8) µs / 512 pages ≈ 8.6 ns, the nopcid penalty per touched page;
        // a context switch is half of the 1.22 µs eventfd round trip minus the wakeup path.
        "skylake-laptop-kvm" => Some(Preset {
            id: "skylake-laptop-kvm",
            cpus: 4,
            tlb_entries: 1536,
            tlb_ways: 12,
            costs: Costs {
                ipi_send_ns: 400,
                csd_queue_ns: 30,
                ipi_delivery_ns: 2_500,
                ipi_handler_ns: 900,
                flush_func_ns: 50,
                invlpg_ns: 110,
                full_flush_ns: 42,
                tlb_refill_ns: 9,
                tlb_hit_ns: 1,
                page_fault_ns: 900,
                syscall_ns: 250,
                zap_pte_ns: 25,
                cacheline_transfer_ns: 70,
                csd_poll_ns: 60,
                context_switch_ns: 450,
                switch_mm_ns: 100,
            },
        }),
        _ => None,
    }
}
