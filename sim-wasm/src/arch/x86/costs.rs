//! x86-only cost parameters: the fixed work of a `flush_tlb_mm_range()` call besides its
//! invalidations, and the instructions page-table isolation (PTI) adds. Each field's meaning,
//! unit and source is its entry in `scenario::vocabulary::COSTS`; the values per machine are in
//! `presets.rs`.

/// x86 costs in ns. The defaults are documented estimates for a ~3 GHz core (see the doc of
/// each field in the vocabulary); presets override them.
#[derive(Clone, Debug, PartialEq)]
pub struct X86Costs {
    /// `get_cpu()`/`put_cpu()`, `get_flush_tlb_info()`/`put_flush_tlb_info()` with
    /// `init_flush_tlb_info()`'s ceiling check, the choice of path, the vm-event counters and
    /// the secondary-TLB notifier hook: the per-call software work of `flush_tlb_mm_range()`.
    pub flush_call_ns: u64,
    /// `inc_mm_tlb_gen()`: one `lock xadd` on `mm->context.tlb_gen` whose line this CPU
    /// holds. When another CPU touched that line last, `cacheline_transfer_ns` comes on top.
    pub tlb_gen_atomic_ns: u64,
    /// Scanning one 64-CPU word of `mm_cpumask` (`cpumask_any_but`, `for_each_cpu`).
    pub cpumask_word_ns: u64,
    /// `should_flush_tlb()` for one other CPU of the mask: reads its `is_lazy` and
    /// `loaded_mm` (per-CPU lines another CPU writes).
    pub should_flush_ns: u64,
    /// The `tlb_flush` tracepoints of one flush call. 0 while tracing is off (a static-key
    /// NOP); raise it to model a traced kernel.
    pub flush_trace_ns: u64,
    /// `INVPCID` type 0 (one address in one PCID): PTI's flush of the user PCID.
    pub invpcid_ns: u64,
    /// A CR3 write with `NOFLUSH`: PTI's switch between the kernel and the user page tables
    /// on every kernel entry and every return to user space.
    pub pti_cr3_ns: u64,
    /// Issuing one `INVLPGB` (AMD broadcast invalidation).
    pub invlpgb_ns: u64,
    /// From an INVLPGB's issue until every CPU has performed it: what `TLBSYNC` waits out.
    pub invlpgb_complete_ns: u64,
    /// Pages one INVLPGB may cover (`invlpgb_count_max`, from CPUID), a count.
    pub invlpgb_count_max: u64,
    /// `switch_mm_barrier = none`: how long `switch_mm`'s buffered stores stay invisible to
    /// other CPUs after its `tlb_gen` read (the serializing CR3 write retires once they drain).
    pub store_buffer_drain_ns: u64,
}

impl Default for X86Costs {
    fn default() -> Self {
        X86Costs {
            flush_call_ns: 40,
            tlb_gen_atomic_ns: 7,
            cpumask_word_ns: 1,
            should_flush_ns: 10,
            flush_trace_ns: 0,
            invpcid_ns: 120,
            pti_cr3_ns: 32,
            invlpgb_ns: 50,
            invlpgb_complete_ns: 1_000,
            invlpgb_count_max: 8,
            store_buffer_drain_ns: 40,
        }
    }
}
