//! The validated, typed configuration of one run. Built only by `scenario::parse` from a
//! scenario file plus `--set` overrides, so every `Config` satisfies its documented ranges.
//!
//! Defaults (used when the scenario omits a field):
//! - `arch = x86`, `machine.preset = generic-x86` (4 CPUs, 1024-entry 8-way TLB)
//! - `machine.tlb_index` from the preset: `hash` (every preset whose set index is unpublished),
//!   `xor7` on `skylake-laptop-kvm` (see [`TlbIndex`])
//! - design: `flush_info = percpu`, `preempt = pinned`, `pcid = on`, `wait_mask = task`,
//!   `plus_one_rule = on`, `lazy_freed_tables = ipi`, `ceiling = 33`
//! - arm64 (`arch = arm64`, preset `generic-arm64`): `broadcast_skip = off` (mainline),
//!   `dsb_before_dec = on`, `skip_rule = active_mm`, `cpu_id = thread_info` (since 2024),
//!   `max_dvm_ops = 512`, `tlbi_range` from the preset's CPU (off on every arm64 preset so
//!   far), `machine.asid_bits = 16`
//! - workload (generated tasks, see [`Workload`]): `threads = 1` (0 when `[[tasks]]` are
//!   given), `busy_threads` = the remaining CPUs, `flushes = 1`, `pages = 1`, `period_ns = 0`
//! - costs: see [`Costs`] and `presets.rs`; each default names its source (kernel sources,
//!   patch mails, published cycle counts).

use crate::ids::{CpuId, MmId, Ns};
use crate::program::Op;

/// The most CPUs a scenario may ask for (the 1..=512 range).
pub const MAX_CPUS: u16 = 512;

/// The most kernel pages (`Costs::kernel_pages`) one switch can touch: each gets its own
/// 2^14-page block of page numbers (see `kernel_vpn` in ops.rs).
pub const MAX_KERNEL_PAGES: u64 = 1 << 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    X86,
    Arm64,
}

/// Gives an enum of choices its names as the settings vocabulary spells them (`NAMES`, in
/// the order errors list them), the variants in the same order (`ALL`) and `name()`.
macro_rules! names {
    ($t:ty { $($v:ident => $n:literal),+ $(,)? }) => {
        impl $t {
            pub const NAMES: &'static [&'static str] = &[$($n),+];
            pub const ALL: &'static [$t] = &[$(Self::$v),+];
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$v => $n),+
                }
            }
        }
    };
}

names!(Arch { X86 => "x86", Arm64 => "arm64" });

/// How a virtual page number picks its set in the (second-level) TLB: `machine.tlb_index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlbIndex {
    /// A multiplicative hash of the page number and the tag (PCID or ASID): a stand-in for an
    /// unpublished index function. It scatters even contiguous pages at random over the sets, so
    /// some sets overflow well before the TLB is full.
    Hash,
    /// Skylake's L2 sTLB (128 sets × 12 ways): `set = vpn[6:0] XOR vpn[13:7]`, the "XOR-7"
    /// function Gras et al. reverse-engineered (TLBleed, USENIX Security 2018). The PCID is not
    /// part of the index, so the same page of two processes shares a set; 128 consecutive
    /// pages aligned to 128 fill every set once. Needs `tlb_entries / tlb_ways = 128`.
    Xor7,
}

names!(TlbIndex { Hash => "hash", Xor7 => "xor7" });

/// Where `flush_tlb_mm_range()` keeps its `struct flush_tlb_info`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlushInfo {
    /// 2019–2026: one per-CPU, cache-line aligned descriptor (3db6d5a5ecaf).
    PerCpu,
    /// 2026: on the caller's stack, aligned to `FLUSH_TLB_INFO_ALIGN` (ed15468787dd, c86f522bb57b).
    Stack,
    /// On the stack without alignment: starts at `machine.stack_offset` within a cache line,
    /// so it may straddle two lines.
    StackUnaligned,
}

names!(FlushInfo { PerCpu => "percpu", Stack => "stack", StackUnaligned => "stack_unaligned" });

/// Whether the initiator may be preempted while waiting for remote CPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preempt {
    /// Pre-2026: preemption off for the whole flush, including the remote wait.
    Pinned,
    /// 2026 series: preemptible after dispatch (and the local flush).
    PreemptibleWait,
}

names!(Preempt { Pinned => "pinned", PreemptibleWait => "preemptible_wait" });

