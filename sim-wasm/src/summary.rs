//! The per-run summary computed from the trace: the numbers the CLI prints, the UI compares
//! and the scenario tests check. Computed once at the end of a run, then serialised as JSON
//! (once per run — the per-event data crosses the boundary as columns, never as JSON).

use serde::Serialize;

use crate::trace_store::TraceStore;

#[derive(Serialize, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Stats {
    pub count: u64,
    pub mean: f64,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

impl Stats {
    /// Nearest-rank percentiles over `values` (sorted in place).
    pub fn of(values: &mut [f64]) -> Stats {
        if values.is_empty() {
            return Stats::default();
        }
        values.sort_by(f64::total_cmp);
        let n = values.len();
        let rank = |p: f64| values[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
        Stats {
            count: n as u64,
            mean: values.iter().sum::<f64>() / n as f64,
            p50: rank(0.50),
            p99: rank(0.99),
            max: values[n - 1],
        }
    }
}

#[derive(Serialize, Debug, Clone, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Violation {
    pub invariant: String,
    pub cpu: u16,
    pub time_ns: f64,
    pub detail: String,
}

/// Raw measurements gathered while the world runs (so the summary does not rescan the trace).
#[derive(Debug, Default)]
pub struct Collector {
    pub flush_latency: Vec<f64>,
    pub preempt_off: Vec<f64>,
    pub op_latency: Vec<f64>,
    pub wakeup_latency: Vec<f64>,
    pub ipis: u64,
    pub tlb_misses: u64,
    pub tlb_misses_measured: u64,
    pub page_faults: u64,
    pub full_flushes: u64,
    pub partial_flushes: u64,
    pub switch_flushes: u64,
    pub violations: Vec<Violation>,
    pub violation_count: u64,
    pub broadcasts: u64,
    pub local_flushes: u64,
    pub skipped_flushes: u64,
    pub interconnect_queue: Vec<f64>,
    pub victim_stall_ns: u64,
    pub asid_rollovers: u64,
    pub x86_ops: X86Ops,
    pub dvm_messages: u64,
    pub victim_op: Vec<f64>,
}

crate::clone_reusing::clone_reusing!(Collector {
    flush_latency,
    preempt_off,
    op_latency,
    wakeup_latency,
    ipis,
    tlb_misses,
    tlb_misses_measured,
    page_faults,
    full_flushes,
    partial_flushes,
    switch_flushes,
    violations,
    violation_count,
    broadcasts,
    local_flushes,
    skipped_flushes,
    interconnect_queue,
    victim_stall_ns,
    asid_rollovers,
    x86_ops,
    dvm_messages,
    victim_op,
});

/// x86 TLB-maintenance instructions executed over the whole run (all 0 on arm64): what the
/// flush and switch paths chose, counted where they issue them.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct X86Ops {
    /// `INVLPG`s: one per page of a ranged flush (on the kernel PCID under PTI).
    pub invlpg: u64,
    /// `INVPCID` type 0: PTI's flush of a page in the user PCID.
    pub invpcid: u64,
    /// Every CR3 write: context switches, full flushes, PTI's entry and exit switches.
    pub cr3_writes: u64,
    /// CR3 writes without NOFLUSH, each dropping one PCID's non-global entries.
    pub cr3_flushes: u64,
    /// PTI: user-PCID flushes deferred to the return to user space (`user_pcid_flush_mask`).
    pub user_pcid_flushes: u64,
    /// AMD: `INVLPGB` instructions issued and `TLBSYNC`s executed.
    pub invlpgb: u64,
    pub tlbsync: u64,
    /// `flush_tlb_func()`'s reads of the mm's shared `tlb_gen` (`tlb_gen_read` decides when).
    pub tlb_gen_reads: u64,
    /// Those reads, and `inc_mm_tlb_gen()`s, that had to fetch the line from another CPU.
    pub tlb_gen_misses: u64,
    /// Lines of the cross-call protocol (csds, `call_single_queue` heads) a CPU had to fetch
    /// from another: the sender's `csd_lock` and `llist_add`, the handler's `llist_del_all`
    /// and csd read, the sender's read of each acknowledged csd.
    pub request_line_misses: u64,
}

