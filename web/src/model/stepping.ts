// Stepping through a run event by event (◀ prev / next ▶, the `.` and `,` keys, playback with
// reduced motion) and the window following the step. One definition for a run the page holds
// and a run kept in its worker: both read a sorted time column, the page's as an array and the
// worker's a probe at a time from its store (rowSource.ts), so the two visit the same rows.
import { searchTime, type RowSource } from './rowSource';
import { lowerBound, upperBound } from './intervals';

/** A run's rows as stepping sees them: their count and their start times (sorted). */
export interface TimeRows {
  readonly n: number;
  timeAt(i: number): number;
  /** First row with time > t (or n). */
  after(t: number): number;
  /** First row with time ≥ t (or n). */
  from(t: number): number;
}

/** The rows of a time column held in memory (a trace on the page). */
export function timeRows(time: Float64Array): TimeRows {
  return {
    n: time.length,
    timeAt: (i) => time[i],
    after: (t) => upperBound(time, t),
    from: (t) => lowerBound(time, t),
  };
}

/** The rows of a store read a probe at a time (a run kept in its worker). */
export function sourceTimeRows(src: RowSource): TimeRows {
  return {
    n: src.rows,
    timeAt: (i) => src.read('time', i, i + 1)[0],
    after: (t) => searchTime(src, t, true),
    from: (t) => searchTime(src, t),
  };
}

/**
 * The row one step from `current` (the selected row, or null) in direction `dir`, the cursor
 * being at `t`: the next row strictly after t, or the previous strictly before it; rows at
 * the selected row's own time step by index. -1 when there is none.
 */
export function stepRow(rows: TimeRows, current: number | null, t: number, dir: 1 | -1): number {
  const { n } = rows;
  const here = current !== null && current >= 0 && current < n ? current : null;
  if (here !== null) {
    const next = here + dir;
    if (next >= 0 && next < n && rows.timeAt(next) === rows.timeAt(here)) return next;
  }
  if (dir > 0) {
    const i = rows.after(t);
    return i < n ? i : -1;
  }
  const i = rows.from(t) - 1;
  return i >= 0 ? i : -1;
}

/**
 * `count` steps from `current` (the cursor at `t` before the first), each from the row the
 * last reached with the cursor on its time, as a reader pressing next `count` times: the row
 * reached and its time, or row -1 when not even one step was possible. Stops at either end.
 */
export function walkRows(
  rows: TimeRows,
  current: number | null,
  t: number,
  dir: 1 | -1,
  count: number,
): { row: number; time: number } {
  let row = -1;
  let time = t;
  let from = current;
  for (let k = 0; k < count; k++) {
    const next = stepRow(rows, from, time, dir);
    if (next < 0) break;
    row = from = next;
    time = rows.timeAt(next);
  }
  return { row, time: row >= 0 ? time : NaN };
}

/**
 * The window to show once a row starting at `t` and lasting `dur` is selected or stepped to:
 * `win` while the row is in it (a long span reaching into the window counts), else a window
 * of the same width centred on its start, kept inside `extent` when it fits.
 */
export function followWindow(
  win: readonly [number, number],
  t: number,
  dur: number,
  extent: readonly [number, number],
): [number, number] {
  const [w0, w1] = win;
  if (!Number.isFinite(t) || (t <= w1 && t + Math.max(0, dur || 0) >= w0)) return [w0, w1];
  const width = w1 - w0;
  let a = t - width / 2;
  if (width <= extent[1] - extent[0]) a = Math.max(extent[0], Math.min(extent[1] - width, a));
  return [a, a + width];
}

/**
 * A window that frames one span: the span with a sixth of its length on each side (the
 * IPIs and acks around a flush's edges stay readable), inside `extent`. An instant, or a span
 * too short to draw, keeps the width `win` had, centred on it.
 */
export function frameWindow(
  win: readonly [number, number],
  t: number,
  dur: number,
  extent: readonly [number, number],
): [number, number] {
  if (!Number.isFinite(t)) return [win[0], win[1]];
  const d = Math.max(0, dur || 0);
  const width = d > 0 ? d * (4 / 3) : win[1] - win[0];
  let a = d > 0 ? t - d / 6 : t - width / 2;
  let b = a + width;
  if (a < extent[0]) [a, b] = [extent[0], Math.min(extent[1], extent[0] + width)];
  if (b > extent[1]) [a, b] = [Math.max(extent[0], extent[1] - width), extent[1]];
  return [a, b];
}
