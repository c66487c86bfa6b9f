//! Every cost parameter of the machine model, with its unit and the source of its value.

use super::setting::MAX_NS;
use crate::config::{Costs, MAX_KERNEL_PAGES};

/// One cost parameter of the machine model.
#[derive(Clone, Copy, Debug)]
pub struct Cost {
    /// Its name in `[costs]` and `--set costs.<name>`.
    pub name: &'static str,
    pub unit: &'static str,
    /// What it is and where its default comes from.
    pub doc: &'static str,
    pub field: fn(&mut Costs) -> &mut u64,
    /// How far from the truth the value may be on a machine of its preset's kind.
    pub range: Range,
}

/// The uncertainty of a cost's value, as factors of the value a run uses: predictions are
/// drawn as a band by running the model with every cost at its low and at its high factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// A count or a switch, exact for the configuration it describes.
    Exact,
    /// The truth lies between `low` and `high` times the value; `why` says what says so.
    Factor {
        low: f64,
        high: f64,
        why: &'static str,
    },
}

impl Cost {
    /// The largest value a scenario may give.
    pub fn max(&self) -> i64 {
        if self.name == "kernel_pages" {
            MAX_KERNEL_PAGES as i64
        } else if self.unit == "pages" {
            // Batch sizes (`pcp_batch`, `lru_batch`): the kernel's are a few dozen pages.
            1 << 16
        } else {
            MAX_NS
        }
    }

    pub fn get(&self, costs: &Costs) -> u64 {
        let mut c = costs.clone();
        *(self.field)(&mut c)
    }
}

