// Why was this flush slow? Each x86 IPI shootdown of a trace (a model run or a recording) cut
// into the parts of its critical path, the way the kernel spends it: from flush_tlb_mm_range()
// (a recording: its "remote IPI send" tlb_flush event) to the first IPI sent, the sends up to the
// one whose target finished last, that IPI's delivery (send to handler entry) and what delayed
// it, the handler until it unlocked the initiator's csd (the ack), and the return after it.
// When the initiator's own flush ends after every ack, the path runs through it instead.
//
// Built from the trace's rows and their `parent` links (FlushRange ← IpiSent ← IpiHandler ←
// FlushTlbFunc / CsdUnlocked). A part whose events the trace lacks (a recording without
// call_function or csd events) is unknown (null), never estimated. Pure: a trace in, facts out.
import { EventKind, type Trace } from '../trace/trace';

export type PartName = 'entry' | 'sends' | 'delivery' | 'handler' | 'local' | 'return';

export interface FlushPart {
  name: PartName;
  /** Nanoseconds on the critical path, or null when the trace cannot tell. */
  ns: number | null;
  /** The target CPU the part concerns (sends, delivery, handler), else the initiator's. */
  cpu: number;
}

/** What held an IPI between its send and its handler's entry on the target. */
export type DelayCause =
  /**
   * `inferred`: no irq_disable/irq_enable bounded it; a timer tick held with the IPI did (a
   * recording's IrqsOff row with arg 1). `task`: who ran on the CPU then, when the trace says.
   */
  | { kind: 'irqs-off'; ns: number; inferred: boolean; task: TaskName | null }
  | { kind: 'handler'; ns: number }
  | { kind: 'idle' }
  | { kind: 'delivery' }
  /**
   * The trace cannot tell: it has no task events (sched_switch: idle or busy?) or does not
   * bound interrupts-off sections (a recording without irq_disable/irq_enable events).
   */
  | { kind: 'unknown'; lacks: 'tasks' | 'irqs' };

/** A task as the trace names it: its pid, and its command when the recording has it. */
export interface TaskName {
  pid: number;
  comm: string | null;
}

export interface BreakdownOptions {
  /** A recording's pid → command name: its tasks are named by pid (a model run's are not). */
  tasks?: Readonly<Record<number, string>>;
  /**
   * Whether the trace's IrqsOff rows are every interrupts-off section (a model run; a recording
   * with irq_disable/irq_enable events or an irqsoff tracer's): only then is an IPI delivered
   * to a running task known to have met interrupts on.
   */
  irqsKnown?: boolean;
}

/** One target of a flush: its IPI, its handler and its ack. */
export interface FlushTarget {
  cpu: number;
  send: number;
  /** Handler entry, or null without a handler row answering this send. */
  entry: number | null;
  /** The ack (csd unlock for this initiator), or null when the trace has none. */
  ack: number | null;
  /** flush_tlb_func inside the handler, ns (null: not recorded). */
  func: number | null;
  cause: DelayCause | null;
}

export interface FlushBreakdown {
  /** The FlushRange row. */
  row: number;
  cpu: number;
  start: number;
  latency: number;
  pages: number;
  targets: FlushTarget[];
  /** The initiator's own flush_tlb_func, ns (null: none in the trace). */
  local: number | null;
  /** Index in `targets` of the one that finished last (null: the local flush, or unknown). */
  last: number | null;
  /** The critical path, in order; the known parts sum to `latency` when none is unknown. */
  path: FlushPart[];
}

/** Every IPI shootdown of `trace` (FlushRange rows that sent IPIs or flushed locally). */
export function breakdownFlushes(trace: Trace, opts: BreakdownOptions = {}): FlushBreakdown[] {
  const { n, kind, parent, cpu, time, dur, arg } = trace;
  const FLUSH = EventKind.FlushRange;
  const SENT = EventKind.IpiSent;
  const HANDLER = EventKind.IpiHandler;
  const FUNC = EventKind.FlushTlbFunc;
  const ACK = EventKind.CsdUnlocked;
  const sendsOf = new Map<number, number[]>();
  const localOf = new Map<number, number>();
  const handlerOf = new Map<number, number>();
  const funcOf = new Map<number, number>();
  const acksOf = new Map<number, number[]>();
  const flushes: number[] = [];
  const spans = new CpuSpans(opts.irqsKnown ?? true, opts.tasks ?? null);
  for (let i = 0; i < n; i++) {
    const k = kind[i];
    const p = parent[i];
    if (k === FLUSH) flushes.push(i);
    else if (k === SENT && p >= 0) push(sendsOf, p, i);
    else if (k === HANDLER) {
      if (p >= 0 && kind[p] === SENT) handlerOf.set(p, i);
      spans.add('handler', cpu[i], time[i], dur[i]);
    } else if (k === FUNC && p >= 0) {
      if (kind[p] === FLUSH && cpu[p] === cpu[i]) localOf.set(p, i);
      else if (kind[p] === HANDLER && !funcOf.has(p)) funcOf.set(p, i);
    } else if (k === ACK && p >= 0) push(acksOf, p, i);
    else if (k === EventKind.IrqsOff) spans.add('irqs', cpu[i], time[i], dur[i], arg[i]);
    else if (k === EventKind.TaskRun) spans.add('task', cpu[i], time[i], dur[i], arg[i]);
    else if (k === EventKind.Lazy) spans.add('task', cpu[i], time[i], dur[i], -1);
  }
  spans.sort();
  const out: FlushBreakdown[] = [];
  for (const f of flushes) {
    const sends = sendsOf.get(f) ?? [];
    const local = localOf.get(f);
    if (!sends.length && local === undefined) continue;
    const targets = sends.map((s): FlushTarget => {
      const h = handlerOf.get(s);
      const target = arg[s];
      const entry = h === undefined ? null : time[h];
      // The handler's unlock of this initiator's csd (arg: the sender) is the ack.
      const ack =
        h === undefined ? undefined : (acksOf.get(h) ?? []).find((a) => arg[a] === cpu[f]);
      const fn = h === undefined ? undefined : funcOf.get(h);
      return {
        cpu: target,
        send: time[s],
        entry,
        ack: ack === undefined ? null : time[ack],
        func: fn === undefined ? null : dur[fn],
        cause: entry === null ? null : spans.causeOf(target, time[s], entry),
      };
    });
    out.push(pathOf(trace, f, targets, local));
  }
  return out;
}

