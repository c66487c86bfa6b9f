// A recording's summary in the model's terms, shaped like the simulator's run summary (the
// same `events`, `sim_time_ns`, `flush_latency_ns`, `preempt_off_ns`, `ipis` keys, so the
// summary panel and Compare A/B read both), plus what only a recording has.
import { EventKind, type Stats, type Summary } from '../trace/trace';
import type { Built } from './build';
import { REASON_SEND_IPI, TLB_FLUSH_REASONS } from './payload';
import { FORMAT_NAMES, type RecordingFormat } from './types';
import { nearestRank, sortedSamples } from '../model/nearestRank';

export interface RecordingSummary extends Summary {
  source: 'recording';
  format: string;
  lines: number;
  unreadable_lines: number;
  cpus: number;
  /** Every tlb_flush event. */
  tlb_flush: number;
  /** tlb_flush events by the kernel's reason name (every reason listed, zeros included). */
  flushes_by_reason: Record<string, number>;
  /** Pages of ranged flushes; `full_flushes` counts pages = -1 (TLB_FLUSH_ALL). */
  flushed_pages: number;
  full_flushes: number;
  /** tlb_flush "remote IPI send": one per shootdown that had to reach other CPUs. */
  shootdowns: number;
  /** Every IPI send, one per target CPU (`ipis` is the same number). */
  ipi_sends: number;
  call_function_ipis: number;
  /** Sends made while a shootdown was sending, per shootdown. */
  ipis_per_shootdown: number | null;
  /** flush_tlb_func requests queued (csd_queue_cpu) per shootdown: targets, IPI sent or not. */
  targets_per_shootdown: number | null;
  paired_ipis: number;
  unpaired_ipis: number;
  /** What `flush_latency_ns` measures, from the events this recording has. */
  flush_latency_basis: string;
  /** Send → handler entry on the target, for paired sends. */
  ipi_delivery_ns: Stats;
  /** Handler entry → exit on the target. */
  handler_ns: Stats;
  /** Shootdowns per second of recording. */
  shootdown_rate_per_s: number | null;
  irqs_off_ns: Stats;
  /**
   * Why irqs-off (preempt-off) spans are not known, or null when the recording bounds them
   * (irq_disable/irq_enable events or a latency tracer's section). Stats are empty when set.
   */
  irqs_off_unknown: string | null;
  preempt_off_unknown: string | null;
  /** Events whose flags column says interrupts (preemption) were off as they fired. */
  irqs_off_marks: number;
  preempt_off_marks: number;
  /**
   * Interrupts-off stretches inferred where a late IPI and a late timer tick were taken
   * together (drawn as irqs-off spans, kept out of `irqs_off_ns`, which measures only bounded
   * sections).
   */
  irqs_off_inferred: number;
  /**
   * A syscall that began one shootdown (raw_syscalls:sys_enter/sys_exit events), entry to
   * exit less that shootdown: the syscall's own path. Null without such syscalls.
   */
  syscall_path_ns: { samples: number; p10: number; p50: number; p90: number } | null;
  unknown_events: Record<string, number>;
  warnings: string[];
}

export const IRQS_UNKNOWN = 'unknown (the recording has no irq_disable/irq_enable events)';
export const PREEMPT_UNKNOWN =
  'unknown (the recording has no preempt_disable/preempt_enable events)';

function latencyBasis(k: Built['counts']): string {
  if (k.targetEnded > 0 && k.csdEnded === 0)
    return "its flush to the last target's tlb_flush (no csd events: the ack is not recorded)";
  if (k.targetEnded > 0)
    return "its flush to the last ack or local flush, or to the last target's tlb_flush where no csd events were recorded";
  return 'its flush to the last ack or local flush';
}

export function stats(values: ArrayLike<number>): Stats {
  const v = sortedSamples(values);
  const n = v.length;
  if (n === 0) return { count: 0, mean: 0, p50: 0, p99: 0, max: 0 };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += v[i];
  return {
    count: n,
    mean: sum / n,
    p50: nearestRank(v, 0.5),
    p99: nearestRank(v, 0.99),
    max: v[n - 1],
  };
}

