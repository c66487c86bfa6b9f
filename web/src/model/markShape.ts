// Each span kind's shape: which band of its sub-track the bar fills. Kinds that share a
// sub-track (a flush and an IPI handler, a broadcast and a flush, the wait and flush_tlb_func)
// differ in shape as well as colour, so no kind is told from another by colour alone, and
// two kinds overlapping in time on one CPU both stay visible. Shared by the timeline's SVG
// marks, the legend and the exported legend.
import { EventKind } from '../trace/trace';
import { SPAN_TRACK } from './lanes';

export type Band = 'full' | 'upper' | 'lower' | 'middle' | 'bottom';

/** Top and bottom of each band as fractions of the bar's height. */
export const BANDS: Record<Band, readonly [number, number]> = {
  full: [0, 1],
  upper: [0, 0.55],
  lower: [0.45, 1],
  middle: [0.25, 0.75],
  bottom: [0.7, 1],
};

const SHAPE: Partial<Record<EventKind, Band>> = {
  [EventKind.TaskRun]: 'full',
  [EventKind.Lazy]: 'middle',
  [EventKind.PreemptOff]: 'full',
  [EventKind.IrqsOff]: 'full',
  [EventKind.VictimStall]: 'upper',
  [EventKind.PageWalk]: 'lower',
  [EventKind.FlushRange]: 'full',
  [EventKind.IpiHandler]: 'lower',
  [EventKind.TlbiBroadcast]: 'upper',
  [EventKind.IpiWait]: 'full',
  [EventKind.FlushTlbFunc]: 'lower',
  [EventKind.SwitchMm]: 'middle',
  [EventKind.InterconnectQueued]: 'upper',
  [EventKind.LocalTlbi]: 'bottom',
};

export function bandOf(kind: number): Band {
  return SHAPE[kind as EventKind] ?? 'full';
}

/** Where a bar of `kind` sits in a sub-track whose bar area starts at y and is h high. */
export function bandBox(kind: number, y: number, h: number): { y: number; h: number } {
  const [t, b] = BANDS[bandOf(kind)];
  return { y: y + t * h, h: (b - t) * h };
}

/** Each drawn kind's (sub-track, band): its shape and place in a lane, unique per kind. */
export function shapeKey(kind: number): string {
  return `${SPAN_TRACK.get(kind)}:${bandOf(kind)}`;
}
