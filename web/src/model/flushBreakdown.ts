// Why was this flush slow? Each x86 IPI shootdown of a trace (a model run or a recording) cut
// into the parts of its critical path, the way the kernel spends it: from flush_tlb_mm_range()
// (a recording: its "remote IPI send" tlb_flush event) to the first IPI sent, the sends up to the
// one whose target finished last, that IPI's delivery (send to handler entry) and what delayed
// it, the handler until it unlocked the initiator's csd (the ack), and the return after it.
// When the initiator's own flush ends after every ack, the path runs through it instead.
//
// Built from the trace's rows and their `parent` links (FlushRange ← IpiSent ← IpiHandler ←
// FlushTlbFunc / CsdUnlocked) by one pass over them (flushScan.ts, breakdownFlushes). A part
// whose events the trace lacks (a recording without call_function or csd events) is unknown
// (null), never estimated. Pure: facts in, a path out.

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

/** The flush whose path is cut: its FlushRange row's fields. */
export interface FlushRow {
  row: number;
  cpu: number;
  start: number;
  latency: number;
  pages: number;
}

/** A flush's critical path from its targets and its own flush_tlb_func (null: none). */
export function pathOf(
  f: FlushRow,
  targets: FlushTarget[],
  localRow: { time: number; dur: number } | null,
): FlushBreakdown {
  const start = f.start;
  const end = start + f.latency;
  const me = f.cpu;
  const local = localRow === null ? null : localRow.dur;
  const firstSend = targets.length ? Math.min(...targets.map((t) => t.send)) : null;
  // The target whose ack came last; unknown if any target's ack is.
  const acksKnown = targets.length > 0 && targets.every((t) => t.ack !== null);
  let last: number | null = null;
  if (acksKnown)
    for (let i = 0; i < targets.length; i++)
      if (last === null || (targets[i].ack as number) > (targets[last].ack as number)) last = i;
  const localEnd = localRow === null ? null : localRow.time + localRow.dur;
  const byLocal =
    localRow !== null &&
    (targets.length === 0 ||
      (last !== null && (localEnd as number) >= (targets[last].ack as number)));
  const path: FlushPart[] = [];
  const part = (name: PartName, ns: number | null, at = me) =>
    path.push({ name, ns: ns === null ? null : Math.max(0, ns), cpu: at });
  const firstStep = firstSend ?? (localRow === null ? end : localRow.time);
  part('entry', firstStep - start);
  if (byLocal) {
    const ls = (localRow as { time: number }).time;
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
    row: f.row,
    cpu: me,
    start,
    latency: f.latency,
    pages: f.pages,
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
