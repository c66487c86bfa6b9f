// Generated from sim-wasm/src/summary.rs, snapshot.rs and steps.rs by ts-rs (src/shapes.rs).
// Do not edit: `cargo test` fails when this file and the Rust structs differ, and
// `npm run vocab` rewrites it. 64-bit integers are `number`: serde_json writes them as
// JSON numbers and JSON.parse reads them as such (every count here is far below 2^53).

export type Stats = {
  count: number;
  mean: number;
  p50: number;
  p99: number;
  max: number;
};

export type Violation = {
  invariant: string;
  cpu: number;
  time_ns: number;
  detail: string;
};

export type Summary = {
  arch: string;
  /**
   * The machine preset the run used (its cost parameters).
   */
  machine: string;
  /**
   * Notes from parsing, e.g. settings a `--set arch=` retarget ignored.
   */
  notes: Array<string>;
  /**
   * Popped queue events (trace rows are not events).
   */
  events: number;
  trace_rows: number;
  sim_time_ns: number;
  /**
   * The workload's own operation (e.g. one touch + madvise), per iteration of measured tasks.
   */
  op_latency_ns: Stats;
  /**
   * `flush_tlb_mm_range()` from entry to return, per flush.
   */
  flush_latency_ns: Stats;
  /**
   * The initiator's preemption-off time per flush.
   */
  preempt_off_ns: Stats;
  /**
   * From a high-priority task's wakeup until it runs.
   */
  wakeup_latency_ns: Stats;
  ipis: number;
  /**
   * TLB misses (page walks) on every CPU over the whole run, warm-up included.
   */
  tlb_misses: number;
  /**
   * The misses from the start of the first measured task until the last one finished, on
   * every CPU: without the warm-up tasks that ran before. Divided by `op_latency_ns.count`,
   * the steady-state misses per measured op (per round trip in the ping-pong benchmarks).
   */
  tlb_misses_measured: number;
  page_faults: number;
  /**
   * `flush_tlb_func` outcomes, plus flushing CR3 writes at context switch.
   */
  full_flushes: number;
  partial_flushes: number;
  switch_flushes: number;
  /**
   * Every violation recorded (at most 10 000; `violation_count` counts all).
   */
  violations: Array<Violation>;
  violation_count: number;
  /**
   * arm64: flushes sent as broadcast `TLBI …IS` (0 on x86).
   */
  broadcasts: number;
  /**
   * arm64: flushes done with local TLBIs only (`tlb_flush_check` → local).
   */
  local_flushes: number;
  /**
   * arm64: flushes that needed no TLBI at all (`tlb_flush_check` → no).
   */
  skipped_flushes: number;
  /**
   * arm64: per broadcast, the time it waited for the interconnect behind other broadcasters.
   */
  interconnect_queue_ns: Stats;
  /**
   * arm64: total time receiving CPUs lost performing other CPUs' broadcasts.
   */
  victim_stall_ns: number;
  /**
   * arm64: ASID generation rollovers.
   */
  asid_rollovers: number;
  /**
   * x86: INVLPG, INVPCID and CR3 writes (all 0 on arm64).
   */
  x86_ops: X86Ops;
  /**
   * arm64: broadcast TLBI ops issued, each one DVM message every other CPU performs (one
   * per page without FEAT_TLBIRANGE, a few per range with it).
   */
  dvm_messages: number;
  /**
   * Victim-compute tasks (`workload.victims`): elapsed time of each chunk of
   * `victim_work_ns` of compute.
   */
  victim_op_ns: Stats;
  /**
   * Victim-compute tasks: nominal work / elapsed time over every finished chunk (1 = not
   * slowed at all); null without victims.
   */
  victim_throughput: number | null;
  /**
   * `design.locks`: per acquisition of an mm's `mmap_lock` (read), the time spent queued
   * behind other holders (waits of 0 included; empty with `locks = off`).
   */
  mmap_lock_wait_ns: Stats;
  /**
   * `design.locks = per_vma`: the same for VMA locks.
   */
  vma_lock_wait_ns: Stats;
  /**
   * `design.locks`: the same for the zone lock (one acquisition per `pcp_batch` pages).
   */
  zone_lock_wait_ns: Stats;
  /**
   * `design.locks`: the same for the LRU lock (one acquisition per `lru_batch` folios).
   */
  lru_lock_wait_ns: Stats;
  /**
   * `design.locks`: the most requests a newcomer ever found ahead of it on one lock.
   */
  lock_queue_max: number;
};

export type X86Ops = {
  /**
   * `INVLPG`s: one per page of a ranged flush (on the kernel PCID under PTI).
   */
  invlpg: number;
  /**
   * `INVPCID` type 0: PTI's flush of a page in the user PCID.
   */
  invpcid: number;
  /**
   * Every CR3 write: context switches, full flushes, PTI's entry and exit switches.
   */
  cr3_writes: number;
  /**
   * CR3 writes without NOFLUSH, each dropping one PCID's non-global entries.
   */
  cr3_flushes: number;
  /**
   * PTI: user-PCID flushes deferred to the return to user space (`user_pcid_flush_mask`).
   */
  user_pcid_flushes: number;
  /**
   * AMD: `INVLPGB` instructions issued and `TLBSYNC`s executed.
   */
  invlpgb: number;
  tlbsync: number;
  /**
   * `flush_tlb_func()`'s reads of the mm's shared `tlb_gen` (`tlb_gen_read` decides when).
   */
  tlb_gen_reads: number;
  /**
   * Those reads, and `inc_mm_tlb_gen()`s, that had to fetch the line from another CPU.
   */
  tlb_gen_misses: number;
  /**
   * Lines of the cross-call protocol (csds, `call_single_queue` heads) a CPU had to fetch
   * from another: the sender's `csd_lock` and `llist_add`, the handler's `llist_del_all`
   * and csd read, the sender's read of each acknowledged csd.
   */
  request_line_misses: number;
};