/// Where `smp_call_function_many_cond()` keeps the set of CPUs it waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitMask {
    /// Pre-2026: `cfd_data(this cpu)->cpumask`, shared by every task on the CPU.
    PerCpu,
    /// 2026 (9a560af15fd3): a per-task mask, private to the waiter.
    Task,
}

names!(WaitMask { Task => "task", PerCpu => "percpu" });

/// PTI: how a flush of one user page reaches the user PCID (`native_flush_tlb_one_user`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtiUserFlush {
    /// `INVPCID` type 0 on the user PCID right away (CPUs with INVPCID).
    Invpcid,
    /// `invalidate_user_asid()`: the slot's bit in `user_pcid_flush_mask`, so the next return
    /// to user space writes CR3 without NOFLUSH (CPUs without INVPCID).
    Deferred,
    /// Neither: INVLPG reaches only the kernel PCID, the user PCID keeps the page (race R11).
    None,
}

names!(PtiUserFlush { Invpcid => "invpcid", Deferred => "deferred", None => "none" });

/// x86 `switch_mm_irqs_off()`: what orders this CPU's store of `LOADED_MM_SWITCHING` (and
/// `is_lazy = false`) before its read of `next->context.tlb_gen` (race R7, invariant I5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchMmBarrier {
    /// The kernel since 83b0177a6c48 (2025): the atomic `cpumask_set_cpu()` when the bit was
    /// clear, else an explicit `smp_mb()`.
    Full,
    /// No `smp_mb()` when this CPU's bit is already in `mm_cpumask(next)` (as in the kernels
    /// between 209954cbc7d0's lazy cpumask and that fix): the stores wait in the store buffer
    /// while the `tlb_gen` read goes ahead. A newly set bit is still a locked RMW, a barrier.
    None,
}

names!(SwitchMmBarrier { Full => "full", None => "none" });

/// When a remote `flush_tlb_func()` reads the mm's shared `tlb_gen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlbGenRead {
    /// Since aa44284960d5 (Nadav Amit, 2022, in 5.18): not when the request's own
    /// `new_tlb_gen` is already covered by this CPU's generation, since an earlier request
    /// that caught up did its work; the contended line stays where it is.
    WhenNeeded,
    /// Before it: every call reads the line first, and a CPU behind the mm catches up to the
    /// newest generation even when this request was already covered.
    Always,
}

names!(TlbGenRead { WhenNeeded => "when_needed", Always => "always" });
pub use crate::locks::LockMode;

/// Shape of the remote interrupts-off windows drawn by busy threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dist {
    /// Uniform in `[1, irqs_off_max_ns]`.
    Uniform,
    /// Exponential with mean `irqs_off_mean_ns`, capped at `irqs_off_max_ns`.
    Exp,
    /// Pareto (α = 2) with mean `irqs_off_mean_ns`, capped at `irqs_off_max_ns`: a heavy tail.
    Pareto,
}

names!(Dist { Uniform => "uniform", Exp => "exp", Pareto => "pareto" });

/// arm64 `tlb_flush_check()`'s rule for "only this CPU runs the mm".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipRule {
    /// v2 (2020-02-23): `nr_active_mm <= 1` and the caller runs the mm, not lazily.
    ActiveMm,
    /// RFC (2020-02-03): `mm_users <= 1 && current->mm == mm` (single-threaded only); blind to
    /// a kernel thread lazily holding the mm (R15).
    MmUsers,
}

names!(SkipRule { ActiveMm => "active_mm", MmUsers => "mm_users" });

/// How arm64 `raw_smp_processor_id()` finds the CPU number (commit bf0baa5bbdc9, 2024).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuIdImpl {
    /// `*raw_cpu_ptr(&cpu_number)`: `adrp; mrs tpidr_el1; add; ldrsw` (57c82954e77f – 2024).
    PerCpu,
    /// `current_thread_info()->cpu`: `mrs sp_el0; ldr` (bf0baa5bbdc9, 2024).
    ThreadInfo,
}

names!(CpuIdImpl { ThreadInfo => "thread_info", PerCpu => "percpu" });

/// The op the generated workload's threads loop on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkOp {
    Madvise,
    Munmap,
    Mprotect,
    Cow,
}

names!(WorkOp { Madvise => "madvise", Munmap => "munmap", Mprotect => "mprotect", Cow => "cow" });

/// What backs the op threads' pages in will-it-scale's loop (`reread`): see `page_cache.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapping {
    /// Anonymous memory: the read-back maps the zero page, the write zero-fills a new page.
    Anon,
    /// A private file mapping: the read-back maps the page-cache folio, the write copies it.
    File,
}

names!(Mapping { Anon => "anon", File => "file" });

