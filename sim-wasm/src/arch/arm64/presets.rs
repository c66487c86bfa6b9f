//! arm64 server presets beyond the 32-CPU machine of Andrea Arcangeli's 2020 measurements:
//! servers without FEAT_TLBIRANGE, whose ranged flushes are one broadcast TLBI per page.
//! Nothing here is fitted to a measurement: the CPU counts, TLB geometry and features come from
//! the vendors' documents, and every time is an estimate derived from `generic-arm64`'s
//! (mid-range estimates) by a rule stated below.
//! The `tlbi_range` default of each preset is in `range.rs`. `presets.rs` turns each into a
//! `Preset` (arm64, hashed TLB index) with `generic-arm64`'s costs passed in, so this file
//! depends on the configuration types only.

use crate::config::{Arm64Costs, Costs};
use crate::page_cache::PageCosts;

/// One arm64 server: what `presets::Preset` needs besides the architecture.
pub struct Server {
    pub id: &'static str,
    pub cpus: u16,
    pub tlb_entries: u32,
    pub tlb_ways: u32,
    /// Sockets the CPUs are spread over, numbered socket by socket.
    pub sockets: u16,
    pub costs: Costs,
}

/// The ids of this file's presets, in the order `presets::IDS` lists them.
pub const IDS: [&str; 2] = ["altra-n1-80", "thunderx2-2s"];

/// `generic-arm64`'s costs (a ~3 GHz core) for a core clocked at `ghz_x10` / 10 GHz: every
/// cost of work on the core itself scales with the clock period; the IPI fields (unused on
/// arm64), the cache-line transfer and the interconnect (`dvm_op_ns`, `dsb_ish_ns`, set by
/// each preset) do not.
fn at_clock(generic: &Costs, ghz_x10: u64) -> Costs {
    let base = generic.clone();
    let k = base.arm64.clone();
    let s = |ns: u64| (ns * 30).div_ceil(ghz_x10);
    Costs {
        full_flush_ns: s(base.full_flush_ns),
        tlb_refill_ns: s(base.tlb_refill_ns),
        tlb_hit_ps: s(base.tlb_hit_ps),
        page_fault_ns: s(base.page_fault_ns),
        syscall_ns: s(base.syscall_ns),
        zap_pte_ns: s(base.zap_pte_ns),
        context_switch_ns: s(base.context_switch_ns),
        switch_mm_ns: s(base.switch_mm_ns),
        arm64: Arm64Costs {
            tlbi_local_ns: s(k.tlbi_local_ns),
            tlbi_all_local_ns: s(k.tlbi_all_local_ns),
            dsb_nsh_ns: s(k.dsb_nsh_ns),
            dsb_ishst_ns: s(k.dsb_ishst_ns),
            victim_ns: s(k.victim_ns),
            asid_fast_ns: s(k.asid_fast_ns),
            asid_slow_ns: s(k.asid_slow_ns),
            rollover_cpu_ns: s(k.rollover_cpu_ns),
            flush_check_ns: s(k.flush_check_ns),
            ptw_ns: s(k.ptw_ns),
            preempt_op_ns: s(k.preempt_op_ns),
            cpu_id_percpu_ps: s(k.cpu_id_percpu_ps),
            cpu_id_thread_info_ps: s(k.cpu_id_thread_info_ps),
            percpu_rmw_ns: s(k.percpu_rmw_ns),
            copy_page_ns: s(k.copy_page_ns),
            ..k
        },
        page: PageCosts {
            clear_page_ns: s(base.page.clear_page_ns),
            page_cache_fault_ns: s(base.page.page_cache_fault_ns),
        },
        ..base
    }
}

/// The server `id`, its times derived from `generic` (`generic-arm64`'s costs).
pub fn by_id(id: &str, generic: &Costs) -> Option<Server> {
    match id {
        // Ampere Altra Q80-30: 80 Neoverse N1 cores at 3.0 GHz, one socket, one CMN-600 mesh
        // (Ampere's product brief). Neoverse N1 implements ARMv8.2: no FEAT_TLBIRANGE (an
        // ARMv8.4 feature), so ranges go page by page. TLB: the N1 core's unified L2 TLB,
        // 1280 entries, 5-way (Arm Neoverse N1 TRM, MMU chapter). Times: generic-arm64's
        // (a ~3 GHz core), and the interconnect's per-op occupancy and DSB ISH round trip
        // of ampere-32 (estimates; TLBI + DSB ISH takes 0.5–2 µs by Arcangeli's 2020 mails); a mesh
        // 2.5× as wide may well be slower per op, which nothing measured here pins down.
        "altra-n1-80" => Some(Server {
            id: "altra-n1-80",
            cpus: 80,
            tlb_entries: 1280,
            tlb_ways: 5,
            sockets: 1,
            costs: at_clock(generic, 30),
        }),
        // Cavium (Marvell) ThunderX2 CN9980, two sockets: 2 × 32 Vulcan cores with 4-way SMT
        // at 2.2 GHz, so Linux sees 256 CPUs; the sockets are joined by CCPI2 (Marvell's
        // product brief). The Vulcan core implements ARMv8.1: no FEAT_TLBIRANGE. Estimates:
        // - TLB geometry: no public TRM gives it; a 2048-entry 8-way unified L2 TLB is assumed.
        //   The model gives each of the four SMT threads of a core a TLB of its own.
        // - Every cost of work on the core: generic-arm64's scaled by 3.0 / 2.2 GHz.
        // - dvm_op_ns, dsb_ish_ns: ampere-32's 140 / 300 ns scaled by the clock, then doubled:
        //   each broadcast op must cross the socket link and be performed by the other
        //   socket's 128 CPUs before the DSB completes, so it holds the DVM path and the
        //   completion round trip about twice as long as on one socket. An estimate of the
        //   mechanism, not fitted to any measurement.
        "thunderx2-2s" => Some(Server {
            id: "thunderx2-2s",
            cpus: 256,
            tlb_entries: 2048,
            tlb_ways: 8,
            sockets: 2,
            costs: {
                let mut c = at_clock(generic, 22);
                let k = &generic.arm64;
                c.arm64.dvm_op_ns = 2 * (k.dvm_op_ns * 30).div_ceil(22);
                c.arm64.dsb_ish_ns = 2 * (k.dsb_ish_ns * 30).div_ceil(22);
                c
            },
        }),
        _ => None,
    }
}
