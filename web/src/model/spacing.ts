// The x coordinate of the timeline, before it becomes pixels: a "position". In true-time
// spacing a position is simulated ns. In event spacing (the ordinal, Lamport-style view) row
// i sits at position i and a span reaches the first row at or after its end, so bursts of
// events get room and idle stretches shrink to nothing. Windows and the cursor stay in ns
// everywhere (one app state for both views); `toPos` / `toNs` convert, and in event spacing
// they are a monotone bijection: rows that share a timestamp are spread evenly over the gap
// to the next timestamp, so a window can zoom into a burst of simultaneous events.
import type { Trace } from '../trace/trace';
import { lowerBound, upperBound } from './intervals';

export type Spacing = 'time' | 'event';

export interface PosMap {
  readonly spacing: Spacing;
  /** The trace's time column (row starts in ns, whatever the spacing). */
  readonly time: Float64Array;
  /** Extent of the whole trace in positions. */
  readonly extent: [number, number];
  /** Extent of the whole trace in ns (0 to the end of the last span). */
  readonly extentNs: [number, number];
  toPos(ns: number): number;
  toNs(pos: number): number;
  /** Position where a row starts. */
  rowStart(row: number): number;
  /** Position where a row ends (its start for instants). */
  rowEnd(row: number): number;
}

/** End of the trace in ns: the latest end of any row. */
export function traceEnd(trace: Trace): number {
  let end = 0;
  for (let i = 0; i < trace.n; i++) {
    const e = trace.time[i] + trace.dur[i];
    if (e > end) end = e;
  }
  return end;
}

export function toPosMap(trace: Trace, spacing: Spacing, endNs = traceEnd(trace)): PosMap {
  const { time, dur, n } = trace;
  const extentNs: [number, number] = [0, Math.max(endNs, 1)];
  if (spacing === 'time' || n === 0) {
    return {
      spacing,
      time,
      extent: extentNs,
      extentNs,
      toPos: (ns) => ns,
      toNs: (pos) => pos,
      rowStart: (row) => time[row],
      rowEnd: (row) => time[row] + dur[row],
    };
  }
  const t0 = time[0];
  const tEnd = Math.max(extentNs[1], time[n - 1] + 1);
  // Rows [a, b) share time t; the next timestamp (or the end of the trace) is tNext.
  const toPos = (ns: number): number => {
    if (ns < t0) return (ns - t0) / Math.max(1, t0 - extentNs[0]);
    if (ns >= tEnd) return n + (ns - tEnd);
    const b = upperBound(time, ns);
    const t = time[b - 1];
    const a = lowerBound(time, t, 0, b);
    const tNext = b < n ? time[b] : tEnd;
    return a + ((ns - t) / (tNext - t)) * (b - a);
  };
  const toNs = (pos: number): number => {
    if (pos < 0) return t0 + pos * Math.max(1, t0 - extentNs[0]);
    if (pos >= n) return tEnd + (pos - n);
    const t = time[Math.floor(pos)];
    const a = lowerBound(time, t);
    const b = upperBound(time, t, a);
    const tNext = b < n ? time[b] : tEnd;
    return t + ((pos - a) / (b - a)) * (tNext - t);
  };
  return {
    spacing,
    time,
    extent: [0, n],
    extentNs: [extentNs[0], tEnd],
    toPos,
    toNs,
    rowStart: (row) => row,
    rowEnd: (row) => (dur[row] > 0 ? lowerBound(time, time[row] + dur[row], row + 1) : row),
  };
}