export function summarise(
  b: Built,
  format: RecordingFormat,
  lines: number,
  unreadable: number,
): RecordingSummary {
  const c = b.columns;
  const n = c.time.length;
  const byReason: Record<string, number> = {};
  for (const r of TLB_FLUSH_REASONS) byReason[r] = 0;
  let pages = 0;
  let full = 0;
  const acked: number[] = [];
  const delivery: number[] = [];
  const handler: number[] = [];
  const preempt: number[] = [];
  const irqs: number[] = [];
  let end = 0;
  for (let i = 0; i < n; i++) {
    end = Math.max(end, c.time[i] + c.dur[i]);
    const k = c.kind[i];
    if (c.reason[i] >= 0) {
      const name = TLB_FLUSH_REASONS[c.reason[i]] ?? `reason ${c.reason[i]}`;
      byReason[name] = (byReason[name] ?? 0) + 1;
      if (c.pages[i] < 0) full++;
      else pages += c.pages[i];
      if (c.reason[i] === REASON_SEND_IPI && c.dur[i] > 0) acked.push(c.dur[i]);
    }
    if (k === EventKind.IpiHandler) {
      handler.push(c.dur[i]);
      if (c.parent[i] >= 0) delivery.push(c.time[i] - c.time[c.parent[i]]);
    } else if (k === EventKind.PreemptOff) preempt.push(c.dur[i]);
    else if (k === EventKind.IrqsOff && c.arg[i] !== 1) irqs.push(c.dur[i]);
  }
  const k = b.counts;
  const shootdowns = byReason[TLB_FLUSH_REASONS[REASON_SEND_IPI]];
  const warnings: string[] = [];
  if (k.tlbFlush === 0) {
    warnings.push(
      'no tlb_flush events: record with the tlb:tlb_flush tracepoint enabled (bench/kit/trace.sh does)',
    );
  }
  if (k.callFunctionSends > 0 && !k.hasHandlers) {
    warnings.push(
      'no IPI handler events (irq_vectors:call_function*_entry/exit): IPI sends are drawn unpaired',
    );
  }
  if (!k.hasFlags && !k.irqsBounded && !k.preemptBounded)
    warnings.push('no flags column in this format: irqs-off and preempt-off are not known');
  return {
    source: 'recording',
    format: FORMAT_NAMES[format],
    lines,
    unreadable_lines: unreadable,
    cpus: b.cpus,
    events: k.events,
    trace_rows: n,
    sim_time_ns: end,
    tlb_flush: k.tlbFlush,
    flushes_by_reason: byReason,
    flushed_pages: pages,
    full_flushes: full,
    shootdowns,
    ipis: k.ipiSends,
    ipi_sends: k.ipiSends,
    call_function_ipis: k.callFunctionSends,
    ipis_per_shootdown: shootdowns ? k.shootdownSends / shootdowns : null,
    targets_per_shootdown: shootdowns ? k.flushRequests / shootdowns : null,
    paired_ipis: k.pairedSends,
    unpaired_ipis: k.unpairedSends,
    flush_latency_ns: stats(acked),
    flush_latency_basis: latencyBasis(k),
    ipi_delivery_ns: stats(delivery),
    handler_ns: stats(handler),
    preempt_off_ns: stats(preempt),
    irqs_off_ns: stats(irqs),
    irqs_off_unknown: k.irqsBounded ? null : IRQS_UNKNOWN,
    preempt_off_unknown: k.preemptBounded ? null : PREEMPT_UNKNOWN,
    irqs_off_marks: k.irqsFlagged,
    preempt_off_marks: k.preemptFlagged,
    irqs_off_inferred: k.irqsInferred,
    syscall_path_ns: spread(b.syscallPath),
    shootdown_rate_per_s: end > 0 ? shootdowns / (end / 1e9) : null,
    unknown_events: b.unknown,
    violations: [],
    warnings,
  };
}

/** Nearest-rank p10, p50 and p90 of `v`, or null without any. */
function spread(v: Float64Array): RecordingSummary['syscall_path_ns'] {
  if (!v.length) return null;
  const s = sortedSamples(v);
  return {
    samples: s.length,
    p10: nearestRank(s, 0.1),
    p50: nearestRank(s, 0.5),
    p90: nearestRank(s, 0.9),
  };
}
