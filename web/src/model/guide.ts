// What a guided step asks of the explorer: which rows to emphasise. Pure.
import type { Step } from '../sim/scenario';
import { EventKind, type Trace } from '../trace/trace';
import { stepNamedCpus } from './namedCpus';

/** Highlight outlines beyond this many are not drawn by the timeline. */
export const MAX_HIGHLIGHT = 400;

/** The kind numbers a step's `highlight` names (unknown names are skipped). */
export function highlightKinds(step: Pick<Step, 'highlight'>): number[] {
  return step.highlight
    .map((n) => EventKind[n as keyof typeof EventKind])
    .filter((k) => k !== undefined);
}

type PickColumns = Pick<Trace, 'time' | 'dur' | 'cpu' | 'kind'>;

/**
 * Rows of some kinds touching a window (and on some CPUs), taken round-robin across kinds so
 * every kind is represented even when one of them is very frequent. Fed rows in trace order,
 * a slice at a time (a run kept in its worker is read so), or a whole trace at once: the same
 * rows either way. Each kind keeps at most `limit` candidates, so memory stays small.
 */
export class RowPicker {
  private readonly perKind: number[][];
  constructor(
    private readonly kinds: readonly number[],
    private readonly cpus: readonly number[],
    private readonly window: readonly [number, number],
    private readonly limit = MAX_HIGHLIGHT,
  ) {
    this.perKind = kinds.map(() => []);
  }

  /** Rows first … first + n − 1 of `c`; false once a row starts after the window (stop). */
  feed(c: PickColumns, first: number, n: number): boolean {
    const [w0, w1] = this.window;
    if (this.kinds.length === 0) return false;
    for (let j = 0; j < n; j++) {
      const start = c.time[j];
      if (start > w1) return false;
      if (start + c.dur[j] < w0) continue;
      if (this.cpus.length && !this.cpus.includes(c.cpu[j])) continue;
      const k = this.kinds.indexOf(c.kind[j]);
      if (k >= 0 && this.perKind[k].length < this.limit) this.perKind[k].push(first + j);
    }
    return true;
  }

  rows(): number[] {
    const rows: number[] = [];
    for (let j = 0; rows.length < this.limit; j++) {
      let any = false;
      for (const list of this.perKind) {
        if (j < list.length) {
          rows.push(list[j]);
          any = true;
        }
      }
      if (!any) break;
    }
    return rows.slice(0, this.limit);
  }
}

/**
 * Rows of the step's highlighted kinds inside its window (and on its CPUs), taken round-robin
 * across kinds so every kind is represented even when one of them is very frequent.
 */
export function highlightRows(trace: Trace, step: Step, window: [number, number]): number[] {
  const pick = new RowPicker(highlightKinds(step), step.cpus, window);
  pick.feed(trace, 0, trace.n);
  return pick.rows();
}

/** What a step shows: the window around its subject and the CPUs it is about. */
export interface StepFrame {
  window: [number, number];
  /** The subject's CPUs, ascending; empty when the step is about the whole machine. */
  cpus: number[];
}

/** Share of the window's width added on each side, so nothing at an edge is cut in half. */
export const WINDOW_PAD = 0.04;

/**
 * `extent` widened by `WINDOW_PAD` on each side: the default window of a counterexample, whose
 * violation is often the run's last row (its numbered badge would sit on the edge, half cut).
 */
export function paddedWindow(extent: readonly [number, number]): [number, number] {
  const pad = Math.max(1, (extent[1] - extent[0]) * WINDOW_PAD);
  return [extent[0] - pad, extent[1] + pad];
}

/**
 * The frame of a step: its window (or the run's extent) widened to hold every interval it
 * points at whole, then padded on both sides; its CPUs (the step's `cpus`, else those of the
 * highlighted rows and intervals, and always those its words name). Padding because a mark drawn at a window's very edge (a
 * violation's ✕, an instant's outline) would otherwise be half outside the plot. Highlighted
 * spans do not widen it: a task's run can cover the whole trace.
 */
export function stepFrame(
  trace: Pick<Trace, 'cpus' | 'cpu'>,
  step: Step,
  rows: readonly number[],
  extent: [number, number],
  intervals: readonly { cpu: number; start: number; end: number }[] = [],
  /** The CPU of a highlighted row (a run kept in its worker: from the rows it sent). */
  cpuOf: (row: number) => number = (r) => trace.cpu[r],
): StepFrame {
  let [a, b] = step.window ?? extent;
  const cpus = new Set<number>(step.cpus);
  const named = cpus.size > 0;
  if (!named) for (const r of rows) cpus.add(cpuOf(r));
  for (const c of step.expand ?? []) cpus.add(c);
  for (const iv of intervals) {
    if (named && !cpus.has(iv.cpu)) continue;
    cpus.add(iv.cpu);
    a = Math.min(a, iv.start);
    b = Math.max(b, iv.end);
  }
  // A CPU the words name keeps its lane: "none goes to CPU 1" over a folded CPU 1 cannot be
  // checked. Added after the intervals so that naming a CPU never moves the window.
  for (const c of stepNamedCpus(step)) if (c < trace.cpus) cpus.add(c);
  const pad = Math.max(1, (b - a) * WINDOW_PAD);
  const all = cpus.size >= trace.cpus;
  return {
    window: [Math.max(extent[0] - pad, a - pad), b + pad],
    cpus: all ? [] : [...cpus].sort((x, y) => x - y),
  };
}
