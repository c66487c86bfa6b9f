// Per-CPU lanes: which spans sit on which CPU and in which sub-track. Pure: trace in, columns
// of indices out (marks read the trace's own columns through these indices).
import { EventKind, type Trace } from '../trace/trace';

/** Sub-track of a lane for each span kind, top to bottom. Unlisted kinds are not drawn. */
export const SPAN_TRACK: ReadonlyMap<number, number> = new Map([
  [EventKind.TaskRun, 0],
  [EventKind.PreemptOff, 1],
  [EventKind.IrqsOff, 2],
  [EventKind.FlushRange, 3],
  [EventKind.IpiHandler, 3],
  [EventKind.IpiWait, 4],
  [EventKind.FlushTlbFunc, 4],
  [EventKind.Lazy, 0],
  [EventKind.SwitchMm, 4],
  // arm64: the broadcast sits where x86's flush does; queueing and local TLBIs where the wait
  // and flush_tlb_func do; victim stalls and in-flight walks on the interrupts-off track.
  [EventKind.TlbiBroadcast, 3],
  [EventKind.InterconnectQueued, 4],
  [EventKind.LocalTlbi, 4],
  [EventKind.VictimStall, 2],
  [EventKind.PageWalk, 2],
]);

export const TRACKS = 5;

/** What each sub-track shows, for labels and screen readers. */
export const TRACK_NAMES = [
  'task',
  'preempt off',
  'irqs off / stall',
  'flush / IPI',
  'wait / func',
];

export interface LanesModel {
  cpus: number;
  /** Rows of the trace drawn as spans, in trace order. */
  spans: Int32Array;
  /** Sub-track of each entry in `spans`. */
  track: Uint8Array;
  /** Time extent of the whole trace, [start, end] in ns. */
  extent: [number, number];
}

export function toLanes(trace: Trace): LanesModel {
  // A lookup table instead of a Map: this runs over every row of million-row traces.
  const trackOf = new Int8Array(256).fill(-1);
  for (const [k, t] of SPAN_TRACK) trackOf[k] = t;
  let count = 0;
  let end = 0;
  for (let i = 0; i < trace.n; i++) {
    const e = trace.time[i] + trace.dur[i];
    if (e > end) end = e;
    if (trackOf[trace.kind[i]] >= 0) count++;
  }
  const spans = new Int32Array(count);
  const track = new Uint8Array(count);
  for (let i = 0, j = 0; i < trace.n; i++) {
    const t = trackOf[trace.kind[i]];
    if (t < 0) continue;
    spans[j] = i;
    track[j++] = t;
  }
  return { cpus: trace.cpus, spans, track, extent: [0, end] };
}
