// The latency lens: the waits a reader should see as lengths, derived from a trace. Pure.
//   - nonpreempt_wait: an initiator spinning for acks (`IpiWait`) with preemption off
//     (inside a `PreemptOff` span on its CPU): nothing else can run there meanwhile.
//   - irqs_off_delay: a flush request's IPI sent while its target had interrupts off: from the
//     send to the handler, on the target, the time the request sat pending.
//   - wakeup_latency: a high-priority task woken (`TaskWoken`) until it runs, as the summary's
//     `wakeup_latency_ns` counts it (to the end of the context switch into it).
import { EventKind, type Trace } from '../trace/trace';

export const LENS_KINDS = ['nonpreempt_wait', 'irqs_off_delay', 'wakeup_latency'] as const;
export type LensKind = (typeof LENS_KINDS)[number];

export const LENS_NAMES: Record<LensKind, string> = {
  nonpreempt_wait: 'non-preemptible wait',
  irqs_off_delay: 'IPI held off by irqs-off',
  wakeup_latency: 'wakeup latency',
};

export interface LensInterval {
  kind: LensKind;
  cpu: number;
  start: number;
  end: number;
  /** Row the interval is measured on (the wait, the handler, the task's run). */
  row: number;
  /** Its stacking level within the CPU's lens rows (0 = first). */
  level: number;
}

/** Spans of `kind` per CPU, in start order. */
function spansByCpu(trace: Trace, kind: number): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let i = 0; i < trace.n; i++) {
    if (trace.kind[i] !== kind) continue;
    const list = out.get(trace.cpu[i]) ?? [];
    list.push(i);
    out.set(trace.cpu[i], list);
  }
  return out;
}

/**
 * The span in `rows` (one CPU's spans of one kind: in start order, never nested) that covers
 * time t (start ≤ t < end), or -1. A binary search: runs have a million rows.
 */
function covering(trace: Trace, rows: readonly number[] | undefined, t: number): number {
  if (!rows?.length) return -1;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (trace.time[rows[mid]] <= t) lo = mid + 1;
    else hi = mid;
  }
  const r = rows[lo - 1];
  return r !== undefined && t < trace.time[r] + trace.dur[r] ? r : -1;
}

/**
 * Every lens interval of `kinds` in the trace, ordered by CPU then start, each with a level
 * so that overlapping intervals on one CPU stack instead of covering each other.
 * `contextSwitchNs`: the run's `costs.context_switch_ns`, which the summary counts in a wakeup.
 */
export function lensIntervals(
  trace: Trace,
  kinds: readonly string[] = LENS_KINDS,
  contextSwitchNs = 0,
): LensInterval[] {
  const want = new Set(kinds);
  const out: Omit<LensInterval, 'level'>[] = [];
  if (want.has('nonpreempt_wait')) {
    const off = spansByCpu(trace, EventKind.PreemptOff);
    for (let i = 0; i < trace.n; i++) {
      if (trace.kind[i] !== EventKind.IpiWait || trace.dur[i] <= 0) continue;
      const cpu = trace.cpu[i];
      const p = covering(trace, off.get(cpu), trace.time[i]);
      if (p < 0) continue;
      const end = Math.min(trace.time[i] + trace.dur[i], trace.time[p] + trace.dur[p]);
      out.push({ kind: 'nonpreempt_wait', cpu, start: trace.time[i], end, row: i });
    }
  }
  if (want.has('irqs_off_delay')) {
    const off = spansByCpu(trace, EventKind.IrqsOff);
    for (let i = 0; i < trace.n; i++) {
      if (trace.kind[i] !== EventKind.IpiHandler) continue;
      const sent = trace.parent[i];
      if (sent < 0 || trace.kind[sent] !== EventKind.IpiSent) continue;
      const cpu = trace.cpu[i];
      const t = trace.time[sent];
      // Pending because of interrupts off: an irqs-off span on the target covers the send and
      // ends no later than the handler starts.
      const r = covering(trace, off.get(cpu), t);
      if (r < 0 || trace.time[r] + trace.dur[r] > trace.time[i] + 1) continue;
      out.push({ kind: 'irqs_off_delay', cpu, start: t, end: trace.time[i], row: i });
    }
  }
  if (want.has('wakeup_latency')) {
    for (let i = 0; i < trace.n; i++) {
      if (trace.kind[i] !== EventKind.TaskWoken) continue;
      const task = trace.arg[i];
      for (let j = i + 1; j < trace.n; j++) {
        if (trace.kind[j] !== EventKind.TaskRun || trace.arg[j] !== task) continue;
        // The switch into the task: the context switch, and the mm switch that starts with it.
        let end = trace.time[j] + contextSwitchNs;
        for (let k = j - 1; k <= j + 1; k++) {
          if (
            k >= 0 &&
            k < trace.n &&
            k !== j &&
            trace.kind[k] === EventKind.SwitchMm &&
            trace.cpu[k] === trace.cpu[j] &&
            trace.time[k] === trace.time[j]
          )
            end += trace.dur[k];
        }
        out.push({ kind: 'wakeup_latency', cpu: trace.cpu[j], start: trace.time[i], end, row: j });
        break;
      }
    }
  }
  out.sort((a, b) => a.cpu - b.cpu || a.start - b.start || a.end - b.end);
  // Greedy stacking per CPU: the first level whose last interval has ended.
  const ends = new Map<number, number[]>();
  return out.map((iv) => {
    const levels = ends.get(iv.cpu) ?? [];
    let level = levels.findIndex((e) => e <= iv.start);
    if (level < 0) level = levels.length;
    levels[level] = iv.end;
    ends.set(iv.cpu, levels);
    return { ...iv, level };
  });
}

/** How many lens rows each CPU needs (its highest level + 1). */
export function lensRows(intervals: readonly LensInterval[]): Map<number, number> {
  const rows = new Map<number, number>();
  for (const iv of intervals) rows.set(iv.cpu, Math.max(rows.get(iv.cpu) ?? 0, iv.level + 1));
  return rows;
}
