// The auto-analysis of a trace's shootdowns, after `rtla timerlat -a`: the slowest flushes, each
// with its critical path (flushBreakdown.ts), the part that dominated and its cause in words;
// percentiles over every flush; and per CPU how often it was the last to ack, and why. The same
// for a model run and a recording, so the two can be read part by part. Pure.
import type { Trace } from '../trace/trace';
import {
  dominantPart,
  type BreakdownOptions,
  type DelayCause,
  type FlushBreakdown,
  type FlushPart,
  type PartName,
} from './flushBreakdown';
import { breakdownFlushes } from './flushScan';
import { nearestRank, sortedSamples } from './nearestRank';

export interface Percentiles {
  samples: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface LastToAck {
  cpu: number;
  /** Flushes whose critical path ran through this CPU's ack. */
  last: number;
  /** Of those, by what delayed the IPI to it. */
  by: Record<DelayCause['kind'], number>;
}

export interface FlushAnalysis {
  flushes: number;
  /** Of those, the ones that sent IPIs (a flush whose cpumask held no other CPU sends none). */
  withIpis: number;
  /** Flush latency (flush_tlb_mm_range, or the recording's shootdown span). */
  latency: Percentiles | null;
  /** Each part of the critical path, over the flushes where it is known. */
  parts: Record<PartName, Percentiles | null>;
  slowest: (FlushBreakdown & { dominant: FlushPart | null; why: string })[];
  lastToAck: LastToAck[];
  /** Flushes whose path has a part the trace cannot tell (an ack or a handler not recorded). */
  unknown: number;
}

const PARTS: PartName[] = ['entry', 'sends', 'delivery', 'handler', 'local', 'return'];

export function analyzeFlushes(trace: Trace, top = 5, opts: BreakdownOptions = {}): FlushAnalysis {
  const acc = new FlushAnalysisAccumulator(top);
  for (const b of breakdownFlushes(trace, opts)) acc.add(b);
  return acc.result();
}

type Slow = FlushAnalysis['slowest'][number];
const slower = (a: FlushBreakdown, b: FlushBreakdown) => b.latency - a.latency || a.row - b.row;

/**
 * The analysis built one flush at a time, in any order (a scan in a worker emits flushes as
 * they complete): the same result as over all of them at once. It keeps every flush's latency
 * and parts (for the percentiles) and only the `top` slowest whole.
 */
export class FlushAnalysisAccumulator {
  private flushes = 0;
  private withIpis = 0;
  private unknown = 0;
  private readonly latencies: number[] = [];
  private readonly parts = new Map<PartName, number[]>(PARTS.map((p) => [p, []]));
  private readonly perCpu = new Map<number, LastToAck>();
  private readonly slowest: FlushBreakdown[] = [];

  constructor(private readonly top: number) {}

  add(b: FlushBreakdown): void {
    this.flushes++;
    if (b.targets.length > 0) this.withIpis++;
    if (b.path.some((p) => p.ns === null)) this.unknown++;
    this.latencies.push(b.latency);
    for (const p of b.path) if (p.ns !== null) this.parts.get(p.name)?.push(p.ns);
    if (b.last !== null) {
      const t = b.targets[b.last];
      let row = this.perCpu.get(t.cpu);
      if (!row)
        this.perCpu.set(
          t.cpu,
          (row = {
            cpu: t.cpu,
            last: 0,
            by: { 'irqs-off': 0, handler: 0, idle: 0, delivery: 0, unknown: 0 },
          }),
        );
      row.last++;
      if (t.cause) row.by[t.cause.kind]++;
    }
    this.keepIfSlow(b);
  }

  private keepIfSlow(b: FlushBreakdown): void {
    const n = Math.max(0, this.top);
    const s = this.slowest;
    if (s.length === n && (n === 0 || slower(b, s[n - 1]) >= 0)) return;
    let i = s.length;
    while (i > 0 && slower(b, s[i - 1]) < 0) i--;
    s.splice(i, 0, b);
    if (s.length > n) s.pop();
  }