/// Every cost parameter, in the order `costs_json` and errors list them.
pub static COSTS: &[Cost] = &[
    Cost {
        name: "ipi_send_ns",
        unit: "ns",
        doc: "Initiator: write the ICR for one target (x2APIC). An estimate: 0.1–0.3 µs.",
        range: Range::Factor {
            low: 0.5,
            high: 1.5,
            why: "the estimate's own 0.1–0.3 µs around 0.2 µs",
        },
        field: |c| &mut c.ipi_send_ns,
    },
    Cost {
        name: "csd_queue_ns",
        unit: "ns",
        doc: "Initiator: `csd_lock` + fill + `llist_add` for one target, IPI or not, with the lines at hand; a line another CPU wrote last adds `cacheline_transfer_ns`. Estimate.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.csd_queue_ns,
    },
    Cost {
        name: "ipi_delivery_ns",
        unit: "ns",
        doc: "ICR write to handler entry, target IRQs on. 0.5–1.5 µs (\"≥1000 cycles\", Amit ATC'17).",
        range: Range::Factor {
            low: 0.5,
            high: 1.5,
            why: "the source's 0.5–1.5 µs around 1 µs",
        },
        field: |c| &mut c.ipi_delivery_ns,
    },
    Cost {
        name: "ipi_handler_ns",
        unit: "ns",
        doc: "IRQ entry + exit of the call-function handler on the target, split half/half. An estimate (0.3–1 µs with the flush).",
        range: Range::Factor {
            low: 0.5,
            high: 1.5,
            why: "the estimate's 0.3–1 µs",
        },
        field: |c| &mut c.ipi_handler_ns,
    },
    Cost {
        name: "flush_func_ns",
        unit: "ns",
        doc: "`flush_tlb_func` bookkeeping (gen reads, compares) besides the invalidation itself.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.flush_func_ns,
    },
    Cost {
        name: "invlpg_ns",
        unit: "ns",
        doc: "One INVLPG: \"about 100 ns\" (kernel comment above the ceiling); 260 cycles (Molnar 2015).",
        range: Range::Factor {
            low: 0.8,
            high: 1.25,
            why: "two sources (about 100 ns; 260 cycles) a quarter apart",
        },
        field: |c| &mut c.invlpg_ns,
    },
    Cost {
        name: "full_flush_ns",
        unit: "ns",
        doc: "Direct cost of a CR3-reload full flush: 96 cycles ≈ 32 ns at 3 GHz (Molnar 2015). Its hidden cost, the refills, is paid through `tlb_refill_ns` on later misses.",
        range: Range::Factor {
            low: 0.8,
            high: 1.25,
            why: "one measurement (96 cycles); other cores of the kind taken to be within a quarter",
        },
        field: |c| &mut c.full_flush_ns,
    },
    Cost {
        name: "tlb_refill_ns",
        unit: "ns",
        doc: "One page walk after a TLB miss (L2-hit walk): 5–40 ns, by working set (from the PCID commit 10af6235e0d3's ping-pong numbers).",
        range: Range::Factor {
            low: 0.25,
            high: 2.0,
            why: "5–40 ns by working set",
        },
        field: |c| &mut c.tlb_refill_ns,
    },
    Cost {
        name: "tlb_hit_ps",
        unit: "ps",
        doc: "One TLB-hit access by `touch`, in picoseconds: a streaming loop of loads that hit the (second-level) TLB retires one page in about a cycle, well under a nanosecond. A run of hits is charged `hits × tlb_hit_ps / 1000` ns, rounded to the nearest ns.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.tlb_hit_ps,
    },
    Cost {
        name: "page_fault_ns",
        unit: "ns",
        doc: "Anonymous page fault on `touch` of a non-present page (zero page / fresh page). Estimate; on `skylake-sp-56` the kit's own one-thread run of both will-it-scale loops on a server core (an AMD EPYC guest, Linux 6.18), fitted.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.page_fault_ns,
    },
    Cost {
        name: "syscall_ns",
        unit: "ns",
        doc: "Syscall entry + exit + mmap_lock for `madvise`/`munmap`. Estimate.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.syscall_ns,
    },
    Cost {
        name: "zap_pte_ns",
        unit: "ns",
        doc: "Clearing one PTE in `zap_pte_range`. Estimate.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.zap_pte_ns,
    },
    Cost {
        name: "cacheline_transfer_ns",
        unit: "ns",
        doc: "Moving one cache line between cores: a target's reads of the flush descriptor and of the mm's tlb_gen (when another CPU incremented it since this CPU last held it), the initiator's increment of a tlb_gen line others read, and the cross-call protocol's lines each time they change hands (x86): the sender's `csd_lock` of a csd its target unlocked last, its `llist_add` onto a target's queue head another CPU wrote last, the handler's `llist_del_all` of that head and its read of the csd, and the sender's read of each acknowledged csd in its wait. ~60–100 ns cross-core.",
        range: Range::Factor {
            low: 0.75,
            high: 1.25,
            why: "60–100 ns cross-core",
        },
        field: |c| &mut c.cacheline_transfer_ns,
    },
    Cost {
        name: "socket_transfer_ns",
        unit: "ns",
        doc: "Moving one cache line between CPUs on different sockets (`machine.sockets` > 1), in place of `cacheline_transfer_ns` wherever a line changes hands across the socket link (UPI, the inter-socket Infinity Fabric, CCPI2): the request and the data both cross it. An estimate: about twice an on-die transfer, 120–300 ns. Unused on one socket.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.socket_transfer_ns,
    },
    Cost {
        name: "csd_poll_ns",
        unit: "ns",
        doc: "Initiator's poll period on a csd while waiting: ~50 ns per cache-line bounce (an estimate).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.csd_poll_ns,
    },
    Cost {
        name: "context_switch_ns",
        unit: "ns",
        doc: "`schedule()` + `context_switch()` without the mm part. Estimate ~1 µs.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.context_switch_ns,
    },
    Cost {
        name: "switch_mm_ns",
        unit: "ns",
        doc: "`switch_mm_irqs_off` bookkeeping + CR3 write. Estimate.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.switch_mm_ns,
    },
    Cost {
        name: "kernel_pages",
        unit: "pages",
        doc: "x86: distinct kernel translations (STLB entries, counted as 4 KiB pages) the kernel touches on every switch to a user task: its syscall, wakeup, `schedule()` and `__switch_to` paths (kernel text and data, per-CPU data, both tasks' stacks). Without PTI they are global entries (`arch/x86/mm/tlb.c`, `switch_mm_irqs_off()`): no PCID, kept by every CR3 write, so they persist across switches yet take TLB capacity and evict user entries. Each is looked up per switch (`tlb_hit_ps` on a hit, `tlb_refill_ns` and a counted TLB miss on a miss), identically with PCID on and off. A count, not a time; 0 = the kernel's footprint is not modelled (every preset but the Skylake ones: `skylake-laptop-kvm`, `skylake-desktop-4`, `skylake-sp-56`). At most [`MAX_KERNEL_PAGES`].",
        range: Range::Exact,
        field: |c| &mut c.kernel_pages,
    },
    Cost {
        name: "tlbi_local_ns",
        unit: "ns",
        doc: "One local `TLBI` op (`VALE1`, `VAE1`, `ASIDE1`). An estimate: TLBI + DSB NSH 50–200 ns.",
        range: Range::Factor {
            low: 0.4,
            high: 1.6,
            why: "the estimate's 50–200 ns",
        },
        field: |c| &mut c.arm64.tlbi_local_ns,
    },
    Cost {
        name: "tlbi_all_local_ns",
        unit: "ns",
        doc: "Local `VMALLE1` (the post-rollover flush of everything).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.tlbi_all_local_ns,
    },
    Cost {
        name: "dsb_nsh_ns",
        unit: "ns",
        doc: "`DSB NSH` / `DSB NSHST` after / before local TLBIs.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.dsb_nsh_ns,
    },
    Cost {
        name: "dsb_ishst_ns",
        unit: "ns",
        doc: "`DSB ISHST` before broadcast TLBIs (PTE stores visible to every walker).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.dsb_ishst_ns,
    },
    Cost {
        name: "dvm_op_ns",
        unit: "ns",
        doc: "Occupancy of the shared interconnect (DVM) by one broadcast TLBI op: concurrent broadcasters queue behind each other, so latency grows \"almost linearly\" with them. Without range TLBI (`tlbi_range = off`) a range issues one op per page, so this is the per-page cost of the DSB-terminated sequence. Estimate (see `ampere-32`).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.dvm_op_ns,
    },
    Cost {
        name: "dsb_ish_ns",
        unit: "ns",
        doc: "`DSB ISH` completion after the last op was performed everywhere (the ack round trip). Uncontended TLBI + DSB ISH = dsb_ishst + dvm_op + dsb_ish ≈ 0.5 µs (Arcangeli's skip-broadcast mails, 2020: 0.5–2 µs, growing with concurrent broadcasters).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.dsb_ish_ns,
    },
    Cost {
        name: "victim_ns",
        unit: "ns",
        doc: "Time a running CPU loses per DVM message (another CPU's broadcast TLBI op) it performs: the victim slowdown, paid by unrelated processes too (`workload.victims` measures it). Estimate; no measurement is used.",
        range: Range::Factor {
            low: 0.25,
            high: 4.0,
            why: "no source at all: taken to be within a factor of four",
        },
        field: |c| &mut c.arm64.victim_ns,
    },
    Cost {
        name: "asid_fast_ns",
        unit: "ns",
        doc: "`check_and_switch_context()` fast path (cmpxchg on `active_asids`).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.asid_fast_ns,
    },
    Cost {
        name: "asid_slow_ns",
        unit: "ns",
        doc: "Slow path: `cpu_asid_lock`, re-check, `new_context()`.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.asid_slow_ns,
    },
    Cost {
        name: "rollover_cpu_ns",
        unit: "ns",
        doc: "`flush_context()` per CPU (xchg of `active_asids`, reserve), on top of the slow path.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.rollover_cpu_ns,
    },
    Cost {
        name: "flush_check_ns",
        unit: "ns",
        doc: "`tlb_flush_check()` (count reads, cpumask_setall, smp_mb).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.flush_check_ns,
    },
    Cost {
        name: "ptw_ns",
        unit: "ns",
        doc: "A page-table walk that misses the caches (may still be in flight after a TTBR0 write).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.ptw_ns,
    },
    Cost {
        name: "preempt_op_ns",
        unit: "ns",
        doc: "One `preempt_count` increment or decrement (+ compiler barrier).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.preempt_op_ns,
    },
    Cost {
        name: "cpu_id_percpu_ps",
        unit: "ps",
        doc: "`smp_processor_id()` via the per-CPU `cpu_number`: 1,602,888,401 ns / 10^9 calls (Puranjay Mohan, \"arm64: implement raw_smp_processor_id() using thread_info\", 2024, commit bf0baa5bbdc9), in picoseconds.",
        range: Range::Factor {
            low: 0.8,
            high: 1.25,
            why: "one measurement on one machine; others of its kind taken to be within a quarter",
        },
        field: |c| &mut c.arm64.cpu_id_percpu_ps,
    },
    Cost {
        name: "cpu_id_thread_info_ps",
        unit: "ps",
        doc: "`smp_processor_id()` via `thread_info`: 1,206,212,658 ns / 10^9 calls (the same patch, bf0baa5bbdc9).",
        range: Range::Factor {
            low: 0.8,
            high: 1.25,
            why: "one measurement on one machine; others of its kind taken to be within a quarter",
        },
        field: |c| &mut c.arm64.cpu_id_thread_info_ps,
    },
    Cost {
        name: "percpu_rmw_ns",
        unit: "ns",
        doc: "The body of a per-CPU RMW (`mrs tpidr_el1; add; ldadd`), without the preempt ops.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.percpu_rmw_ns,
    },
    Cost {
        name: "copy_page_ns",
        unit: "ns",
        doc: "Copying one 4 KiB page in a copy-on-write fault (`cow` op, either arch; with `reread` and `mapping = file`, the copy of the page-cache folio). Estimate; on `skylake-sp-56` the same kit run as `page_fault_ns`, where it also holds the file path's work around a copy whose source the 128 MiB walk has left cold.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.arm64.copy_page_ns,
    },
    Cost {
        name: "clear_page_ns",
        unit: "ns",
        doc: "Zero-filling one new 4 KiB anonymous page on a write fault of the zero page (`mapping = anon` with `reread`: will-it-scale's tlb_flush2; `clear_page`, one `rep stosb` on x86). Estimate: half of the default `copy_page_ns` (700), since a clear writes the 4 KiB a copy writes and reads nothing.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.page.clear_page_ns,
    },
    Cost {
        name: "page_cache_fault_ns",
        unit: "ns",
        doc: "What a read fault of a private file mapping adds to `page_fault_ns` (`mapping = file` with `reread`: will-it-scale's tlb_flush1): finding the file's folio in the page cache and mapping it read-only (`filemap_map_pages()` / `filemap_fault()`: an xarray walk under RCU, a folio reference and trylock, the file rmap's mapcount). Estimate: about a dozen dependent loads and four atomics at about 3 GHz; fault-around's extra pages are not charged.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.page.page_cache_fault_ns,
    },
    Cost {
        name: "flush_call_ns",
        unit: "ns",
        doc: "x86: the fixed software work of one `flush_tlb_mm_range()` call besides its invalidations and IPIs: `get_cpu`/`put_cpu`, `get_flush_tlb_info`/`put_flush_tlb_info` with `init_flush_tlb_info`'s ceiling check, the choice of path, the vm-event counters and the secondary-TLB notifier hook (arch/x86/mm/tlb.c). Estimate: about 120 cycles of calls and stores at 3 GHz.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.x86.flush_call_ns,
    },
    Cost {
        name: "tlb_gen_atomic_ns",
        unit: "ns",
        doc: "x86: `inc_mm_tlb_gen()`, one `lock xadd` on `mm->context.tlb_gen` (a full barrier) when this CPU holds the only copy of the line; if another CPU holds one (its own increment, or a remote `flush_tlb_func` or `switch_mm` reading it since), `cacheline_transfer_ns` is added, after any move of the line still in flight (moves out of a modified copy are served one at a time). Estimate: a locked RMW costs about 20 cycles.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.x86.tlb_gen_atomic_ns,
    },
    Cost {
        name: "cpumask_word_ns",
        unit: "ns",
        doc: "x86: scanning one 64-CPU word of `mm_cpumask` (`cpumask_any_but` and the `for_each_cpu` of `on_each_cpu_cond_mask`); a flush pays it for every word of the machine's CPUs. Estimate.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.x86.cpumask_word_ns,
    },
    Cost {
        name: "should_flush_ns",
        unit: "ns",
        doc: "x86: `should_flush_tlb()` for one other CPU in `mm_cpumask`: reads that CPU's `cpu_tlbstate_shared.is_lazy` and `cpu_tlbstate.loaded_mm`, lines their owner writes on every switch. Estimate: a last-level-cache hit, about 30 cycles.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.x86.should_flush_ns,
    },
    Cost {
        name: "flush_trace_ns",
        unit: "ns",
        doc: "x86: the `tlb_flush` tracepoints of one flush call. 0: tracing off, the tracepoints are static-key NOPs; give a value to model a traced kernel.",
        range: Range::Exact,
        field: |c| &mut c.x86.flush_trace_ns,
    },
    Cost {
        name: "invpcid_ns",
        unit: "ns",
        doc: "x86, PTI: one `INVPCID` type 0 (one address in one PCID), with which `native_flush_tlb_one_user()` flushes the user PCID's copy of a page after INVLPG flushed the kernel PCID's. Estimate: INVLPG's cost plus a little (both walk the same TLB structures).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.x86.invpcid_ns,
    },
    Cost {
        name: "pti_cr3_ns",
        unit: "ns",
        doc: "x86, PTI: one CR3 write with NOFLUSH, as the entry code does on every kernel entry (`SWITCH_TO_KERNEL_CR3`) and every return to user space (`SWITCH_TO_USER_CR3`). Default: the same 96 cycles as a flushing CR3 write (Molnar 2015), scaled to the preset's clock.",
        range: Range::Factor {
            low: 0.8,
            high: 1.25,
            why: "one measurement (96 cycles); other cores of the kind taken to be within a quarter",
        },
        field: |c| &mut c.x86.pti_cr3_ns,
    },
    Cost {
        name: "invlpgb_ns",
        unit: "ns",
        doc: "x86, AMD `invlpgb=on`: issuing one `INVLPGB` (weakly ordered and asynchronous: the issuer goes on at once). Estimate: tens of ns (tens to hundreds).",
        range: Range::Factor {
            low: 0.5,
            high: 4.0,
            why: "the estimate's tens to hundreds of ns",
        },
        field: |c| &mut c.x86.invlpgb_ns,
    },
    Cost {
        name: "invlpgb_complete_ns",
        unit: "ns",
        doc: "x86, AMD `invlpgb=on`: from an INVLPGB's issue until every CPU has performed it, when its translations are gone everywhere and a `TLBSYNC` on the issuing CPU returns. Estimate: about a microsecond (the slowest CPU's completion, µs).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.x86.invlpgb_complete_ns,
    },
    Cost {
        name: "invlpgb_count_max",
        unit: "pages",
        doc: "x86, AMD `invlpgb=on`: pages one INVLPGB may invalidate (`invlpgb_count_max`, which the kernel reads from CPUID 0x80000008 EDX); longer ranges take several. Estimate: 8 (the value on a given CPU is not in the sources this model uses).",
        range: Range::Exact,
        field: |c| &mut c.x86.invlpgb_count_max,
    },
    Cost {
        name: "store_buffer_drain_ns",
        unit: "ns",
        doc: "x86, `switch_mm_barrier = none` only (race R7): how long `switch_mm_irqs_off()`'s stores of `loaded_mm = LOADED_MM_SWITCHING` and `is_lazy = false` wait in the store buffer after the `tlb_gen` read went ahead of them, i.e. until other CPUs can see them; the CR3 write that follows is serializing (Intel SDM vol. 3, \"Serializing Instructions\": MOV to a control register drains the store buffer) and retires only then. Capped at the switch's own cost. Estimate from the mechanism: committing a store to a line another CPU holds shared (the flusher reads `loaded_mm` on every shootdown) takes one cross-core ownership transfer, about `cacheline_transfer_ns`; 40 ns is the lower end. Unused with `full`, whose `smp_mb()` waits for the drain before the read (inside `switch_mm_ns`).",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.x86.store_buffer_drain_ns,
    },
    Cost {
        name: "mmap_lock_ns",
        unit: "ns",
        doc: "`design.locks`: service time of one read acquisition + release of an mm's `mmap_lock` (or a VMA's lock), the time its rwsem count line is held by one CPU's atomic add and sub; readers share the lock but queue for this line. Estimate: about two cross-core line transfers (≈ `cacheline_transfer_ns` each). Only the wait behind other holders is charged; the uncontended cost is inside `page_fault_ns` / `syscall_ns`.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.locks.mmap_lock_ns,
    },
    Cost {
        name: "zone_lock_page_ns",
        unit: "ns",
        doc: "`design.locks`: time per page moved between the buddy free lists and a per-CPU list while holding the zone lock; one acquisition holds it for `pcp_batch` pages. Estimate.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.locks.zone_lock_page_ns,
    },
    Cost {
        name: "pcp_batch",
        unit: "pages",
        doc: "`design.locks`: pages the per-CPU free lists take from or give back to the zone per zone-lock acquisition (`pcp->batch`). 63: the `batch` /proc/zoneinfo shows for the Normal zone of the 2-CPU KVM guest the kit ran on (zone_batchsize() of a large zone). A count; 0 is read as 1.",
        range: Range::Exact,
        field: |c| &mut c.locks.pcp_batch,
    },
    Cost {
        name: "lru_lock_page_ns",
        unit: "ns",
        doc: "`design.locks`: time per folio added to or removed from an LRU list while holding the LRU lock; one acquisition holds it for `lru_batch` folios. Estimate.",
        range: Range::Factor {
            low: 0.5,
            high: 2.0,
            why: "an estimate without a stated range: taken to be within a factor of two",
        },
        field: |c| &mut c.locks.lru_lock_page_ns,
    },
    Cost {
        name: "lru_batch",
        unit: "pages",
        doc: "`design.locks`: folios per LRU-lock acquisition: the per-CPU folio batch (`FOLIO_BATCH_SIZE`, 31 in include/linux/folio_batch.h, formerly `PAGEVEC_SIZE`). A count; 0 is read as 1.",
        range: Range::Exact,
        field: |c| &mut c.locks.lru_batch,
    },
];

/// Every cost in effect as a JSON object `{"<name>": value}`, with the names of [`COSTS`]
/// (what `--set costs.<name>=` accepts); the CLI's `fit` starts from these values.
pub fn costs_json(costs: &Costs) -> String {
    let mut c = costs.clone();
    let fields: Vec<String> = COSTS
        .iter()
        .map(|k| format!("\"{}\":{}", k.name, (k.field)(&mut c)))
        .collect();
    format!("{{{}}}", fields.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_time_has_a_range_around_its_value_and_every_count_is_exact() {
        for c in COSTS {
            match c.range {
                Range::Exact => assert!(
                    c.unit == "pages" || c.name == "flush_trace_ns",
                    "{}: a time without a range",
                    c.name
                ),
                Range::Factor { low, high, why } => {
                    assert!(c.unit != "pages", "{}: a count given a range", c.name);
                    assert!(
                        0.0 < low && low < 1.0 && 1.0 < high,
                        "{}: {low}–{high}",
                        c.name
                    );
                    assert!(
                        !why.is_empty(),
                        "{}: a range says where it comes from",
                        c.name
                    );
                }
            }
        }
    }
}