/// The design toggles: one vocabulary for scenario files, URL, CLI and CSV.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    pub flush_info: FlushInfo,
    pub preempt: Preempt,
    /// PCID on: 6 dynamic ASID slots per CPU, CR3 writes may keep entries (CR3_NOFLUSH).
    /// Off: one tag, every mm change flushes the TLB.
    pub pcid: bool,
    pub wait_mask: WaitMask,
    /// `flush_tlb_func` does a partial flush only if `new_tlb_gen == local_gen + 1` (R8).
    /// Off = the naive rule "partial whenever the request is a range".
    pub plus_one_rule: bool,
    /// `freed_tables` flushes IPI lazy CPUs too (R6). Off = lazy CPUs are always skipped.
    pub lazy_freed_tables_ipi: bool,
    /// `tlb_single_page_flush_ceiling`: ranges above this many pages become full flushes.
    pub ceiling: u32,
    /// x86 page-table isolation: user and kernel page tables in two PCIDs per slot, a CR3
    /// switch on every kernel entry and exit, kernel entries not global.
    pub pti: bool,
    pub pti_user_flush: PtiUserFlush,
    /// x86: the barrier between `switch_mm`'s publishing stores and its `tlb_gen` read (R7).
    pub switch_mm_barrier: SwitchMmBarrier,
    pub tlb_gen_read: TlbGenRead,
    /// AMD INVLPGB/TLBSYNC with global ASIDs (the 2025 series).
    pub invlpgb: bool,
    /// Assign a global ASID at the first eligible flush instead of about one in 32.
    pub global_asid_first_flush: bool,
    /// `asid_transition`: IPI the CPUs still on a dynamic ASID (off replays R13).
    pub asid_transition: bool,
    /// The INVLPGB path stays pinned until TLBSYNC (off replays R12).
    pub tlbsync_pinned: bool,
    /// arm64: Arcangeli's skip-broadcast series (`tlb_flush_check`); off = mainline.
    pub broadcast_skip: bool,
    /// arm64 skip-broadcast: `DSB ISH` after switching TTBR0 away and before `nr_active_mm--`
    /// (the 2020-04-01 fix for R16).
    pub dsb_before_dec: bool,
    pub skip_rule: SkipRule,
    pub cpu_id: CpuIdImpl,
    /// arm64 `MAX_DVM_OPS` (`PTRS_PER_PTE`): ranges of this many pages or more become an
    /// ASID flush.
    pub max_dvm_ops: u32,
    /// arm64 FEAT_TLBIRANGE: ranged flushes use range TLBIs (a few ops per range, ASID
    /// fallback only above 2^21 pages); off: one TLBI per page up to `max_dvm_ops`.
    pub tlbi_range: bool,
    /// Shared locks modelled as FIFO queues (`locks.rs`).
    pub locks: LockMode,
}

/// arm64 costs (ns unless named `_ps`). Estimates unless a source is given (`asm/tlbflush.h`,
/// `mm/context.c`, Arcangeli's 2020 mails, bf0baa5bbdc9). The generic costs (syscall, fault, refill, context switch) come from
/// [`Costs`]. Each field's meaning and source: `vocabulary::COSTS`.
#[derive(Clone, Debug, PartialEq)]
pub struct Arm64Costs {
    pub tlbi_local_ns: u64,
    pub tlbi_all_local_ns: u64,
    pub dsb_nsh_ns: u64,
    pub dsb_ishst_ns: u64,
    pub dvm_op_ns: u64,
    pub dsb_ish_ns: u64,
    pub victim_ns: u64,
    pub asid_fast_ns: u64,
    pub asid_slow_ns: u64,
    pub rollover_cpu_ns: u64,
    pub flush_check_ns: u64,
    pub ptw_ns: u64,
    pub preempt_op_ns: u64,
    pub cpu_id_percpu_ps: u64,
    pub cpu_id_thread_info_ps: u64,
    pub percpu_rmw_ns: u64,
    pub copy_page_ns: u64,
}

impl Default for Arm64Costs {
    fn default() -> Self {
        Arm64Costs {
            tlbi_local_ns: 40,
            tlbi_all_local_ns: 150,
            dsb_nsh_ns: 20,
            dsb_ishst_ns: 20,
            dvm_op_ns: 140,
            dsb_ish_ns: 300,
            victim_ns: 15,
            asid_fast_ns: 10,
            asid_slow_ns: 120,
            rollover_cpu_ns: 20,
            flush_check_ns: 20,
            ptw_ns: 500,
            preempt_op_ns: 1,
            cpu_id_percpu_ps: 1_603,
            cpu_id_thread_info_ps: 1_206,
            percpu_rmw_ns: 3,
            copy_page_ns: 700,
        }
    }
}

