// What a guided step asks of the explorer: which rows to emphasise. Pure.
import type { Step } from '../sim/scenario';
import { EventKind, type Trace } from '../trace/trace';

/** Highlight outlines beyond this many are not drawn by the timeline. */
const MAX_ROWS = 400;

/**
 * Rows of the step's highlighted kinds inside its window (and on its CPUs), taken round-robin
 * across kinds so every kind is represented even when one of them is very frequent.
 */
export function highlightRows(trace: Trace, step: Step, window: [number, number]): number[] {
  const kinds = step.highlight
    .map((n) => EventKind[n as keyof typeof EventKind])
    .filter((k) => k !== undefined);
  if (kinds.length === 0) return [];
  const perKind: number[][] = kinds.map(() => []);
  for (let i = 0; i < trace.n; i++) {
    const start = trace.time[i];
    if (start > window[1]) break;
    if (start + trace.dur[i] < window[0]) continue;
    if (step.cpus.length && !step.cpus.includes(trace.cpu[i])) continue;
    const k = kinds.indexOf(trace.kind[i]);
    if (k >= 0) perKind[k].push(i);
  }
  const rows: number[] = [];
  for (let j = 0; rows.length < MAX_ROWS; j++) {
    let any = false;
    for (const list of perKind) {
      if (j < list.length) {
        rows.push(list[j]);
        any = true;
      }
    }
    if (!any) break;
  }
  return rows.slice(0, MAX_ROWS);
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
 * highlighted rows and intervals). Padding because a mark drawn at a window's very edge (a
 * violation's ✕, an instant's outline) would otherwise be half outside the plot. Highlighted
 * spans do not widen it: a task's run can cover the whole trace.
 */
export function stepFrame(
  trace: Trace,
  step: Step,
  rows: readonly number[],
  extent: [number, number],
  intervals: readonly { cpu: number; start: number; end: number }[] = [],
): StepFrame {
  let [a, b] = step.window ?? extent;
  const cpus = new Set<number>(step.cpus);
  const named = cpus.size > 0;
  if (!named) for (const r of rows) cpus.add(trace.cpu[r]);
  for (const c of step.expand ?? []) cpus.add(c);
  for (const iv of intervals) {
    if (named && !cpus.has(iv.cpu)) continue;
    cpus.add(iv.cpu);
    a = Math.min(a, iv.start);
    b = Math.max(b, iv.end);
  }
  const pad = Math.max(1, (b - a) * WINDOW_PAD);
  const all = cpus.size >= trace.cpus;
  return {
    window: [Math.max(extent[0] - pad, a - pad), b + pad],
    cpus: all ? [] : [...cpus].sort((x, y) => x - y),
  };
}