function pathOf(
  trace: Trace,
  f: number,
  targets: FlushTarget[],
  localRow: number | undefined,
): FlushBreakdown {
  const { cpu, time, dur, arg } = trace;
  const start = time[f];
  const end = start + dur[f];
  const me = cpu[f];
  const local = localRow === undefined ? null : dur[localRow];
  const firstSend = targets.length ? Math.min(...targets.map((t) => t.send)) : null;
  // The target whose ack came last; unknown if any target's ack is.
  const acksKnown = targets.length > 0 && targets.every((t) => t.ack !== null);
  let last: number | null = null;
  if (acksKnown)
    for (let i = 0; i < targets.length; i++)
      if (last === null || (targets[i].ack as number) > (targets[last].ack as number)) last = i;
  const localEnd = localRow === undefined ? null : time[localRow] + dur[localRow];
  const byLocal =
    localRow !== undefined &&
    (targets.length === 0 ||
      (last !== null && (localEnd as number) >= (targets[last].ack as number)));
  const path: FlushPart[] = [];
  const part = (name: PartName, ns: number | null, at = me) =>
    path.push({ name, ns: ns === null ? null : Math.max(0, ns), cpu: at });
  const firstStep = firstSend ?? (localRow === undefined ? end : time[localRow]);
  part('entry', firstStep - start);
  if (byLocal) {
    const ls = time[localRow as number];
    if (firstSend !== null) part('sends', ls - firstSend);
    part('local', local);
    part('return', end - (localEnd as number));
  } else if (last !== null) {
    const t = targets[last];
    part('sends', t.send - (firstSend as number), t.cpu);
    part('delivery', (t.entry as number) - t.send, t.cpu);
    part('handler', (t.ack as number) - (t.entry as number), t.cpu);
    part('return', end - (t.ack as number));
  } else {
    // Some ack is not in the trace: which target finished last cannot be told.
    part('sends', null);
    part('delivery', null);
    part('handler', null);
    part('return', null);
  }
  return {
    row: f,
    cpu: me,
    start,
    latency: dur[f],
    pages: arg[f],
    targets,
    local,
    last: byLocal ? null : last,
    path,
  };
}

/** The part that took longest (null when none is known). */
export function dominantPart(b: FlushBreakdown): FlushPart | null {
  let best: FlushPart | null = null;
  for (const p of b.path)
    if (p.ns !== null && (best === null || p.ns > (best.ns as number))) best = p;
  return best;
}

function push(m: Map<number, number[]>, k: number, v: number) {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

type SpanKind = 'irqs' | 'handler' | 'task';

/** Per CPU and kind, spans sorted by start: what a target was doing when an IPI reached it. */
class CpuSpans {
  private readonly spans = new Map<string, { start: number[]; end: number[]; arg: number[] }>();
  /** Whether the trace has task spans at all (a recording without sched_switch has none). */
  private tasks = false;
  constructor(
    private readonly irqsKnown: boolean,
    /** A recording's pid → command; null for a model run, whose task ids are not pids. */
    private readonly names: Readonly<Record<number, string>> | null,
  ) {}

  add(kind: SpanKind, cpu: number, start: number, dur: number, arg = 0) {
    if (kind === 'task') this.tasks = true;
    const key = `${kind}:${cpu}`;
    let s = this.spans.get(key);
    if (!s) this.spans.set(key, (s = { start: [], end: [], arg: [] }));
    s.start.push(start);
    s.end.push(start + dur);
    s.arg.push(arg);
  }

  sort() {
    for (const s of this.spans.values()) {
      const order = s.start.map((_, i) => i).sort((a, b) => s.start[a] - s.start[b]);
      s.start = order.map((i) => s.start[i]);
      s.end = order.map((i) => s.end[i]);
      s.arg = order.map((i) => s.arg[i]);
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
    let lo = 0;
    let hi = s.start.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s.start[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    // Spans of one kind may nest (a handler in a handler): look back a few for one still open.
    for (let i = lo - 1; i >= 0 && i >= lo - 4; i--)
      if (s.end[i] > t) return { start: s.start[i], end: s.end[i], arg: s.arg[i] };
    return null;
  }

  /** Why an IPI sent to `cpu` at `send` entered its handler only at `entry`. */
  causeOf(cpu: number, send: number, entry: number): DelayCause {
    const irqs = this.covering('irqs', cpu, send);
    if (irqs) {
      const task = this.covering('task', cpu, send);
      return {
        kind: 'irqs-off',
        ns: Math.min(irqs.end, entry) - send,
        inferred: irqs.arg === 1,
        task:
          this.names && task && task.arg > 0
            ? { pid: task.arg, comm: this.names[task.arg] ?? null }
            : null,
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
