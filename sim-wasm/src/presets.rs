//! Machine cost presets (`machine.preset`, `--set machine=<id>`). Each preset gives the default
//! CPU count, TLB geometry and every cost parameter; a scenario's `[costs]` table and
//! `--set costs.<name>=<ns>` override single values on top.
//!
//! The numbers are plausible values from the kernel sources, the patch mails and published cycle
//! counts; `icelake-8336c-128`, `skylake-laptop-kvm` and `ampere-32` are calibrated against the
//! measurements of the patch mails
//! (`content/calibration.json`, checked by `npx tlbscope calibrate` and its Vitest test).
//! Where a number is derived from a mail's measurement, the comment says how.

use crate::arch::x86::costs::X86Costs;
use crate::config::{Arch, Arm64Costs, Costs, TlbIndex};
use crate::locks::LockCosts;
use crate::page_cache::PageCosts;

pub struct Preset {
    pub id: &'static str,
    pub arch: Arch,
    pub cpus: u16,
    pub tlb_entries: u32,
    pub tlb_ways: u32,
    /// The set-index function: `Hash` unless the machine's is published.
    pub tlb_index: TlbIndex,
    /// Sockets the CPUs are spread over (`machine.sockets`), numbered socket by socket.
    pub sockets: u16,
    pub costs: Costs,
}

/// Every preset id, the first being the default (`generic-arm64` is the default on arm64).
pub const IDS: [&str; 10] = [
    "generic-x86",
    "icelake-8336c-128",
    "skylake-laptop-kvm",
    "skylake-desktop-4",
    "skylake-sp-56",
    "zen3-epyc-7763-128",
    "generic-arm64",
    "ampere-32",
    crate::arch::arm64::presets::IDS[0],
    crate::arch::arm64::presets::IDS[1],
];

/// The default preset of an architecture.
pub fn default_for(arch: Arch) -> &'static str {
    match arch {
        Arch::X86 => "generic-x86",
        Arch::Arm64 => "generic-arm64",
    }
}

/// Costs of an ARMv8 server core (the generic part of [`Costs`]); x86-only fields (IPIs,
/// INVLPG) keep plausible values but are unused on arm64.
fn arm64_costs() -> Costs {
    Costs {
        ipi_send_ns: 200,
        csd_queue_ns: 20,
        ipi_delivery_ns: 1_000,
        ipi_handler_ns: 500,
        flush_func_ns: 40,
        invlpg_ns: 100,
        full_flush_ns: 40,
        tlb_refill_ns: 25,
        tlb_hit_ps: 1_000,
        page_fault_ns: 800,
        syscall_ns: 150,
        zap_pte_ns: 20,
        cacheline_transfer_ns: 70,
        socket_transfer_ns: 150,
        csd_poll_ns: 50,
        context_switch_ns: 1_200,
        switch_mm_ns: 120,
        kernel_pages: 0,
        arm64: Arm64Costs::default(),
        x86: X86Costs::default(),
        locks: LockCosts::default(),
        page: PageCosts::default(),
    }
}