/// Named cost-model parameters in nanoseconds. Every one is overridable from a scenario's
/// `[costs]` table or `--set costs.<name>=<ns>`; `machine.preset` picks the defaults. What
/// each field is, its unit and the source of its value: `vocabulary::COSTS`.
#[derive(Clone, Debug, PartialEq)]
pub struct Costs {
    pub ipi_send_ns: u64,
    pub csd_queue_ns: u64,
    pub ipi_delivery_ns: u64,
    pub ipi_handler_ns: u64,
    pub flush_func_ns: u64,
    pub invlpg_ns: u64,
    pub full_flush_ns: u64,
    pub tlb_refill_ns: u64,
    pub tlb_hit_ps: u64,
    pub page_fault_ns: u64,
    pub syscall_ns: u64,
    pub zap_pte_ns: u64,
    pub cacheline_transfer_ns: u64,
    pub socket_transfer_ns: u64,
    pub csd_poll_ns: u64,
    pub context_switch_ns: u64,
    pub switch_mm_ns: u64,
    pub kernel_pages: u64,
    /// The arm64-specific costs.
    pub arm64: Arm64Costs,
    /// The x86-specific costs (flush-call entry work, PTI).
    pub x86: crate::arch::x86::costs::X86Costs,
    /// The shared-lock model's costs (`locks.rs`).
    pub locks: crate::locks::LockCosts,
    /// Zero-filling and page-cache costs of faults (`page_cache.rs`).
    pub page: crate::page_cache::PageCosts,
}

/// Generated workload knobs (the madvise-touch benchmark shape and friends). Tasks from
/// `[[tasks]]` come on top of these.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// Threads of mm 1 that loop `touch` + `madvise` (one op), on CPUs `initiator..`.
    pub threads: u16,
    /// Threads of mm 1 that spin in user mode on the next CPUs (they make the flush IPI them).
    pub busy_threads: u16,
    /// Threads of mm 1 that ran once and sleep, leaving their CPUs idle in lazy-TLB mode.
    pub lazy_cpus: u16,
    /// Ops per op-thread.
    pub flushes: u32,
    /// Pages per op (each op thread uses its own range).
    pub pages: u32,
    pub initiator: CpuId,
    /// Each op starts at least `period_ns` after the previous one started (0 = back to back).
    pub period_ns: u64,
    /// Op threads use `munmap`-style flushes that free page tables.
    pub freed_tables: bool,
    /// Chance, per `irqs_off_gap_ns` of spinning, that a busy thread disables interrupts.
    pub irqs_off_probability: f64,
    pub irqs_off_gap_ns: u64,
    pub irqs_off_dist: Dist,
    pub irqs_off_mean_ns: u64,
    pub irqs_off_max_ns: u64,
    /// A high-priority task of its own mm wakes on `wakeup_cpu` every period (0 = none).
    pub wakeup_period_ns: u64,
    pub wakeup_cpu: CpuId,
    pub wakeup_work_ns: u64,
    /// Pages in each mm's address space.
    pub mm_pages: u32,
    /// What the op threads loop on (with `touch` before it).
    pub op: WorkOp,
    /// Each op thread is its own process (mm 1 + i) whose main thread started it and now
    /// waits (`pthread_join`/`wait`) on the same CPU — `mm_users` = 2, one thread running.
    pub processes: bool,
    /// Pages each op thread reads before every op besides its op range (its hot data, never
    /// unmapped): the translations a full flush throws away and the next op walks again.
    pub hot_pages: u32,
    /// Victim-compute processes on the CPUs after the busy threads (`victims.rs`).
    pub victims: u16,
    /// Compute per victim iteration.
    pub victim_work_ns: u64,
    /// will-it-scale's `tlb_flush*` loop: after the op, read the page back (a fault that maps
    /// the zero page or the file's page read-only, allocating nothing), so the next iteration's
    /// write is a copy-on-write fault (`Op::Cow`, with its own flush) instead of a `touch`.
    pub reread: bool,
    /// With `reread`: what the pages are (`page_cache.rs`).
    pub mapping: Mapping,
}

/// One explicit task from `[[tasks]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskSpec {
    pub name: String,
    /// 0 = kernel thread (borrows the previous mm lazily).
    pub mm: MmId,
    pub cpu: CpuId,
    /// CPUs it may migrate to when preempted; always contains `cpu`.
    pub cpus: Vec<CpuId>,
    pub prio: u8,
    pub start_ns: Ns,
    /// Times the program runs; 0 = forever.
    pub repeat: u32,
    /// A daemon does not keep the run alive.
    pub daemon: bool,
    /// Each program iteration is an op whose latency goes to `op_latency_ns`.
    pub measure: bool,
    pub program: Vec<Op>,
}

