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

/**
 * What a bracket under a lane shows: a wait the lens finds, or one part of a flush the reader
 * chose in the analysis (model/flushBrackets.ts), which carries its own label.
 */
export type BracketKind = LensKind | 'flush_part';

export interface LensInterval {
  kind: BracketKind;
  /** A flush part's words ("delivery → CPU 3"); a lens kind is named by LENS_NAMES. */
  label?: string;
  cpu: number;
  start: number;
  end: number;
  /** Row the interval is measured on (the wait, the handler, the task's run). */
  row: number;
  /** Its stacking level within the CPU's lens rows (0 = first). */
  level: number;
}

const PREEMPT_OFF = EventKind.PreemptOff;
const IRQS_OFF = EventKind.IrqsOff;
const IPI_WAIT = EventKind.IpiWait;
const IPI_SENT = EventKind.IpiSent;
const IPI_HANDLER = EventKind.IpiHandler;
const SWITCH_MM = EventKind.SwitchMm;
const TASK_WOKEN = EventKind.TaskWoken;
const TASK_RUN = EventKind.TaskRun;

/** The columns the lens reads. */
export type LensColumns = Pick<Trace, 'time' | 'dur' | 'cpu' | 'kind' | 'arg' | 'parent'>;

/**
 * One lens interval as a scan finds it; `key` is the row its search starts from (the wait, the
 * handler, the wake-up), which orders each kind's intervals as a pass over the rows finds them.
 */
export type LensEmit = (
  kind: LensKind,
  cpu: number,
  start: number,
  end: number,
  row: number,
  key: number,
) => void;

/**
 * The lens's intervals found in one pass over a trace's rows in trace order (simulated-time
 * order, a row's parent before it), fed a slice at a time (a run kept in its worker is read so)
 * or a whole trace at once: the same intervals either way. What it keeps between rows is small:
 * each CPU's last preempt-off and irqs-off span, the IPI sends no handler has answered yet, the
 * woken tasks not yet run, and the rows at the current time (a span starting at the same time
 * as a wait may come after it in the trace, so rows are resolved once the time moves on).
 */
export class LensScan {
  /** 1 for the kinds the asked intervals are made of (a kind is a byte). */
  private readonly read = new Uint8Array(256);
  /** Each CPU's last PreemptOff / IrqsOff span (start, end), as of the current time. */
  private readonly preemptOff = new Map<number, [number, number]>();
  private readonly irqsOff = new Map<number, [number, number]>();
  /** Rows at the current time `now` (`pending` of them), resolved when it moves on. */
  private now = -Infinity;
  private pending = 0;
  private readonly waitsNow: { row: number; cpu: number; start: number; end: number }[] = [];
  private readonly sendsNow: { row: number; time: number; target: number }[] = [];
  private readonly handlersNow: { row: number; cpu: number; time: number; sent: number }[] = [];
  /**
   * IPI sends made while their target had interrupts off, not yet handled: their time and
   * where that irqs-off span ends. A send has at most one handler (the APIC merges an IPI into
   * one already pending), so its entry goes once handled.
   */
  private readonly sends = new Map<number, { time: number; target: number; coverEnd: number }>();
  /** Woken tasks waiting for their run: task → the TaskWoken rows and times. */
  private readonly woken = new Map<number, { row: number; time: number }[]>();
  /** A task's run whose following row may still add a SwitchMm (it is read next). */
  private run: {
    row: number;
    cpu: number;
    time: number;
    end: number;
    woken: { row: number; time: number }[];
  } | null = null;
  /** The previous row's kind; the last SwitchMm's CPU, time and duration. */
  private prevKind = -1;
  private prevCpu = -1;
  private prevTime = NaN;
  private prevDur = 0;

  constructor(
    kinds: readonly string[],
    private readonly contextSwitchNs: number,
    private readonly emit: LensEmit,
  ) {
    const want = new Set(kinds);
    const on = (kind: LensKind, of: number[]) => {
      if (want.has(kind)) for (const k of of) this.read[k] = 1;
    };
    on('nonpreempt_wait', [PREEMPT_OFF, IPI_WAIT]);
    on('irqs_off_delay', [IRQS_OFF, IPI_SENT, IPI_HANDLER]);
    on('wakeup_latency', [TASK_WOKEN, TASK_RUN, SWITCH_MM]);
  }

