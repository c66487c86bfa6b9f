// What the view needs of a trace it does not hold: per-pixel aggregates (per CPU lane and time
// bucket, how many rows touch it and which kinds) and the rows touching a time window. The
// worker that keeps the trace answers these; the page holds only the answers. Pure, so the
// worker's answers can be checked against a scan of the whole trace.
import type { Columns } from '../trace/trace';
import { lowerBound, upperBound } from './intervals';

/** The columns a window query reads: rows sorted by `time`, spans [time, time + dur]. */
export type SpanColumns = Pick<Columns, 'time' | 'dur' | 'cpu' | 'kind'>;

/**
 * Aggregates of `cpus` lanes × `buckets` equal time buckets over [t0, t1]. Bucket b covers
 * [t0 + b·w, t0 + (b + 1)·w) (the last one closed at t1); a row touches every bucket its span
 * [time, time + dur] overlaps. Cell c = cpu · buckets + b.
 */
export interface LaneBuckets {
  readonly t0: number;
  readonly t1: number;
  readonly cpus: number;
  readonly buckets: number;
  /** Rows touching the cell. */
  readonly count: Uint32Array;
  /** Kinds present in the cell, as bits: kind k < 32 in kindsLo bit k, else kindsHi bit k − 32. */
  readonly kindsLo: Uint32Array;
  readonly kindsHi: Uint32Array;
  /** The kind each cell is drawn in (cellKind with the asker's priority), NO_KIND if empty. */
  drawn?: Uint8Array;
  /** How busy each cell is, 0-255: 255 · √(count / the busiest cell's count). */
  shade?: Uint8Array;
}

/**
 * The answer as drawn: `drawn` and `shade` per cell, count and kinds emptied. A fifth of the
 * bytes, which is what crossing to the page costs at 512 CPUs × 1,300 pixel columns.
 */
export function toDrawn(b: LaneBuckets, priority: readonly number[]): LaneBuckets {
  const drawn = drawnKinds(b, priority);
  let max = 1;
  for (let c = 0; c < b.count.length; c++) if (b.count[c] > max) max = b.count[c];
  const shade = new Uint8Array(b.count.length);
  for (let c = 0; c < b.count.length; c++)
    if (b.count[c]) shade[c] = Math.max(1, Math.round(255 * Math.sqrt(b.count[c] / max)));
  // Three distinct empty arrays: a transfer list must not name one buffer twice.
  const none = () => new Uint32Array(0);
  return { ...b, count: none(), kindsLo: none(), kindsHi: none(), drawn, shade };
}

/** `drawn` of an empty cell. */
export const NO_KIND = 255;

/**
 * Every cell's cellKind, computed once per distinct (kindsLo, kindsHi) pair: cells repeat a
 * few kind sets, so a zoomed-out answer of half a million cells costs a lookup a cell.
 */
export function drawnKinds(b: LaneBuckets, priority: readonly number[]): Uint8Array {
  const out = new Uint8Array(b.count.length).fill(NO_KIND);
  const memo = new Map<number, number>();
  let lastLo = -1;
  let lastHi = -1;
  let last = NO_KIND;
  for (let c = 0; c < b.count.length; c++) {
    if (!b.count[c]) continue;
    const lo = b.kindsLo[c];
    const hi = b.kindsHi[c];
    if (lo !== lastLo || hi !== lastHi) {
      const key = hi * 2 ** 32 + lo;
      let k = memo.get(key);
      if (k === undefined) memo.set(key, (k = cellKind(b, c, priority)));
      lastLo = lo;
      lastHi = hi;
      last = k < 0 ? NO_KIND : k;
    }
    out[c] = last;
  }
  return out;
}

/** The longest span of the trace: how far before a window a row can start and still touch it. */
export function maxDurOf(cols: Pick<Columns, 'dur'>): number {
  let m = 0;
  for (let i = 0; i < cols.dur.length; i++) if (cols.dur[i] > m) m = cols.dur[i];
  return m;
}

/**
 * Rows [lo, hi) that may touch [t0, t1]: those starting no earlier than t0 − maxDur and no
 * later than t1. O(log n); callers filter the few near the front that end before t0.
 */
export function candidateRange(
  time: ArrayLike<number>,
  t0: number,
  t1: number,
  maxDur: number,
): [number, number] {
  if (!(t1 >= t0)) return [0, 0];
  return [lowerBound(time, t0 - maxDur), upperBound(time, t1)];
}

/** Whether row i's span [time, time + dur] overlaps [t0, t1]. */
function touches(cols: SpanColumns, i: number, t0: number, t1: number): boolean {
  return cols.time[i] <= t1 && cols.time[i] + cols.dur[i] >= t0;
}

export interface WindowRows {
  /** The first `limit` rows touching the window, in trace order. */
  rows: Int32Array;
  /** How many rows touch it in all. */
  total: number;
}

