// The flush breakdown (flushBreakdown.ts) as one pass over a trace's rows, a slice at a time, so
// it runs where the rows are: over a page-held trace in one slice, or in the worker that keeps
// a run or recording of millions of rows, reading its packed columns slice by slice, with
// memory bounded by the flushes in flight rather than by the trace.
//
// Rows come in time order, a row's parent before it. A flush whose every IPI was acked by its
// end is complete once the pass reaches a later time: it is emitted and forgotten. One with an
// IPI not acked by then (a recording without csd events; a model run of a race in which the
// initiator stopped waiting early) waits for rows up to LATE_NS after its end. What a
// target was doing at a send (interrupts off, another handler, a task) is looked up in spans
// kept per CPU only while they can still cover a send of a flush in flight.
import type { Columns, Trace } from '../trace/trace';
import { EventKind } from '../trace/trace';
import {
  pathOf,
  type BreakdownOptions,
  type DelayCause,
  type FlushBreakdown,
  type FlushTarget,
  type TaskName,
} from './flushBreakdown';
import { upperBound } from './intervals';

/** The columns the scan reads. */
export const SCAN_COLUMNS = ['kind', 'parent', 'cpu', 'time', 'dur', 'arg'] as const;
export type ScanColumns = Pick<Columns, (typeof SCAN_COLUMNS)[number]>;

interface OpenSend {
  row: number;
  flush: OpenFlush;
  cpu: number;
  send: number;
  handler: number;
  entry: number | null;
  ack: number | null;
  func: number | null;
}

interface OpenFlush {
  row: number;
  cpu: number;
  start: number;
  end: number;
  pages: number;
  sends: OpenSend[];
  local: { time: number; dur: number } | null;
}

/** Every IPI shootdown of `trace` (FlushRange rows that sent IPIs or flushed locally), in row order. */
export function breakdownFlushes(trace: Trace, opts: BreakdownOptions = {}): FlushBreakdown[] {
  const out: FlushBreakdown[] = [];
  const scan = new FlushScan(opts, (b) => out.push(b));
  scan.push(trace, 0, trace.n);
  scan.finish();
  return out.sort((a, b) => a.row - b.row);
}

/**
 * How long after its end a flush with an unacked IPI waits for that IPI's handler and ack:
 * far beyond a model run's racing handlers (microseconds), short enough that a recording
 * without csd events keeps only a moment's flushes in memory.
 */
export const LATE_NS = 100e6;

/** Rows between two prunings of spans no flush in flight can need. */
const PRUNE_EVERY = 4096;

export class FlushScan {
  private readonly open = new Map<number, OpenFlush>();
  /** Open flushes by end time (a binary heap), the next to complete first. */
  private readonly byEnd: OpenFlush[] = [];
  /** Ended flushes with an IPI not acked, by end time: each waits until LATE_NS after it. */
  private readonly late: OpenFlush[] = [];
  private readonly sendRows = new Map<number, OpenSend>();
  private readonly handlerRows = new Map<number, OpenSend>();
  private readonly spans: CpuSpans;
  private sincePrune = 0;

  constructor(
    opts: BreakdownOptions,
    private readonly emit: (b: FlushBreakdown) => void,
  ) {
    this.spans = new CpuSpans(opts.irqsKnown ?? true, opts.tasks ?? null);
  }

  /** Flushes begun and not yet emitted: what the scan holds besides its spans. */
  get inFlight(): number {
    return this.open.size;
  }

  /** Rows lo … lo + n − 1, whose columns `cols` holds from index 0. */
  push(cols: ScanColumns, lo: number, n: number): void {
    const { kind, parent, cpu, time, dur, arg } = cols;
    for (let j = 0; j < n; j++) {
      const i = lo + j;
      const t = time[j];
      this.completeBefore(t);
      const k = kind[j];
      const p = parent[j];
      if (k === EventKind.FlushRange) {
        const f: OpenFlush = {
          row: i,
          cpu: cpu[j],
          start: t,
          end: t + dur[j],
          pages: arg[j],
          sends: [],
          local: null,
        };
        this.open.set(i, f);
        heapPush(this.byEnd, f);
      } else if (k === EventKind.IpiSent) {
        const f = p >= 0 ? this.open.get(p) : undefined;
        if (f) {
          const s: OpenSend = {
            row: i,
            flush: f,
            cpu: arg[j],
            send: t,
            handler: -1,
            entry: null,
            ack: null,
            func: null,
          };
          f.sends.push(s);
          this.sendRows.set(i, s);
        }
      } else if (k === EventKind.IpiHandler) {
        this.spans.add('handler', cpu[j], t, dur[j], 0);
        const s = p >= 0 ? this.sendRows.get(p) : undefined;
        if (s) {
          // A second handler of one send (never in a kernel's trace) replaces the first.
          s.handler = i;
          s.entry = t;
          s.ack = null;
          s.func = null;
          this.handlerRows.set(i, s);
        }
      } else if (k === EventKind.FlushTlbFunc && p >= 0) {
        const f = this.open.get(p);
        if (f) {
          if (f.cpu === cpu[j]) f.local = { time: t, dur: dur[j] };
        } else {
          const s = this.handlerRows.get(p);
          if (s && s.handler === p && s.func === null) s.func = dur[j];
        }
      } else if (k === EventKind.CsdUnlocked && p >= 0) {
        // The handler's unlock of this initiator's csd (arg: the sender) is the ack.
        const s = this.handlerRows.get(p);
        if (s && s.handler === p && s.ack === null && arg[j] === s.flush.cpu) s.ack = t;
      } else if (k === EventKind.IrqsOff) this.spans.add('irqs', cpu[j], t, dur[j], arg[j]);
      else if (k === EventKind.TaskRun) this.spans.add('task', cpu[j], t, dur[j], arg[j]);
      else if (k === EventKind.Lazy) this.spans.add('task', cpu[j], t, dur[j], -1);
      if (++this.sincePrune >= PRUNE_EVERY) {
        this.sincePrune = 0;
        let horizon = t;
        for (const f of this.open.values()) horizon = Math.min(horizon, f.start);
        this.spans.prune(horizon);
      }
    }
  }