/// The outcome a scenario promises (checked by `tests/scenarios.rs`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Expect {
    pub violations: Vec<String>,
    pub cases: Vec<ExpectCase>,
    /// Extra overrides the native test suite applies (e.g. fewer flushes for a bench scenario).
    pub test_set: Vec<String>,
}

impl Expect {
    /// Every run the promise covers: `test_set` alone with the scenario's own violations, then
    /// `test_set` plus each case's settings with that case's violations.
    pub fn runs(&self) -> Vec<(Vec<String>, &[String])> {
        let mut runs = vec![(self.test_set.clone(), self.violations.as_slice())];
        for case in &self.cases {
            let set = self.test_set.iter().chain(&case.set).cloned().collect();
            runs.push((set, case.violations.as_slice()));
        }
        runs
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct ExpectCase {
    pub set: Vec<String>,
    pub violations: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub title: String,
    pub description: String,
    pub summary: String,
    pub arch: Arch,
    pub cpus: u16,
    pub preset: String,
    pub tlb_entries: u32,
    pub tlb_ways: u32,
    /// The TLB's set-index function (default from the preset).
    pub tlb_index: TlbIndex,
    /// Sockets the CPUs are spread over, numbered socket by socket (default from the preset).
    pub sockets: u16,
    pub cacheline_bytes: u32,
    /// Size of `struct flush_tlb_info` in bytes.
    pub flush_info_bytes: u32,
    /// Offset of an unaligned on-stack descriptor within its cache line.
    pub stack_offset: u32,
    /// The run stops at this simulated time even if tasks remain.
    pub max_time_ns: Ns,
    /// ... or after this many events: a budget, so reaching it is reported (`budget.rs`).
    pub max_events: u64,
    /// Memory budget of the run in MiB: machine state plus the trace it records.
    pub max_memory_mb: u32,
    /// arm64 ASID width (ID_AA64MMFR0_EL1: 8 or 16; smaller values force rollovers).
    pub asid_bits: u8,
    pub design: Design,
    pub workload: Workload,
    pub tasks: Vec<TaskSpec>,
    pub costs: Costs,
    pub expect: Expect,
    /// What the parser did that the user should know (e.g. settings dropped by `--set arch=`).
    pub notes: Vec<String>,
    /// Position in the guided tour, if this is a guided scenario.
    pub guide: Option<u32>,
    /// Narrated steps (empty for sandbox-only scenarios).
    pub steps: Vec<crate::steps::Step>,
    /// What the numbers in the title, summary and description are (checked by the content
    /// tests against a run of the file's own settings; see `steps::Step::claims`).
    pub claims: Vec<String>,
}

impl Config {
    /// The socket `cpu` is on: Linux numbers a socket's cores before the next socket's, so
    /// the CPUs are split into `sockets` runs of consecutive numbers.
    pub fn socket_of(&self, cpu: u16) -> u32 {
        (cpu as u32 * self.sockets.max(1) as u32) / self.cpus.max(1) as u32
    }

    /// Whether CPUs `a` and `b` share a socket (always, on one).
    pub fn same_socket(&self, a: u16, b: u16) -> bool {
        self.sockets <= 1 || self.socket_of(a) == self.socket_of(b)
    }

    /// Moving a line from `from`'s cache to `to`'s: `cacheline_transfer_ns` within a socket,
    /// `socket_transfer_ns` across the socket link.
    pub fn line_ns(&self, from: u16, to: CpuId) -> Ns {
        if self.same_socket(from, to.0) {
            self.costs.cacheline_transfer_ns
        } else {
            self.costs.socket_transfer_ns
        }
    }

    /// Cache lines one `flush_tlb_info` spans under the configured placement: the mechanism
    /// behind the "unaligned costs more" measurement (Chuyi Zhou, 2026, flush_tlb_info on the stack).
    pub fn descriptor_lines(&self) -> u64 {
        let line = self.cacheline_bytes.max(1) as u64;
        let size = self.flush_info_bytes.max(1) as u64;
        let offset = match self.design.flush_info {
            FlushInfo::PerCpu | FlushInfo::Stack => 0,
            FlushInfo::StackUnaligned => self.stack_offset as u64 % line,
        };
        (offset + size).div_ceil(line)
    }
}