  result(): FlushAnalysis {
    return {
      flushes: this.flushes,
      withIpis: this.withIpis,
      latency: percentiles(this.latencies),
      parts: Object.fromEntries(
        PARTS.map((name) => [name, percentiles(this.parts.get(name) ?? [])]),
      ) as Record<PartName, Percentiles | null>,
      slowest: this.slowest.map((b): Slow => ({
        ...b,
        dominant: dominantPart(b),
        why: whyWords(b),
      })),
      lastToAck: [...this.perCpu.values()].sort((a, b) => b.last - a.last || a.cpu - b.cpu),
      unknown: this.unknown,
    };
  }
}

/** Nearest-rank percentiles of `values` (null without any). */
export function percentiles(values: readonly number[]): Percentiles | null {
  if (!values.length) return null;
  const v = sortedSamples(values);
  const at = (q: number) => nearestRank(v, q);
  return { samples: v.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: v[v.length - 1] };
}

export const PART_WORDS: Record<PartName, string> = {
  entry: 'entry (to the first IPI sent, or the local flush)',
  sends: 'IPI sends',
  delivery: 'IPI delivery',
  handler: 'handler to its ack',
  local: 'local flush',
  return: 'return after the last ack',
};

/** A part as a line names it: which CPU it concerns where that matters. */
export function partLabel(p: FlushPart, b: FlushBreakdown): string {
  if (p.name === 'entry')
    return b.targets.length ? 'entry to the first IPI sent' : 'entry to the local flush';
  if (p.name === 'sends') return `IPI sends, up to CPU ${p.cpu}'s`;
  if (p.name === 'delivery') return `IPI delivery to CPU ${p.cpu}`;
  if (p.name === 'handler') return `handler on CPU ${p.cpu} to its ack`;
  if (p.name === 'local') return `local flush on CPU ${b.cpu}`;
  if (p.name === 'return' && b.last === null && b.local !== null && b.targets.length)
    return 'return after the local flush';
  return PART_WORDS[p.name];
}

/** A part in a few words, for a row of parts: "delivery → CPU 3". */
export function partShort(p: FlushPart): string {
  if (p.name === 'delivery') return `delivery → CPU ${p.cpu}`;
  if (p.name === 'handler') return `handler on CPU ${p.cpu}`;
  if (p.name === 'local') return 'local flush';
  return p.name;
}

/** Why a delivery took as long as it did, in words. */
export function causeWords(c: DelayCause | null, cpu: number): string {
  if (!c) return `no handler of this IPI on CPU ${cpu} in the trace`;
  switch (c.kind) {
    case 'irqs-off': {
      const who = c.task
        ? ` in ${c.task.comm === null ? 'the task' : `task ${c.task.comm}`} (pid ${c.task.pid})`
        : '';
      const how = c.inferred
        ? '; inferred: the timer tick due meanwhile was taken only with the IPI'
        : '';
      return `CPU ${cpu} had interrupts off${who} when the IPI arrived (${durationWords(c.ns)} of the wait${how})`;
    }
    case 'handler':
      return `CPU ${cpu} was running another interrupt handler (${durationWords(c.ns)} of the wait)`;
    case 'idle':
      return `CPU ${cpu} was idle: the handler ran after its exit from idle`;
    case 'delivery':
      return `the IPI's delivery itself: CPU ${cpu} was running a task with interrupts on`;
    case 'unknown':
      return c.lacks === 'tasks'
        ? `what CPU ${cpu} was doing is not in the trace (no sched_switch events)`
        : `CPU ${cpu} was running a task; whether its interrupts were off is not in the trace (no irq_disable/irq_enable events)`;
  }
}

/** The flush's dominant part and its cause, in one sentence. */
export function whyWords(b: FlushBreakdown): string {
  const d = dominantPart(b);
  if (!d) return 'unknown: the trace lacks the events that bound its parts';
  const share = b.latency > 0 ? ` (${Math.round(((d.ns as number) / b.latency) * 100)} %)` : '';
  const head = `${partLabel(d, b)}${share}`;
  if (d.name === 'delivery' && b.last !== null)
    return `${head}: ${causeWords(b.targets[b.last].cause, d.cpu)}`;
  if (d.name === 'handler' && b.last !== null) {
    const t = b.targets[b.last];
    return `${head}: flush_tlb_func took ${t.func === null ? 'an unknown time' : durationWords(t.func)}, the rest is the handler's entry and exit`;
  }
  if (d.name === 'sends') return `${head}: ${b.targets.length} IPIs sent one after another`;
  if (d.name === 'local') return `${head}: the initiator's own flush ended after every ack`;
  return head;
}

/** A duration as the analysis prints it: three decimals of µs or ms, whole ns below 1 µs. */
export function durationWords(ns: number): string {
  if (Math.abs(ns) >= 1e6) return `${(ns / 1e6).toFixed(3)} ms`;
  if (Math.abs(ns) >= 1e3) return `${(ns / 1e3).toFixed(3)} µs`;
  return `${Math.round(ns)} ns`;
}