/// The run's numbers. Latencies are in simulated nanoseconds.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Summary {
    pub arch: String,
    /// The machine preset the run used (its cost parameters).
    pub machine: String,
    /// Notes from parsing, e.g. settings a `--set arch=` retarget ignored.
    pub notes: Vec<String>,
    /// Popped queue events (trace rows are not events).
    pub events: u64,
    pub trace_rows: u64,
    pub sim_time_ns: f64,
    /// The workload's own operation (e.g. one touch + madvise), per iteration of measured tasks.
    pub op_latency_ns: Stats,
    /// `flush_tlb_mm_range()` from entry to return, per flush.
    pub flush_latency_ns: Stats,
    /// The initiator's preemption-off time per flush.
    pub preempt_off_ns: Stats,
    /// From a high-priority task's wakeup until it runs.
    pub wakeup_latency_ns: Stats,
    pub ipis: u64,
    /// TLB misses (page walks) on every CPU over the whole run, warm-up included.
    pub tlb_misses: u64,
    /// The misses from the start of the first measured task until the last one finished, on
    /// every CPU: without the warm-up tasks that ran before. Divided by `op_latency_ns.count`,
    /// the steady-state misses per measured op (per round trip in the ping-pong benchmarks).
    pub tlb_misses_measured: u64,
    pub page_faults: u64,
    /// `flush_tlb_func` outcomes, plus flushing CR3 writes at context switch.
    pub full_flushes: u64,
    pub partial_flushes: u64,
    pub switch_flushes: u64,
    /// Every violation recorded (at most 10 000; `violation_count` counts all).
    pub violations: Vec<Violation>,
    pub violation_count: u64,
    /// arm64: flushes sent as broadcast `TLBI …IS` (0 on x86).
    pub broadcasts: u64,
    /// arm64: flushes done with local TLBIs only (`tlb_flush_check` → local).
    pub local_flushes: u64,
    /// arm64: flushes that needed no TLBI at all (`tlb_flush_check` → no).
    pub skipped_flushes: u64,
    /// arm64: per broadcast, the time it waited for the interconnect behind other broadcasters.
    pub interconnect_queue_ns: Stats,
    /// arm64: total time receiving CPUs lost performing other CPUs' broadcasts.
    pub victim_stall_ns: u64,
    /// arm64: ASID generation rollovers.
    pub asid_rollovers: u64,
    /// x86: INVLPG, INVPCID and CR3 writes (all 0 on arm64).
    pub x86_ops: X86Ops,
    /// arm64: broadcast TLBI ops issued, each one DVM message every other CPU performs (one
    /// per page without FEAT_TLBIRANGE, a few per range with it).
    pub dvm_messages: u64,
    /// Victim-compute tasks (`workload.victims`): elapsed time of each chunk of
    /// `victim_work_ns` of compute.
    pub victim_op_ns: Stats,
    /// Victim-compute tasks: nominal work / elapsed time over every finished chunk (1 = not
    /// slowed at all); null without victims.
    pub victim_throughput: Option<f64>,
    /// `design.locks`: per acquisition of an mm's `mmap_lock` (read), the time spent queued
    /// behind other holders (waits of 0 included; empty with `locks = off`).
    pub mmap_lock_wait_ns: Stats,
    /// `design.locks = per_vma`: the same for VMA locks.
    pub vma_lock_wait_ns: Stats,
    /// `design.locks`: the same for the zone lock (one acquisition per `pcp_batch` pages).
    pub zone_lock_wait_ns: Stats,
    /// `design.locks`: the same for the LRU lock (one acquisition per `lru_batch` folios).
    pub lru_lock_wait_ns: Stats,
    /// `design.locks`: the most requests a newcomer ever found ahead of it on one lock.
    pub lock_queue_max: u64,
}

impl Summary {
    pub fn of(
        arch: &str,
        c: &Collector,
        trace: &TraceStore,
        events: u64,
        sim_time_ns: u64,
    ) -> Summary {
        let stats = |v: &Vec<f64>| Stats::of(&mut v.clone());
        Summary {
            arch: arch.to_string(),
            machine: String::new(),
            notes: Vec::new(),
            events,
            trace_rows: trace.len() as u64,
            sim_time_ns: sim_time_ns as f64,
            op_latency_ns: stats(&c.op_latency),
            flush_latency_ns: stats(&c.flush_latency),
            preempt_off_ns: stats(&c.preempt_off),
            wakeup_latency_ns: stats(&c.wakeup_latency),
            ipis: c.ipis,
            tlb_misses: c.tlb_misses,
            tlb_misses_measured: c.tlb_misses_measured,
            page_faults: c.page_faults,
            full_flushes: c.full_flushes,
            partial_flushes: c.partial_flushes,
            switch_flushes: c.switch_flushes,
            violations: c.violations.clone(),
            violation_count: c.violation_count,
            broadcasts: c.broadcasts,
            local_flushes: c.local_flushes,
            skipped_flushes: c.skipped_flushes,
            interconnect_queue_ns: stats(&c.interconnect_queue),
            victim_stall_ns: c.victim_stall_ns,
            asid_rollovers: c.asid_rollovers,
            x86_ops: c.x86_ops,
            dvm_messages: c.dvm_messages,
            victim_op_ns: stats(&c.victim_op),
            victim_throughput: None,
            mmap_lock_wait_ns: Stats::default(),
            vma_lock_wait_ns: Stats::default(),
            zone_lock_wait_ns: Stats::default(),
            lru_lock_wait_ns: Stats::default(),
            lock_queue_max: 0,
        }
    }

    /// Fills the lock fields from the run's lock model.
    pub fn with_locks(mut self, l: &crate::locks::LockStats) -> Summary {
        let stats = |v: &Vec<f64>| Stats::of(&mut v.clone());
        self.mmap_lock_wait_ns = stats(&l.mmap);
        self.vma_lock_wait_ns = stats(&l.vma);
        self.zone_lock_wait_ns = stats(&l.zone);
        self.lru_lock_wait_ns = stats(&l.lru);
        self.lock_queue_max = l.max_queue;
        self
    }

    /// The distinct names of the violated invariants, sorted.
    pub fn violated(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .violations
            .iter()
            .map(|x| x.invariant.clone())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    pub fn to_json(&self) -> String {
        // Serialising plain numbers, strings and vectors cannot fail.
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_one_to_hundred_use_nearest_rank() {
        let mut v: Vec<f64> = (1..=100).map(f64::from).collect();
        let s = Stats::of(&mut v);
        assert_eq!((s.p50, s.p99, s.max, s.mean), (50.0, 99.0, 100.0, 50.5));
    }

    #[test]
    fn stats_of_nothing_are_zero() {
        assert_eq!(Stats::of(&mut []), Stats::default());
    }
}