  /** Emits the flushes still open (the trace ended). */
  finish(): void {
    while (this.late.length) this.complete(heapPop(this.late));
    while (this.byEnd.length) this.complete(heapPop(this.byEnd));
  }

  private completeBefore(t: number): void {
    while (this.byEnd.length && this.byEnd[0].end < t) {
      const f = heapPop(this.byEnd);
      if (f.sends.every((s) => s.ack !== null)) this.complete(f);
      else heapPush(this.late, f);
    }
    while (this.late.length && this.late[0].end + LATE_NS < t) this.complete(heapPop(this.late));
  }

  private complete(f: OpenFlush): void {
    this.open.delete(f.row);
    for (const s of f.sends) {
      this.handlerRows.delete(s.handler);
      this.sendRows.delete(s.row);
    }
    if (!f.sends.length && f.local === null) return;
    const targets = f.sends.map((s): FlushTarget => ({
      cpu: s.cpu,
      send: s.send,
      entry: s.entry,
      ack: s.ack,
      func: s.func,
      cause: s.entry === null ? null : this.spans.causeOf(s.cpu, s.send, s.entry),
    }));
    this.emit(
      pathOf(
        { row: f.row, cpu: f.cpu, start: f.start, latency: f.end - f.start, pages: f.pages },
        targets,
        f.local,
      ),
    );
  }
}

function heapPush(h: OpenFlush[], f: OpenFlush): void {
  h.push(f);
  let i = h.length - 1;
  while (i > 0) {
    const up = (i - 1) >> 1;
    if (!earlier(h[i], h[up])) break;
    [h[i], h[up]] = [h[up], h[i]];
    i = up;
  }
}

function heapPop(h: OpenFlush[]): OpenFlush {
  const top = h[0];
  const last = h.pop() as OpenFlush;
  if (h.length) {
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && earlier(h[l], h[m])) m = l;
      if (r < h.length && earlier(h[r], h[m])) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
  return top;
}

const earlier = (a: OpenFlush, b: OpenFlush) => a.end < b.end || (a.end === b.end && a.row < b.row);

type SpanKind = 'irqs' | 'handler' | 'task';

/**
 * Per CPU and kind, spans in start order: what a target was doing when an IPI reached it.
 * Spans that ended before every flush in flight began are dropped from the front.
 */
class CpuSpans {
  private readonly spans = new Map<
    string,
    { start: number[]; end: number[]; arg: number[]; head: number }
  >();
  /** Whether the trace has had task spans (a recording without sched_switch has none). */
  private tasks = false;
  constructor(
    private readonly irqsKnown: boolean,
    /** A recording's pid → command; null for a model run, whose task ids are not pids. */
    private readonly names: Readonly<Record<number, string>> | null,
  ) {}

  add(kind: SpanKind, cpu: number, start: number, dur: number, arg: number) {
    if (kind === 'task') this.tasks = true;
    const key = `${kind}:${cpu}`;
    let s = this.spans.get(key);
    if (!s) this.spans.set(key, (s = { start: [], end: [], arg: [], head: 0 }));
    s.start.push(start);
    s.end.push(start + dur);
    s.arg.push(arg);
  }

  /** Forgets the spans at the front that ended by `horizon`: no send still to come is in them. */
  prune(horizon: number) {
    for (const s of this.spans.values()) {
      while (s.head < s.start.length && s.end[s.head] <= horizon) s.head++;
      if (s.head > 1024 && s.head * 2 > s.start.length) {
        s.start = s.start.slice(s.head);
        s.end = s.end.slice(s.head);
        s.arg = s.arg.slice(s.head);
        s.head = 0;
      }
    }
  }

  /** The latest span of `kind` on `cpu` that started at or before `t` and is still open at it. */
  private covering(
    kind: SpanKind,
    cpu: number,
    t: number,
  ): { start: number; end: number; arg: number } | null {
    const s = this.spans.get(`${kind}:${cpu}`);
    if (!s) return null;
    const lo = upperBound(s.start, t, s.head);
    // Spans of one kind may nest (a handler in a handler): look back a few for one still open.
    for (let i = lo - 1; i >= s.head && i >= lo - 4; i--)
      if (s.end[i] > t) return { start: s.start[i], end: s.end[i], arg: s.arg[i] };
    return null;
  }

  /** Why an IPI sent to `cpu` at `send` entered its handler only at `entry`. */
  causeOf(cpu: number, send: number, entry: number): DelayCause {
    const irqs = this.covering('irqs', cpu, send);
    if (irqs) {
      const task = this.covering('task', cpu, send);
      const name: TaskName | null =
        this.names && task && task.arg > 0
          ? { pid: task.arg, comm: this.names[task.arg] ?? null }
          : null;
      return {
        kind: 'irqs-off',
        ns: Math.min(irqs.end, entry) - send,
        inferred: irqs.arg === 1,
        task: name,
      };
    }
    const other = this.covering('handler', cpu, send);
    if (other) return { kind: 'handler', ns: Math.min(other.end, entry) - send };
    if (!this.tasks) return { kind: 'unknown', lacks: 'tasks' };
    // No task and no lazy kernel thread: the CPU was idle (its exit from idle is in the delay).
    if (!this.covering('task', cpu, send)) return { kind: 'idle' };
    return this.irqsKnown ? { kind: 'delivery' } : { kind: 'unknown', lacks: 'irqs' };
  }
}