/** The rows touching [t0, t1] (at most `limit` of them listed), in trace order. */
export function rowsInWindow(
  cols: SpanColumns,
  t0: number,
  t1: number,
  maxDur: number,
  limit = Infinity,
): WindowRows {
  const [lo, hi] = candidateRange(cols.time, t0, t1, maxDur);
  const cap = Math.min(hi - lo, limit);
  const rows = new Int32Array(Number.isFinite(cap) ? cap : hi - lo);
  let m = 0;
  let total = 0;
  for (let i = lo; i < hi; i++) {
    if (!touches(cols, i, t0, t1)) continue;
    if (m < rows.length) rows[m++] = i;
    total++;
  }
  return { rows: rows.slice(0, m), total };
}

/** Empty aggregates of the given shape (every count 0, no kinds). */
export function emptyBuckets(cpus: number, buckets: number, t0: number, t1: number): LaneBuckets {
  const cells = Math.max(0, cpus) * Math.max(0, buckets);
  return {
    t0,
    t1,
    cpus,
    buckets,
    count: new Uint32Array(cells),
    kindsLo: new Uint32Array(cells),
    kindsHi: new Uint32Array(cells),
  };
}

/** Adds row i to the aggregates (nothing if it does not touch their window). */
function addRow(out: LaneBuckets, cols: SpanColumns, i: number, k: number): void {
  const { t0, t1, buckets } = out;
  const s = cols.time[i];
  const e = s + cols.dur[i];
  if (s > t1 || e < t0) return;
  const c = cols.cpu[i];
  if (c >= out.cpus) return;
  const b0 = Math.min(buckets - 1, Math.floor((Math.max(s, t0) - t0) * k));
  const b1 = Math.min(buckets - 1, Math.floor((Math.min(e, t1) - t0) * k));
  const kind = cols.kind[i];
  const base = c * buckets;
  for (let b = b0; b <= b1; b++) {
    out.count[base + b]++;
    if (kind < 32) out.kindsLo[base + b] |= 1 << kind;
    else out.kindsHi[base + b] |= 1 << (kind - 32);
  }
}

function scale(out: LaneBuckets): number {
  const span = out.t1 - out.t0;
  return span > 0 ? out.buckets / span : 0;
}

/**
 * The aggregates of [t0, t1] in `buckets` buckets per CPU, reading only the rows that can
 * touch the window (binary search, then a scan of those rows).
 */
export function toLaneBuckets(
  cols: SpanColumns,
  cpus: number,
  t0: number,
  t1: number,
  buckets: number,
  maxDur: number,
): LaneBuckets {
  const out = emptyBuckets(cpus, buckets, t0, t1);
  if (buckets <= 0 || !(t1 >= t0)) return out;
  const k = scale(out);
  const [lo, hi] = candidateRange(cols.time, t0, t1, maxDur);
  for (let i = lo; i < hi; i++) addRow(out, cols, i, k);
  return out;
}

/** The same aggregates from an explicit list of rows (e.g. a page's window of rows). */
export function bucketsOfRows(
  cols: SpanColumns,
  rows: ArrayLike<number>,
  cpus: number,
  t0: number,
  t1: number,
  buckets: number,
): LaneBuckets {
  const out = emptyBuckets(cpus, buckets, t0, t1);
  if (buckets <= 0 || !(t1 >= t0)) return out;
  const k = scale(out);
  for (let j = 0; j < rows.length; j++) addRow(out, cols, rows[j], k);
  return out;
}

/** Whether kind `k` is present in cell `c`. */
export function hasKind(b: LaneBuckets, c: number, k: number): boolean {
  return k < 32 ? (b.kindsLo[c] & (1 << k)) !== 0 : (b.kindsHi[c] & (1 << (k - 32))) !== 0;
}

/**
 * The kind a cell is drawn in: the first of `priority` present in it (so one IPI among a
 * thousand task runs still shows), else its lowest kind code; -1 for an empty cell.
 */
export function cellKind(b: LaneBuckets, c: number, priority: readonly number[]): number {
  if (!b.count[c]) return -1;
  for (const k of priority) if (hasKind(b, c, k)) return k;
  for (let k = 0; k < 64; k++) if (hasKind(b, c, k)) return k;
  return -1;
}

/** Every column of `cols` at `rows`, in that order: the page's copy of a window's rows. */
export function sliceRows(cols: Columns, rows: Int32Array): Columns {
  const pick = <T extends Columns[keyof Columns]>(a: T): T => {
    const o = new (a.constructor as new (n: number) => T)(rows.length);
    for (let j = 0; j < rows.length; j++) o[j] = a[rows[j]];
    return o;
  };
  return {
    time: pick(cols.time),
    dur: pick(cols.dur),
    cpu: pick(cols.cpu),
    kind: pick(cols.kind),
    mm: pick(cols.mm),
    asid: pick(cols.asid),
    gen: pick(cols.gen),
    addr: pick(cols.addr),
    arg: pick(cols.arg),
    parent: pick(cols.parent),
  };
}
