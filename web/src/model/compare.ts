// A/B comparison of two runs' summaries: the numbers side by side and their difference.
import type { Stats, Summary } from '../trace/trace';

export interface DiffRow {
  metric: string;
  unit: 'ns' | 'count';
  /** null: this side has no samples of the statistic (not a zero) */
  a: number | null;
  b: number | null;
  /** Why a side's value cannot be known (a recording without the events bounding it). */
  aUnknown?: string;
  bUnknown?: string;
  /** b − a, or null when a side has no samples */
  delta: number | null;
  /** (b − a) / a, or null when a is 0 or a side has no samples */
  ratio: number | null;
}

type Pick = (s: Summary) => number | undefined;

const stat =
  (key: string, f: keyof Stats): Pick =>
  (s) => {
    const v = s[key] as Stats | undefined;
    // A statistic over nothing (e.g. no measured operation in this workload) is not a zero.
    return v && typeof v === 'object' && v.count > 0 ? v[f] : undefined;
  };
const num =
  (key: string): Pick =>
  (s) =>
    typeof s[key] === 'number' ? (s[key] as number) : undefined;

const arm64 =
  (pick: Pick): Pick =>
  (s) =>
    s.arch === 'arm64' ? pick(s) : undefined;

/** One of the x86 instruction counts (`x86_ops`), on x86 runs only. */
const x86op =
  (key: string): Pick =>
  (s) => {
    const ops = s.x86_ops as Record<string, number> | undefined;
    return s.arch === 'x86' && ops && typeof ops[key] === 'number' ? ops[key] : undefined;
  };

const METRICS: [string, 'ns' | 'count', Pick][] = [
  ['Flush latency, mean', 'ns', stat('flush_latency_ns', 'mean')],
  ['Flush latency, p99', 'ns', stat('flush_latency_ns', 'p99')],
  ['Flush latency, max', 'ns', stat('flush_latency_ns', 'max')],
  ['Operation latency, p50', 'ns', stat('op_latency_ns', 'p50')],
  ['Operation latency, mean', 'ns', stat('op_latency_ns', 'mean')],
  ['Preemption off, p99', 'ns', stat('preempt_off_ns', 'p99')],
  ['Preemption off, max', 'ns', stat('preempt_off_ns', 'max')],
  ['Wakeup latency, max', 'ns', stat('wakeup_latency_ns', 'max')],
  ['IPIs sent', 'count', num('ipis')],
  ['TLBI broadcasts', 'count', arm64(num('broadcasts'))],
  ['Interconnect queue, p50', 'ns', arm64(stat('interconnect_queue_ns', 'p50'))],
  ['DVM messages (broadcast TLBI ops)', 'count', arm64(num('dvm_messages'))],
  ['Victim compute chunk, mean', 'ns', stat('victim_op_ns', 'mean')],
  ['ASID rollovers', 'count', arm64(num('asid_rollovers'))],
  ['INVLPG', 'count', x86op('invlpg')],
  ['INVPCID (PTI)', 'count', x86op('invpcid')],
  ['CR3 writes', 'count', x86op('cr3_writes')],
  ['INVLPGB (AMD)', 'count', x86op('invlpgb')],
  ['tlb_gen line fetched from another CPU', 'count', x86op('tlb_gen_misses')],
  ['Cross-call lines fetched (csd, queue head)', 'count', x86op('request_line_misses')],
  ['TLB misses', 'count', num('tlb_misses')],
  ['Invariant violations', 'count', (s) => s.violations.length],
  ['Simulated time', 'ns', num('sim_time_ns')],
];

/** Statistics a recording can leave unknown, with the summary key that says why. */
const UNKNOWN_KEY: Record<string, string> = {
  'Preemption off, p99': 'preempt_off_unknown',
  'Preemption off, max': 'preempt_off_unknown',
};

const unknownOf = (s: Summary, metric: string): string | undefined => {
  const key = UNKNOWN_KEY[metric];
  const v = key ? s[key] : undefined;
  return typeof v === 'string' ? v : undefined;
};

/** Rows for every metric either summary carries; a side without samples is null. */
export function diffSummaries(a: Summary, b: Summary): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const [metric, unit, pick] of METRICS) {
    const aUnknown = unknownOf(a, metric);
    const bUnknown = unknownOf(b, metric);
    // An unknown side has no number, even if marks or stray sections gave it samples.
    const va = aUnknown ? null : (pick(a) ?? null);
    const vb = bUnknown ? null : (pick(b) ?? null);
    if (va === null && vb === null) continue;
    const both = va !== null && vb !== null;
    rows.push({
      metric,
      unit,
      a: va,
      b: vb,
      ...(aUnknown ? { aUnknown } : {}),
      ...(bUnknown ? { bUnknown } : {}),
      delta: both ? vb - va : null,
      ratio: both && va !== 0 ? (vb - va) / va : null,
    });
  }
  return rows;
}

/** Empirical CDF points of a sample: sorted values with cumulative fractions. */
export function ecdf(values: Iterable<number>): { x: Float64Array; p: Float64Array } {
  const x = Float64Array.from(values).sort();
  const p = x.map((_, i) => (i + 1) / x.length);
  return { x, p };
}

/** Durations of every span of one kind, e.g. each flush's latency. */
export function durationsOf(
  trace: { n: number; kind: Uint8Array; dur: Float64Array },
  kind: number,
): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < trace.n; i++) if (trace.kind[i] === kind) out.push(trace.dur[i]);
  return Float64Array.from(out);
}