  /** Rows first … first + n − 1, their columns `c` (row first + j at index j). */
  feed(c: LensColumns, first: number, n: number): void {
    const read = this.read;
    for (let j = 0; j < n; j++) {
      const kind = c.kind[j];
      // Rows of other kinds matter only as the time moving on, or as the row after a run.
      if (this.pending && c.time[j] > this.now) this.settle();
      if (this.run) this.endRun(kind, c.cpu[j], c.time[j], c.dur[j]);
      const prev = this.prevKind;
      this.prevKind = kind;
      if (!read[kind]) continue;
      const time = c.time[j];
      const cpu = c.cpu[j];
      const dur = c.dur[j];
      const row = first + j;
      switch (kind) {
        case PREEMPT_OFF:
          this.preemptOff.set(cpu, [time, time + dur]);
          break;
        case IRQS_OFF:
          this.irqsOff.set(cpu, [time, time + dur]);
          break;
        case IPI_WAIT:
          if (dur > 0) this.hold(time).waitsNow.push({ row, cpu, start: time, end: time + dur });
          break;
        case IPI_SENT:
          this.hold(time).sendsNow.push({ row, time, target: c.arg[j] });
          break;
        case IPI_HANDLER:
          if (c.parent[j] >= 0)
            this.hold(time).handlersNow.push({ row, cpu, time, sent: c.parent[j] });
          break;
        case SWITCH_MM:
          this.prevCpu = cpu;
          this.prevTime = time;
          this.prevDur = dur;
          break;
        case TASK_WOKEN: {
          const list = this.woken.get(c.arg[j]) ?? [];
          list.push({ row, time });
          this.woken.set(c.arg[j], list);
          break;
        }
        case TASK_RUN: {
          const woken = this.woken.get(c.arg[j]);
          if (!woken) break;
          this.woken.delete(c.arg[j]);
          // The switch into the task: the context switch, and the mm switch that starts
          // with it (the row just before the run, or just after: read with the next row).
          let end = time + this.contextSwitchNs;
          if (prev === SWITCH_MM && this.prevCpu === cpu && this.prevTime === time)
            end += this.prevDur;
          this.run = { row, cpu, time, end, woken };
          break;
        }
      }
    }
  }

  /** A row waits for the other rows at its time: the current time is now its. */
  private hold(time: number): this {
    this.pending++;
    this.now = time;
    return this;
  }

  /** No more rows: what waits for a later row is resolved without it. */
  finish(): void {
    if (this.run) this.endRun(-1, -1, NaN, 0);
    this.settle();
  }

  /** The row after a task's run: a SwitchMm at its time on its CPU belongs to the switch. */
  private endRun(kind: number, cpu: number, time: number, dur: number): void {
    const r = this.run;
    if (!r) return;
    this.run = null;
    const end = r.end + (kind === EventKind.SwitchMm && cpu === r.cpu && time === r.time ? dur : 0);
    for (const w of r.woken) this.emit('wakeup_latency', r.cpu, w.time, end, r.row, w.row);
  }

  /** Every row at the current time has been read: its waits, sends and handlers resolve. */
  private settle(): void {
    this.pending = 0;
    for (const w of this.waitsNow) {
      const off = this.preemptOff.get(w.cpu);
      if (!off || !(off[0] <= w.start && w.start < off[1])) continue;
      this.emit('nonpreempt_wait', w.cpu, w.start, Math.min(w.end, off[1]), w.row, w.row);
    }
    for (const s of this.sendsNow) {
      // Pending because of interrupts off: an irqs-off span on the target covers the send.
      const off = this.irqsOff.get(s.target);
      // A send no such span covers can give no interval: only the others are kept.
      if (off && off[0] <= s.time && s.time < off[1])
        this.sends.set(s.row, { time: s.time, target: s.target, coverEnd: off[1] });
    }
    for (const h of this.handlersNow) {
      const s = this.sends.get(h.sent);
      if (!s) continue;
      this.sends.delete(h.sent);
      // ... and ends no later than the handler starts (the simulator sends an IPI to the CPU
      // its `arg` names, whose handler it is).
      if (s.target !== h.cpu || s.coverEnd > h.time + 1) continue;
      this.emit('irqs_off_delay', h.cpu, s.time, h.time, h.row, h.row);
    }
    this.waitsNow.length = 0;
    this.sendsNow.length = 0;
    this.handlersNow.length = 0;
  }
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
  const found: Record<LensKind, { iv: Omit<LensInterval, 'level'>; key: number }[]> = {
    nonpreempt_wait: [],
    irqs_off_delay: [],
    wakeup_latency: [],
  };
  const scan = new LensScan(kinds, contextSwitchNs, (kind, cpu, start, end, row, key) =>
    found[kind].push({ iv: { kind, cpu, start, end, row }, key }),
  );
  scan.feed(trace, 0, trace.n);
  scan.finish();
  const out: Omit<LensInterval, 'level'>[] = [];
  for (const kind of LENS_KINDS)
    for (const f of found[kind].sort((a, b) => a.key - b.key)) out.push(f.iv);
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