pub fn by_id(id: &str) -> Option<Preset> {
    match id {
        // A ~3 GHz server core with mid-range estimates (IPIs 0.1–1.5 µs, INVLPG ≈ 100 ns as tlb.c's ceiling comment assumes).
        "generic-x86" => Some(Preset {
            id: "generic-x86",
            arch: Arch::X86,
            cpus: 4,
            tlb_entries: 1024,
            tlb_ways: 8,
            tlb_index: TlbIndex::Hash,
            sockets: 1,
            costs: Costs {
                ipi_send_ns: 200,
                csd_queue_ns: 20,
                ipi_delivery_ns: 1_000,
                ipi_handler_ns: 500,
                flush_func_ns: 40,
                invlpg_ns: 100,
                full_flush_ns: 32,
                tlb_refill_ns: 20,
                tlb_hit_ps: 1_000,
                page_fault_ns: 600,
                syscall_ns: 150,
                zap_pte_ns: 20,
                cacheline_transfer_ns: 60,
                socket_transfer_ns: 150,
                csd_poll_ns: 50,
                context_switch_ns: 1_000,
                switch_mm_ns: 100,
                kernel_pages: 0,
                arm64: Arm64Costs::default(),
                x86: X86Costs::default(),
                locks: LockCosts::default(),
                page: PageCosts::default(),
            },
        }),
        // Xeon Platinum 8336C, 128 CPUs, 2 NUMA nodes, PTI and mitigations off (Chuyi Zhou, 2026, flush_tlb_info on the stack).
        // Chosen so that touch + MADV_DONTNEED with 3 busy threads lands near the measured
        // 2.53 µs/op; the descriptor line cost is what an extra (adjacent, prefetched) line
        // adds on the remote read path, so that an unaligned descriptor costs ≈1 % as measured.
        // syscall_ns is the free parameter of that fit: 180 ns before the flush call's entry
        // work (`flush_call_ns` and friends, default estimates) was modelled, 77 ns after
        // (`tlbscope fit content/datasets/zhou-2026-flush-tlb-info-stack.csv --machine
        // icelake-8336c-128 --params syscall_ns`): the entry work took ≈103 ns of what the
        // syscall had stood for. ipi_delivery_ns was the 900 ns estimate until the cross-call
        // protocol's own line transfers were modelled (the csd and queue-head lines each
        // request moves between sender and target, ≈225 ns on this path): refitted then to
        // 675 ns (`tlbscope fit ... --params ipi_delivery_ns`, rms 0.04 %), inside the
        // estimate's 0.5–1.5 µs, so that the transfers are no longer counted inside it.
        "icelake-8336c-128" => Some(Preset {
            id: "icelake-8336c-128",
            arch: Arch::X86,
            cpus: 128,
            tlb_entries: 2048,
            tlb_ways: 16,
            tlb_index: TlbIndex::Hash,
            sockets: 2,
            costs: Costs {
                ipi_send_ns: 100,
                csd_queue_ns: 20,
                ipi_delivery_ns: 675,
                ipi_handler_ns: 400,
                flush_func_ns: 30,
                invlpg_ns: 90,
                full_flush_ns: 32,
                tlb_refill_ns: 20,
                tlb_hit_ps: 1_000,
                page_fault_ns: 660,
                syscall_ns: 77,
                zap_pte_ns: 20,
                cacheline_transfer_ns: 25,
                socket_transfer_ns: 150,
                csd_poll_ns: 40,
                context_switch_ns: 900,
                switch_mm_ns: 80,
                kernel_pages: 0,
                arm64: Arm64Costs::default(),
                x86: X86Costs::default(),
                locks: LockCosts::default(),
                page: PageCosts::default(),
            },
        }),
        // Skylake laptop at 2.3 GHz, turbo off, under KVM with idle=poll (10af6235e0d3, Andy
        // Lutomirski's 2017 PCID mail), calibrated against that mail's ping-pong with `x86-pcid-pingpong-bench` and
        // `x86-pcid-pingpong-512` (`npx tlbscope calibrate`). One iteration is a round trip:
        // two hops, each side touching its 3 own pages (+ 512 in the second test).
        // - TLB: Skylake's second-level TLB (STLB), 1536 entries, 12-way, shared by 4 KiB and
        //   2 MiB pages (Intel Optimization Reference Manual, Skylake client). dTLB misses
        //   that cause a walk are misses of this level. The model has no first level (the
        //   64-entry L1 dTLB, which 512 pages per side overflow anyway).
        // - tlb_index = xor7: Gras et al., "Translation Leak-aside Buffer" (TLBleed, USENIX
        //   Security 2018) reverse-engineered this STLB as 128 sets × 12 ways indexed by
        //   vpn[6:0] XOR vpn[13:7], without the PCID. Each side's 512 contiguous pages then
        //   put 4 entries in every set (5 in the 3 sets of its own pages), so the two
        //   processes' 1030 translations and the 12 kernel pages fit every set (at most 11 of
        //   12 ways): with PCID no translation is evicted, and the steady state has no misses.
        // - full_flush_ns: a flushing CR3 write, 96 cycles (Ingo Molnar's boot-time counts, LKML 2015) at 2.3 GHz.
        // - kernel_pages: the kernel's own translations per hop, global (no PTI in 2017), so
        //   they survive every CR3 write but share the STLB with the user pages. An estimate
        //   of the distinct STLB entries an eventfd hop touches on a 4.13-era x86-64 kernel,
        //   assuming the host backs the guest with 2 MiB pages: kernel text 4 (2 MiB pages;
        //   entry + sched text, arch/x86 switch_mm/__switch_to/FPU, kernel/sched, fs
        //   read/write + eventfd), rodata + data/bss 2 (sys_call_table; jiffies, static keys),
        //   per-CPU first chunk 1 (runqueue, cpu_tlbstate), slab objects in the direct map 3
        //   (both tasks' task_struct with FPU state, mm, files/fdtable, file, eventfd_ctx),
        //   the two tasks' vmapped stacks 2 (4 KiB pages) = 12, uncertain by about ±4 (more
        //   if KVM backs the guest with 4 KiB pages). Not fitted. The kernel's pages sit at
        //   scattered page numbers (`kernel_vpn` in ops.rs), so under xor7 they land in sets
        //   as unrelated addresses would. At 12 none of the sets (8 user entries, 10 in 3 of
        //   them) overflows, and the count only adds its hits to every hop, in both modes.
        //   With PCID the model first misses at a few hundred: 0 per round trip at 150, 39 at
        //   200, 79 at 250, 212 at 300 (`tlbscope run x86-pcid-pingpong-512 --set
        //   costs.kernel_pages=N`), far above this estimate and steep, so the mail's residual
        //   misses do not pin it down (see the known gap in content/calibration.json).
        // - tlb_hit_ps: pcid=on with 512 pages minus without, where the only difference is
        //   2 × 512 STLB hits per round trip (no misses with the xor7 index): (1.8 − 1.22) µs
        //   / 1024 ≈ 566 ps (≈ 1.3 cycles per page of the touch loop, each load missing the
        //   L1 dTLB and hitting the STLB, the lookups overlapping).
        // - tlb_refill_ns: the 512-page pair. pcid=off minus pcid=on is two flushing CR3
        //   writes and 2 × 515 walks in place of hits (the kernel's global entries hit in
        //   both): (6.2 − 1.8) µs = 2 × 42 ns + 1030 × (refill − 0.566 ns) ⇒ refill ≈ 4.76
        //   ns; 5 ns, the nearest whole ns (≈ 11.5 cycles: a walk that hits the
        //   paging-structure caches, two walkers overlapping; 5–40 ns is the usual range).
        // - context_switch_ns: here one whole blocking eventfd hop (write + wakeup + read +
        //   schedule() + __switch_to; the scenario's `yield` stands for it): (1.22 µs −
        //   2 × switch_mm_ns − 2 × (3 user hits, 1.7 → 2 ns, + 12 kernel hits, 6.8 → 7 ns,
        //   each touch rounded to the ns as the model charges it)) / 2 = 501 ns. The nopcid
        //   penalty of the empty ping-pong, 2 × (full_flush_ns + 3 × refill − 2 ns of hits)
        //   = 110 ns, then follows (measured 110; the kernel's global entries survive the
        //   flush).
        // - The rest (IPIs, faults, syscalls) is not measured on this machine: mid-range estimates
        //   scaled for a 2.3 GHz core under a hypervisor (IPIs exit to KVM).
        "skylake-laptop-kvm" => Some(Preset {
            id: "skylake-laptop-kvm",
            arch: Arch::X86,
            cpus: 4,
            tlb_entries: 1536,
            tlb_ways: 12,
            tlb_index: TlbIndex::Xor7,
            sockets: 1,
            costs: Costs {
                ipi_send_ns: 400,
                csd_queue_ns: 30,
                ipi_delivery_ns: 2_500,
                ipi_handler_ns: 900,
                flush_func_ns: 50,
                invlpg_ns: 110,
                full_flush_ns: 42,
                tlb_refill_ns: 5,
                tlb_hit_ps: 566,
                page_fault_ns: 900,
                syscall_ns: 250,
                zap_pte_ns: 25,
                cacheline_transfer_ns: 70,
                socket_transfer_ns: 150,
                csd_poll_ns: 60,
                context_switch_ns: 501,
                switch_mm_ns: 100,
                kernel_pages: 12,
                arm64: Arm64Costs::default(),
                x86: X86Costs::default(),
                locks: LockCosts::default(),
                page: PageCosts::default(),
            },
        }),
        // A small ARMv8 server machine for teaching scenarios (mid-range estimates).
        "generic-arm64" => Some(Preset {
            id: "generic-arm64",
            arch: Arch::Arm64,
            cpus: 4,
            tlb_entries: 1024,
            tlb_ways: 4,
            tlb_index: TlbIndex::Hash,
            sockets: 1,
            costs: arm64_costs(),
        }),
        // 32-CPU non-NUMA ARMv8 Ampere (eMAG class), the machine of Arcangeli's benchmarks
        // ("arm64: tlb: skip tlbi broadcast", 2020, v2 3/3 and his reply to Catalin Marinas). Nothing on it was measured except ratios:
        // `dvm_op_ns` and `dsb_ish_ns` are chosen so one uncontended TLBI + DSB ISH takes
        // ≈ 0.46 µs (an estimate; 0.5–2 µs is the usual range) and 32 concurrent broadcasters queue ≈ 32 × 140 ns on the
        // interconnect ("almost linearly with the number of CPUs"); the mail's "x16" for the
        // mprotect loop then follows from that contention, not from a per-variant constant.
        "ampere-32" => Some(Preset {
            id: "ampere-32",
            arch: Arch::Arm64,
            cpus: 32,
            tlb_entries: 1024,
            tlb_ways: 4,
            tlb_index: TlbIndex::Hash,
            sockets: 1,
            costs: arm64_costs(),
        }),
        // A small bare-metal desktop: a 4-core, 4-thread Skylake (Core i5-6500 class, 3.2 GHz),
        // no hypervisor. Nothing here was measured on such a machine; each value says where
        // it comes from.
        // - TLB: the Skylake STLB, 1536 entries, 12 ways, XOR-7 index (Intel Optimization
        //   Reference Manual; TLBleed 2018), as on skylake-laptop-kvm: the same core.
        // - Core-internal costs from cycle counts at 3.2 GHz: full_flush_ns 96 cycles ≈ 30 ns
        //   and invlpg_ns 260 cycles ≈ 81 ns (Ingo Molnar, LKML 2015); tlb_refill_ns, tlb_hit_ps
        //   and context_switch_ns are skylake-laptop-kvm's fit to the PCID commit's (10af6235e0d3) numbers (5 ns, 566 ps, 501 ns
        //   at 2.3 GHz) scaled by the clock ratio 2.3 / 3.2: 4 ns, 407 ps, 360 ns. pti_cr3_ns:
        //   a CR3 write, the same 30 ns.
        // - IPIs without a hypervisor exit (estimates within the usual ranges, single socket):
        //   ipi_send_ns 150 (x2APIC ICR write), ipi_delivery_ns 700, ipi_handler_ns 400;
        //   cacheline_transfer_ns 40 (one shared L3 ring, no second socket).
        // - kernel_pages 12: skylake-laptop-kvm's estimate of a hop's kernel footprint.
        // - The rest: generic-x86's estimates.
        // A Skylake is Meltdown-affected, so a kernel since 4.15 runs it with PTI: pti defaults
        // to on with this preset (arch/x86/machine_defaults.rs).
        "skylake-desktop-4" => Some(Preset {
            id: "skylake-desktop-4",
            arch: Arch::X86,
            cpus: 4,
            tlb_entries: 1536,
            tlb_ways: 12,
            tlb_index: TlbIndex::Xor7,
            sockets: 1,
            costs: Costs {
                ipi_send_ns: 150,
                csd_queue_ns: 20,
                ipi_delivery_ns: 700,
                ipi_handler_ns: 400,
                flush_func_ns: 40,
                invlpg_ns: 81,
                full_flush_ns: 30,
                tlb_refill_ns: 4,
                tlb_hit_ps: 407,
                page_fault_ns: 600,
                syscall_ns: 150,
                zap_pte_ns: 20,
                cacheline_transfer_ns: 40,
                socket_transfer_ns: 150,
                csd_poll_ns: 50,
                context_switch_ns: 360,
                switch_mm_ns: 100,
                kernel_pages: 12,
                arm64: Arm64Costs::default(),
                locks: LockCosts::default(),
                page: PageCosts::default(),
                x86: X86Costs {
                    pti_cr3_ns: 30,
                    ..X86Costs::default()
                },
            },
        }),
        // A two-socket Skylake server: 56 cores, the "56-core Skylake" of Nadav Amit's
        // tlb_gen commit (aa44284960d5, 2022), which names no model. Skylake-SP's largest die has
        // 28 cores, so 56 cores are two sockets of 28 (Xeon Platinum 8180 class, 2.5 GHz base),
        // one CPU a core. Nothing here was measured on such a machine; each value says where it
        // comes from.
        // - TLB: the Skylake STLB, 1536 entries, 12 ways, XOR-7 index, as skylake-desktop-4:
        //   the server core is the same core.
        // - Core-internal costs: skylake-desktop-4's sources at 2.5 GHz instead of 3.2:
        //   full_flush_ns 96 cycles ≈ 38 ns, invlpg_ns 260 cycles ≈ 104 ns (Ingo Molnar, LKML
        //   2015), pti_cr3_ns the same 38 ns; tlb_refill_ns, tlb_hit_ps and context_switch_ns
        //   skylake-laptop-kvm's fit (5 ns, 566 ps, 501 ns at 2.3 GHz) scaled by 2.3 / 2.5:
        //   5 ns, 521 ps, 461 ns.
        // - IPIs and cache lines: generic-x86's mid-range server estimates (ipi_send_ns 200,
        //   ipi_delivery_ns 1,000, ipi_handler_ns 500, cacheline_transfer_ns 60 across the
        //   mesh, socket_transfer_ns 150 across the socket link), not the desktop's ring.
        // - kernel_pages 12: skylake-laptop-kvm's estimate of a hop's kernel footprint.
        // - page_fault_ns 1,358 and copy_page_ns 2,159: this project's kit run of both
        //   will-it-scale loops, one thread, on a server core of the 2020s under its kernel's
        //   default mitigations (an AMD EPYC guest, Linux 6.18: 3.7 µs an iteration anonymous,
        //   5.3 µs file-backed; content/datasets/local-amd-epyc-2-tlb-flush.csv), fitted on the
        //   AMD preset (`tlbscope fit` of its threads=1 op_latency rows `--machine
        //   zen3-epyc-7763-128 --params page_fault_ns,copy_page_ns`, rms 6.6 % over 4 rows):
        //   a fault's entry, handling and return, and the file loop's copy of a page-cache
        //   folio its 128 MiB walk has left cold, with the file path's work around it. Taken
        //   to hold for a server core of the kind; generic-x86's 600 and 700 are estimates the
        //   kit's run finds about half as large.
        // - Syscalls: generic-x86's estimate.
        // Meltdown-affected, so a kernel since 4.15 runs it with PTI, as skylake-desktop-4.
        "skylake-sp-56" => Some(Preset {
            id: "skylake-sp-56",
            arch: Arch::X86,
            cpus: 56,
            tlb_entries: 1536,
            tlb_ways: 12,
            tlb_index: TlbIndex::Xor7,
            sockets: 2,
            costs: Costs {
                ipi_send_ns: 200,
                csd_queue_ns: 20,
                ipi_delivery_ns: 1_000,
                ipi_handler_ns: 500,
                flush_func_ns: 40,
                invlpg_ns: 104,
                full_flush_ns: 38,
                tlb_refill_ns: 5,
                tlb_hit_ps: 521,
                page_fault_ns: 1_358,
                syscall_ns: 150,
                zap_pte_ns: 20,
                cacheline_transfer_ns: 60,
                socket_transfer_ns: 150,
                csd_poll_ns: 50,
                context_switch_ns: 461,
                switch_mm_ns: 100,
                kernel_pages: 12,
                arm64: Arm64Costs {
                    copy_page_ns: 2_159,
                    ..Arm64Costs::default()
                },
                locks: LockCosts::default(),
                page: PageCosts::default(),
                x86: X86Costs {
                    pti_cr3_ns: 38,
                    ..X86Costs::default()
                },
            },
        }),
        // An AMD Zen 3 server: EPYC 7763, one socket, 64 cores / 128 threads, 2.45 GHz base.
        // Nothing here was measured on it; each value says where it comes from.
        // - TLB: the L2 DTLB's 2048 entries (AMD Software Optimization Guide for Family 19h);
        //   16 ways and the hash index are estimates (the index function is unpublished).
        // - Core-internal costs: Ingo Molnar's 2015 cycle counts at the base clock: full_flush_ns 96
        //   cycles ≈ 39 ns, invlpg_ns 260 cycles ≈ 106 ns (Molnar's counts are Intel's; an
        //   estimate for Zen 3). pti_cr3_ns the same 39 ns, though the preset runs without
        //   PTI: AMD is not affected by Meltdown, so the kernel leaves PTI off.
        // - cacheline_transfer_ns 100: eight 8-core dies (CCDs) behind one I/O die, so most
        //   pairs of CPUs share no L3 and a line crosses the I/O die (estimate, the upper end
        //   of the usual 60–100 ns).
        // - IPIs, faults, syscalls: generic-x86's mid-range estimates.
        // - INVLPGB/TLBSYNC: Zen 3 has them (AMD64 Architecture Programmer's Manual vol. 3);
        //   `invlpgb=on` uses them; the costs of the broadcast are estimates
        //   (`invlpgb_ns`, `invlpgb_complete_ns`, `invlpgb_count_max`).
        "zen3-epyc-7763-128" => Some(Preset {
            id: "zen3-epyc-7763-128",
            arch: Arch::X86,
            cpus: 128,
            tlb_entries: 2048,
            tlb_ways: 16,
            tlb_index: TlbIndex::Hash,
            sockets: 1,
            costs: Costs {
                ipi_send_ns: 200,
                csd_queue_ns: 20,
                ipi_delivery_ns: 1_000,
                ipi_handler_ns: 500,
                flush_func_ns: 40,
                invlpg_ns: 106,
                full_flush_ns: 39,
                tlb_refill_ns: 20,
                tlb_hit_ps: 1_000,
                page_fault_ns: 600,
                syscall_ns: 150,
                zap_pte_ns: 20,
                cacheline_transfer_ns: 100,
                socket_transfer_ns: 150,
                csd_poll_ns: 50,
                context_switch_ns: 1_000,
                switch_mm_ns: 100,
                kernel_pages: 0,
                arm64: Arm64Costs::default(),
                locks: LockCosts::default(),
                page: PageCosts::default(),
                x86: X86Costs {
                    pti_cr3_ns: 39,
                    ..X86Costs::default()
                },
            },
        }),
        // arm64 servers without range TLBI (`arch/arm64/presets.rs`).
        _ => crate::arch::arm64::presets::by_id(id, &arm64_costs()).map(|s| Preset {
            id: s.id,
            arch: Arch::Arm64,
            cpus: s.cpus,
            tlb_entries: s.tlb_entries,
            tlb_ways: s.tlb_ways,
            tlb_index: TlbIndex::Hash,
            sockets: s.sockets,
            costs: s.costs,
        }),
    }
}
