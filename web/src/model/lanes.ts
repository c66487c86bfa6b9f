// Per-CPU lanes: which spans sit on which CPU and in which sub-track. Pure: trace in, columns
// of indices out (marks read the trace's own columns through these indices).
import { EventKind, type Trace } from '../sim/trace';

/** Sub-track of a lane for each span kind, top to bottom. Unlisted kinds are not drawn. */
export const SPAN_TRACK: ReadonlyMap<number, number> = new Map([
  [EventKind.TaskRun, 0],
  [EventKind.PreemptOff, 1],
  [EventKind.IrqsOff, 2],
  [EventKind.FlushRange, 3],
  [EventKind.IpiHandler, 3],
  [EventKind.IpiWait, 4],
  [EventKind.FlushTlbFunc, 4],
]);

export const TRACKS = 5;

export interface LanesModel {
  cpus: number;
  /** Rows of the trace drawn as spans. */
  spans: Int32Array;
  /** Sub-track of each entry in `spans`. */
  track: Uint8Array;
  /** Time extent of the whole trace, [start, end] in ns. */
  extent: [number, number];
}

export function toLanes(trace: Trace): LanesModel {
  const rows: number[] = [];
  const tracks: number[] = [];
  let end = 0;
  for (let i = 0; i < trace.n; i++) {
    end = Math.max(end, trace.time[i] + trace.dur[i]);
    const t = SPAN_TRACK.get(trace.kind[i]);
    if (t === undefined) continue;
    rows.push(i);
    tracks.push(t);
  }
  return {
    cpus: trace.cpus,
    spans: Int32Array.from(rows),
    track: Uint8Array.from(tracks),
    extent: [0, end],
  };
}
