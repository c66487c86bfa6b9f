// IPI flows: an arrow from each IPI send to the handler it caused, and from each handler's
// csd unlock (the SYNC ack) back to the waiting sender. Built from the trace's causal
// `parent` links, so every arrow is something the simulator recorded. A send no handler
// answers (a recording without handler events, or a run stopped before the handler ran) is an
// unpaired arrow: it reaches the target's lane at the send's time and ends in an open mark, so
// it says "sent, answer not recorded" rather than pointing at a handler that may not exist.
// Columns, not objects: a million-event trace has hundreds of thousands of arrows.
import { EventKind, type Trace } from '../trace/trace';
import { toIntervalIndex, type IntervalIndex } from './intervals';
import type { PosMap } from './spacing';

export const ARROW_IPI = 0;
export const ARROW_ACK = 1;
export const ARROW_UNPAIRED = 2;

export interface Arrows {
  readonly n: number;
  /** ARROW_IPI, ARROW_ACK or ARROW_UNPAIRED. */
  readonly kind: Uint8Array;
  /** Trace row the arrow represents (the handler for an IPI, the unlock for an ack, the send
   *  for an unpaired send). */
  readonly row: Int32Array;
  /** Rows at the tail and head (an ack and an unpaired send start and end at their row). */
  readonly fromRow: Int32Array;
  readonly toRow: Int32Array;
  readonly fromCpu: Uint16Array;
  readonly toCpu: Uint16Array;
}

export function toArrows(trace: Trace): Arrows {
  const { kind: k, parent, cpu, arg } = trace;
  // Enum members in locals: this loop runs over every row of million-row traces.
  const HANDLER = EventKind.IpiHandler;
  const SENT = EventKind.IpiSent;
  const UNLOCKED = EventKind.CsdUnlocked;
  const n0 = trace.n;
  const isIpi = (i: number) => k[i] === HANDLER && parent[i] >= 0 && k[parent[i]] === SENT;
  const answered = answeredSends(trace);
  const isUnpaired = (i: number) => k[i] === SENT && answered[i] === 0;
  let n = 0;
  for (let i = 0; i < n0; i++) if (k[i] === UNLOCKED || isIpi(i) || isUnpaired(i)) n++;
  const a = {
    n,
    kind: new Uint8Array(n),
    row: new Int32Array(n),
    fromRow: new Int32Array(n),
    toRow: new Int32Array(n),
    fromCpu: new Uint16Array(n),
    toCpu: new Uint16Array(n),
  };
  let j = 0;
  const put = (kind: number, row: number, from: number, to: number, toCpu: number) => {
    a.kind[j] = kind;
    a.row[j] = row;
    a.fromRow[j] = from;
    a.toRow[j] = to;
    a.fromCpu[j] = cpu[from];
    a.toCpu[j++] = toCpu;
  };
  for (let i = 0; i < n0; i++) {
    // An ack's arg is the sender whose csd was unlocked (it observes the store on its next
    // poll); an unpaired send's arg is the target it was for.
    if (k[i] === UNLOCKED) put(ARROW_ACK, i, i, i, arg[i]);
    else if (isIpi(i)) put(ARROW_IPI, i, parent[i], i, cpu[i]);
    else if (isUnpaired(i)) put(ARROW_UNPAIRED, i, i, i, arg[i]);
  }
  return a;
}

/** 1 for each IpiSent row some IpiHandler names as its parent. */
function answeredSends({ n, kind, parent }: Pick<Trace, 'n' | 'kind' | 'parent'>): Uint8Array {
  const out = new Uint8Array(n);
  const HANDLER = EventKind.IpiHandler;
  for (let i = 0; i < n; i++) if (kind[i] === HANDLER && parent[i] >= 0) out[parent[i]] = 1;
  return out;
}

/** How many IPI sends no handler in the trace answers. */
export function unpairedSends(trace: Pick<Trace, 'n' | 'kind' | 'parent'>): number {
  const answered = answeredSends(trace);
  let count = 0;
  for (let i = 0; i < trace.n; i++)
    if (trace.kind[i] === EventKind.IpiSent && !answered[i]) count++;
  return count;
}

/** Arrows indexed by the positions they span (ids are arrow indices, not trace rows). */
export function toArrowIndex(arrows: Arrows, pos: PosMap): IntervalIndex {
  // Positions grow with the row number in both spacings, so a counting sort on the earlier
  // row orders the arrows by start in O(n) (a comparison sort took ~0.4 s at 1M rows).
  const { n, fromRow, toRow } = arrows;
  let rows = 0;
  for (let j = 0; j < n; j++) rows = Math.max(rows, fromRow[j] + 1, toRow[j] + 1);
  const bucket = new Int32Array(rows + 1);
  for (let j = 0; j < n; j++) bucket[Math.min(fromRow[j], toRow[j]) + 1]++;
  for (let r = 0; r < rows; r++) bucket[r + 1] += bucket[r];
  const ids = new Int32Array(n);
  for (let j = 0; j < n; j++) ids[bucket[Math.min(fromRow[j], toRow[j])]++] = j;
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const time = pos.spacing === 'time' ? pos.time : null;
  for (let q = 0; q < n; q++) {
    const j = ids[q];
    const a = time ? time[fromRow[j]] : fromRow[j];
    const b = time ? time[toRow[j]] : toRow[j];
    start[q] = a < b ? a : b;
    end[q] = a < b ? b : a;
  }
  return toIntervalIndex(ids, start, end);
}

/** The CPU that sent the first IPI, as recorded in the trace (or -1 if none). */
export function initiatorOf(trace: Trace): number {
  for (let i = 0; i < trace.n; i++) if (trace.kind[i] === EventKind.IpiSent) return trace.cpu[i];
  return -1;
}
