// A/B comparison of two runs' summaries: the numbers side by side and their difference.
import type { Stats, Summary } from '../sim/trace';

export interface DiffRow {
  metric: string;
  unit: 'ns' | 'count';
  a: number;
  b: number;
  /** b − a */
  delta: number;
  /** (b − a) / a, or null when a is 0 */
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

const METRICS: [string, 'ns' | 'count', Pick][] = [
  ['Flush latency, mean', 'ns', stat('flush_latency_ns', 'mean')],
  ['Flush latency, p99', 'ns', stat('flush_latency_ns', 'p99')],
  ['Flush latency, max', 'ns', stat('flush_latency_ns', 'max')],
  ['Operation latency, mean', 'ns', stat('op_latency_ns', 'mean')],
  ['Preemption off, p99', 'ns', stat('preempt_off_ns', 'p99')],
  ['Preemption off, max', 'ns', stat('preempt_off_ns', 'max')],
  ['Wakeup latency, max', 'ns', stat('wakeup_latency_ns', 'max')],
  ['IPIs sent', 'count', num('ipis')],
  ['TLB misses', 'count', num('tlb_misses')],
  ['Invariant violations', 'count', (s) => s.violations.length],
  ['Simulated time', 'ns', num('sim_time_ns')],
];

/** Rows for every metric both summaries carry. */
export function diffSummaries(a: Summary, b: Summary): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const [metric, unit, pick] of METRICS) {
    const va = pick(a);
    const vb = pick(b);
    if (va === undefined || vb === undefined) continue;
    rows.push({
      metric,
      unit,
      a: va,
      b: vb,
      delta: vb - va,
      ratio: va === 0 ? null : (vb - va) / va,
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
