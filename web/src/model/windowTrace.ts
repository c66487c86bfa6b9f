// A window of a run that stays in its worker, as a small Trace of its own: the rows touching
// the window (widened by a margin each side) and the rows they name as parents. The page's
// pure view models (lens.ts, ipis.ts, events.ts) then run on it unchanged, in the worker, and
// only their small answers cross to the page. Pure: a RowSource is just a way to read rows.
//
// What a window cannot see: a lens interval or an arrow that reaches further outside the
// window than the margin and outside every flush touching it (its far end's rows are not
// read): the margin is one window's width each side, and a flush's IPIs, handlers and acks lie
// within its span. In practice that leaves a wakeup latency longer than the window. Zoomed
// out, the window is too wide to read and the answer is null (the page says to zoom in).
import { EventKind, toTrace, type Columns, type Trace } from '../trace/trace';
import type { LensInterval } from './lens';
import { toArrows } from './ipis';
import {
  readRows,
  searchTime,
  sourceRowsInWindow,
  type RowIndex,
  type RowSource,
} from './rowSource';

/** Spans whose whole extent the window trace reads when they touch it. */
const WIDEN: ReadonlySet<number> = new Set([EventKind.FlushRange, EventKind.IpiWait]);

export interface WindowTrace {
  /** The window's rows (and their parents) as a trace; `parent` links point into it. */
  readonly trace: Trace;
  /** The run's row number of each of `trace`'s rows, ascending. */
  readonly rows: Int32Array;
}

/**
 * Rows touching [t0 − margin, t1 + margin] and their parents, as a Trace whose parents are
 * renumbered into it (a parent outside it becomes −1). Null when more than `maxScan` rows
 * would have to be read.
 */
export function toWindowTrace(
  ix: RowIndex,
  src: RowSource,
  t0: number,
  t1: number,
  margin: number,
  maxScan: number,
): WindowTrace | null {
  // A flush's IPIs and acks lie within its FlushRange span (the initiator waits for every
  // ack): the range read is widened to every flush touching it, so an arrow or lens interval
  // that crosses the window with both ends outside it is still found.
  let lo = t0 - margin;
  let hi = t1 + margin;
  let found: { rows: Int32Array; total: number } | null = null;
  for (let pass = 0; pass < 4; pass++) {
    found = sourceRowsInWindow(ix, src, lo, hi, Infinity, maxScan);
    if (!found) return null;
    const kind = readRows(src, found.rows, ['kind', 'time', 'dur']);
    let [a, b] = [lo, hi];
    for (let j = 0; j < found.rows.length; j++) {
      if (!WIDEN.has(kind.kind[j])) continue;
      a = Math.min(a, kind.time[j]);
      b = Math.max(b, kind.time[j] + kind.dur[j]);
    }
    if (a === lo && b === hi) break;
    [lo, hi] = [a, b];
  }
  if (!found) return null;
  let rows = found.rows;
  let cols = readRows(src, rows);
  const have = new Set(rows);
  const extra: number[] = [];
  for (const p of cols.parent) {
    if (p >= 0 && p < src.rows && !have.has(p)) {
      have.add(p);
      extra.push(p);
    }
  }
  if (extra.length) {
    rows = Int32Array.from([...rows, ...extra]).sort();
    cols = readRows(src, rows);
  }
  return localTrace(rows, cols, ix.cpus, []);
}

/**
 * Rows of a run (ascending) and their columns as a trace of their own: parents renumbered
 * into it, a parent not among the rows becoming −1. Takes `columns` over (parents rewritten).
 */
export function localTrace(
  rows: Int32Array,
  columns: Columns,
  cpus: number,
  strings: readonly string[],
): WindowTrace {
  const local = new Map<number, number>();
  rows.forEach((r, j) => local.set(r, j));
  for (let j = 0; j < rows.length; j++) {
    const p = columns.parent[j];
    columns.parent[j] = p >= 0 ? (local.get(p) ?? -1) : p;
  }
  return { trace: toTrace({ ...columns, cpus, strings: [...strings] }), rows };
}

/** A lens interval touches [t0, t1]. */
export function lensTouches(iv: LensInterval, t0: number, t1: number): boolean {
  return iv.start <= t1 && iv.end >= t0;
}

/** The intervals touching [t0, t1], with their rows renumbered to the run's. */
export function lensInWindow(
  w: WindowTrace,
  intervals: readonly LensInterval[],
  t0: number,
  t1: number,
): LensInterval[] {
  return intervals
    .filter((iv) => lensTouches(iv, t0, t1))
    .map((iv) => ({ ...iv, row: w.rows[iv.row] }));
}

/** An IPI or ack arrow as the page draws it: its rows (the run's), ends in time and CPU. */
export interface WindowArrow {
  kind: number;
  row: number;
  fromRow: number;
  toRow: number;
  fromTime: number;
  toTime: number;
  fromCpu: number;
  toCpu: number;
}

/**
 * The arrows of ipis.ts toArrows whose time span touches [t0, t1], with the run's row numbers.
 * (A send whose handler lies beyond the margin looks unanswered here: the caveat above.)
 */
export function arrowsInWindow(w: WindowTrace, t0: number, t1: number): WindowArrow[] {
  const { trace, rows } = w;
  const a = toArrows(trace);
  const out: WindowArrow[] = [];
  for (let j = 0; j < a.n; j++) {
    const from = trace.time[a.fromRow[j]];
    const to = trace.time[a.toRow[j]];
    if (Math.min(from, to) > t1 || Math.max(from, to) < t0) continue;
    out.push({
      kind: a.kind[j],
      row: rows[a.row[j]],
      fromRow: rows[a.fromRow[j]],
      toRow: rows[a.toRow[j]],
      fromTime: from,
      toTime: to,
      fromCpu: a.fromCpu[j],
      toCpu: a.toCpu[j],
    });
  }
  return out;
}

/**
 * The event log's rows of [t0, t1] (events.ts rowsInWindow: rows whose start lies in the
 * window, in trace order), from the `offset`-th on, at most `limit`: the first row's number
 * and how many start in the window.
 */
export function logRange(
  src: RowSource,
  t0: number,
  t1: number,
  offset: number,
  limit: number,
): { first: number; count: number; total: number } {
  const a = searchTime(src, t0);
  const b = searchTime(src, t1, true);
  const total = Math.max(0, b - a);
  const from = Math.min(total, Math.max(0, Math.floor(offset)));
  const count = Math.max(0, Math.min(total - from, Math.floor(limit)));
  return { first: a + from, count, total };
}