export type Snapshot = {
  time_ns: number;
  arch: string;
  cpus: Array<CpuState>;
  mms: Array<MmState>;
  /**
   * csds still locked: the sender's request to the target has not finished.
   */
  locked_csds: Array<[number, number]>;
  /**
   * The ASID allocator of an architecture that has one; its wire name is the one
   * architecture that does, which the inspector reads.
   */
  arm64: AsidAllocator | null;
};

export type CpuState = {
  cpu: number;
  /**
   * Name of the running task, if any.
   */
  task: string | null;
  /**
   * The mm whose tables CR3 points at (during a switch, still the previous one).
   */
  loaded_mm: number;
  loaded_asid: number;
  lazy: boolean;
  /**
   * x86, between `switch_mm_irqs_off()`'s publishing and its CR3 write: the mm it switches
   * to. The kernel's `cpu_tlbstate.loaded_mm` reads `LOADED_MM_SWITCHING` then.
   */
  switching_to: number | null;
  /**
   * Those stores (`LOADED_MM_SWITCHING`, `is_lazy = false`) still sit in the CPU's store
   * buffer: other CPUs read the previous values (`switch_mm_barrier = none`, R7).
   */
  switch_buffered: boolean;
  preempt_count: number;
  irqs_off: boolean;
  /**
   * An IPI waits in the APIC (interrupts off) or is being handled.
   */
  ipi_pending: boolean;
  /**
   * Senders of requests queued on this CPU's `call_single_queue`.
   */
  queued_from: Array<number>;
  /**
   * Per-CPU tag slots (x86 `cpu_tlbstate.ctxs[]`): which mm each belongs to and how fresh.
   */
  slots: Array<Slot>;
  tlb_entries: number;
  stale_entries: number;
  entries: Array<TlbEntry>;
};

export type Slot = {
  slot: number;
  /**
   * The mm whose `ctx_id` the slot holds (None: empty or a freed mm).
   */
  mm: number | null;
  tlb_gen: number;
};

export type TlbEntry = {
  mm: number;
  /**
   * PCID slot (x86) or hardware ASID (arm64) the entry is tagged with.
   */
  tag: number;
  vpn: number;
  /**
   * The PTE version the entry caches; stale when the page table has moved on.
   */
  version: number;
  stale: boolean;
};

export type MmState = {
  mm: number;
  tlb_gen: number;
  /**
   * x86 `mm_cpumask` (lazily trimmed); on arm64 with skip-broadcast, the stale-ASID mask.
   */
  cpumask: Array<number>;
  /**
   * arm64 `context.id` split into generation and ASID, and `nr_active_mm`.
   */
  asid: number | null;
  asid_generation: number | null;
  nr_active_mm: number | null;
};

export type MmContext = {
  /**
   * arm64 `context.id` split into generation and ASID, and `nr_active_mm`.
   */
  asid: number | null;
  asid_generation: number | null;
  nr_active_mm: number | null;
};

export type AsidAllocator = {
  generation: number;
  active_asids: Array<number>;
  reserved_asids: Array<number>;
  flush_pending: Array<number>;
};

export type Step = {
  title: string;
  text: string;
  /**
   * Visible window `[start, end]` in ns; `None` = the whole run.
   */
  window: [number, number] | null;
  /**
   * Event kinds to emphasise, by name.
   */
  highlight: Array<string>;
  /**
   * `[start, end]` in ns: a stretch of the window the text points at that may be too
   * narrow to see in it; the page draws it magnified beside the lanes.
   */
  magnify: [number, number] | null;
  /**
   * Restrict `highlight` to these CPUs (empty = all). With `expand`, the CPUs the page
   * shows as lanes; the others are folded.
   */
  cpus: Array<number>;
  /**
   * More CPUs the step talks about, shown as lanes but not highlighted.
   */
  expand: Array<number>;
  /**
   * Latency-lens intervals the step points at (see [`LENS_KINDS`]), drawn with durations.
   */
  lens: Array<string>;
  /**
   * The step's complete override list (not cumulative).
   */
  set: Array<string>;
  /**
   * Overrides of a B side to compare with, if any.
   */
  compare: Array<string> | null;
  question: string | null;
  answer: string | null;
  /**
   * A question's options as `"<label> = <measure>"` (2 to 4), the measure in the claims
   * grammar: the page evaluates each on the step's run and the `pick` one is the answer.
   */
  choices: Array<string>;
  /**
   * `max` (default) or `min`: which choice's measure the run says is right.
   */
  pick: string | null;
  /**
   * Id of a measured dataset (content/datasets/<id>.csv) to show beside the step.
   */
  dataset: string | null;
  /**
   * Id of a kernel recording (content/recordings/<id>.trace) to show beside the step.
   */
  recording: string | null;
  /**
   * Check every interleaving of the step's settings (and `compare`'s) instead of one
   * seeded run (`check/`): the page shows the verdict and the shortest counterexample.
   */
  check: boolean;
  /**
   * What each number the text states is, so that a test can hold the text to the run:
   * `"<words as written> = <what they measure>"`, e.g. `"26 µs = wakeup_latency_ns.max"`,
   * `"3 IPIs = ipis"`, `"6.6 µs = time(AsidRollover)"`, `"30 µs = input"` (a number the
   * file sets) or `"16.7 ms = source"` (quoted from `content/sources/`). The grammar and
   * its checks are in `tests/content_claims.rs`; the simulator itself ignores them.
   */
  claims: Array<string>;
  /**
   * 1-based line of the step's `[[steps]]` header in the file.
   */
  line: number;
};
