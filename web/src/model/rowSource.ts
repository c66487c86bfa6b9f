// Window questions answered from a trace read in slices (the simulator's own store in WASM
// memory, or columns in tests), without a whole copy of its columns: what lets the worker keep
// a ten-million-row run in its WASM store alone. Pure: a RowSource is just a way to read rows.
//
// Spans longer than a grid cell are few (a CPU's long task runs) but reach far back; they are
// kept apart in an interval index, so a window's short rows are found by one binary search on
// time with a small look-back instead of the trace's longest span.
import { COLUMN_NAMES, type Columns } from '../trace/trace';
import { candidates, toIntervalIndex, type IntervalIndex } from './intervals';
import { emptyBuckets, type LaneBuckets } from './traceWindow';

/** Rows read a slice at a time. `read` returns a fresh or borrowed array of rows [lo, hi). */
export interface RowSource {
  readonly rows: number;
  read<K extends keyof Columns>(name: K, lo: number, hi: number): Columns[K];
}

/** Rows per slice read: big enough to amortise a read, small beside the trace. */
export const SLICE = 1 << 16;

/**
 * A pass over the whole trace a slice at a time: `fn` gets the columns `names` of rows
 * [lo, lo + n), in order; returning false ends the pass early.
 */
export function forEachSlice<K extends keyof Columns>(
  src: RowSource,
  names: readonly K[],
  fn: (cols: Pick<Columns, K>, lo: number, n: number) => boolean | void,
): void {
  for (let lo = 0; lo < src.rows; lo += SLICE) {
    const hi = Math.min(src.rows, lo + SLICE);
    const cols = {} as Pick<Columns, K>;
    for (const name of names) cols[name] = src.read(name, lo, hi);
    if (fn(cols, lo, hi - lo) === false) return;
  }
}

/** A RowSource over columns held in memory (tests, and traces already on the page). */
export function columnSource(cols: Columns): RowSource {
  return {
    rows: cols.time.length,
    read: (name, lo, hi) => cols[name].subarray(lo, hi) as Columns[typeof name],
  };
}

/** First row with time ≥ t (`strict`: > t), by binary search reading one row a probe. */
export function searchTime(src: RowSource, t: number, strict = false): number {
  let lo = 0;
  let hi = src.rows;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = src.read('time', mid, mid + 1)[0];
    if (strict ? v <= t : v < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * What one pass over the trace learns: the extent, a fine grid of per-CPU aggregates over it
 * (the zoomed-out views resample it), and the spans longer than a grid cell.
 */
export interface RowIndex {
  readonly rows: number;
  readonly cpus: number;
  /** Where the last span ends: the trace covers [0, end]. */
  readonly end: number;
  /** Spans at most this long are "short": found by searching time from t0 − shortMax. */
  readonly shortMax: number;
  /** Spans longer than shortMax, by start (ids are trace rows, tags their kinds). */
  readonly long: IntervalIndex;
  /** cpus × cells aggregates over [0, last start] (LaneBuckets semantics, exact per cell). */
  readonly grid: LaneBuckets;
}

/**
 * One pass over the trace in slices (time, dur, cpu and kind), `cells` grid cells per CPU.
 * The grid covers [0, the last row's start] (rows are sorted by time, so that is known before
 * the pass): spans running past it are counted in its last cell. O(rows); memory O(cpus ×
 * cells + long spans).
 */
export function toRowIndex(src: RowSource, cpus: number, cells: number): RowIndex {
  const lastStart = src.rows > 0 ? src.read('time', src.rows - 1, src.rows)[0] : 0;
  const grid = emptyBuckets(cpus, cells, 0, lastStart);
  const shortMax = lastStart / Math.max(1, cells);
  const k = lastStart > 0 ? cells / lastStart : 0;
  let end = 0;
  const longIds: number[] = [];
  const longStart: number[] = [];
  const longEnd: number[] = [];
  const longKind: number[] = [];
  forEachSlice(src, ['time', 'dur', 'cpu', 'kind'], ({ time, dur, cpu, kind }, lo) => {
    for (let j = 0; j < time.length; j++) {
      const s = time[j];
      const e = s + dur[j];
      if (e > end) end = e;
      if (dur[j] > shortMax) {
        longIds.push(lo + j);
        longStart.push(s);
        longEnd.push(e);
        longKind.push(kind[j]);
      }
      const c = cpu[j];
      if (c >= cpus) continue;
      addSpan(grid, c, s, e, kind[j], k);
    }
  });
  const long = toIntervalIndex(
    Int32Array.from(longIds),
    Float64Array.from(longStart),
    Float64Array.from(longEnd),
    Uint8Array.from(longKind),
  );
  return { rows: src.rows, cpus, end, shortMax, long, grid };
}

/** Counts span [s, e] of `kind` on CPU `c` in every bucket of `out` it overlaps (k = buckets/ns). */
function addSpan(out: LaneBuckets, c: number, s: number, e: number, kind: number, k: number) {
  const { t0, t1, buckets } = out;
  if (s > t1 || e < t0) return;
  const b0 = Math.min(buckets - 1, Math.floor((Math.max(s, t0) - t0) * k));
  const b1 = Math.min(buckets - 1, Math.floor((Math.min(e, t1) - t0) * k));
  const base = c * buckets;
  for (let b = b0; b <= b1; b++) {
    out.count[base + b]++;
    if (kind < 32) out.kindsLo[base + b] |= 1 << kind;
    else out.kindsHi[base + b] |= 1 << (kind - 32);
  }
}

/**
 * Every row touching [t0, t1], in trace order, passed to `visit` with the slice that holds
 * it: the long spans from their index, the short ones from one time search. Stops (returning
 * false) once more than `maxScan` short candidates would have to be read.
 */
function eachRowIn(
  ix: RowIndex,
  src: RowSource,
  t0: number,
  t1: number,
  maxScan: number,
  visit: (row: number, time: number, dur: number, cpu: number, kind: number) => void,
): boolean {
  const lo = searchTime(src, t0 - ix.shortMax);
  const hi = searchTime(src, t1, true);
  if (hi - lo > maxScan) return false;
  const longJs: number[] = [];
  const [a, b] = candidates(ix.long, t0, t1);
  for (let j = a; j < b; j++) if (ix.long.end[j] >= t0) longJs.push(j);
  longJs.sort((x, y) => ix.long.ids[x] - ix.long.ids[y]);
  for (const j of longJs) {
    const r = ix.long.ids[j];
    const s = ix.long.start[j];
    visit(r, s, ix.long.end[j] - s, src.read('cpu', r, r + 1)[0], ix.long.tag[j]);
  }
  for (let s0 = lo; s0 < hi; s0 += SLICE) {
    const s1 = Math.min(hi, s0 + SLICE);
    const time = src.read('time', s0, s1);
    const dur = src.read('dur', s0, s1);
    const cpu = src.read('cpu', s0, s1);
    const kind = src.read('kind', s0, s1);
    for (let j = 0; j < time.length; j++) {
      if (dur[j] > ix.shortMax) continue; // counted from the long index
      if (time[j] > t1 || time[j] + dur[j] < t0) continue;
      visit(s0 + j, time[j], dur[j], cpu[j], kind[j]);
    }
  }
  return true;
}

/**
 * The aggregates of [t0, t1] in `buckets` buckets per CPU. A window of at most `maxScan`
 * candidate rows is scanned: exact, as toLaneBuckets. A wider one resamples the grid: a bucket
 * holds the kinds of every grid cell overlapping it and the count of its busiest cell (a row
 * spanning several cells is one row in each, so summing cells would count it more than once).
 */
export function windowBuckets(
  ix: RowIndex,
  src: RowSource,
  t0: number,
  t1: number,
  buckets: number,
  maxScan: number,
): LaneBuckets {
  const out = emptyBuckets(ix.cpus, buckets, t0, t1);
  if (buckets <= 0 || !(t1 >= t0)) return out;
  const k = t1 > t0 ? buckets / (t1 - t0) : 0;
  const scanned = eachRowIn(ix, src, t0, t1, maxScan, (_r, s, d, c, kind) => {
    if (c < ix.cpus) addSpan(out, c, s, s + d, kind, k);
  });
  return scanned ? out : resampleGrid(ix.grid, out);
}

/** Fills `out` from the grid: kinds OR-ed, counts the busiest overlapping cell. */
export function resampleGrid(grid: LaneBuckets, out: LaneBuckets): LaneBuckets {
  const { t0, t1, buckets } = out;
  const G = grid.buckets;
  if (!(grid.t1 > grid.t0) || G <= 0 || buckets <= 0) return out;
  const cellW = (grid.t1 - grid.t0) / G;
  const k = t1 > t0 ? buckets / (t1 - t0) : 0;
  const g0 = Math.max(0, Math.floor((t0 - grid.t0) / cellW));
  const g1 = Math.min(G - 1, Math.floor((t1 - grid.t0) / cellW));
  for (let g = g0; g <= g1; g++) {
    const cs = grid.t0 + g * cellW;
    const ce = cs + cellW;
    const b0 = Math.max(0, Math.min(buckets - 1, Math.floor((Math.max(cs, t0) - t0) * k)));
    // A cell ending exactly on a bucket edge does not reach into the next bucket.
    const last = (Math.min(ce, t1) - t0) * k;
    const b1 = Math.max(
      b0,
      Math.min(buckets - 1, Number.isInteger(last) && ce <= t1 ? last - 1 : Math.floor(last)),
    );
    for (let c = 0; c < out.cpus && c < grid.cpus; c++) {
      const src = c * G + g;
      const n = grid.count[src];
      if (!n) continue;
      for (let b = b0; b <= b1; b++) {
        const dst = c * buckets + b;
        if (n > out.count[dst]) out.count[dst] = n;
        out.kindsLo[dst] |= grid.kindsLo[src];
        out.kindsHi[dst] |= grid.kindsHi[src];
      }
    }
  }
  return out;
}

/** Rows touching [t0, t1] (the first `limit` listed), or null when more than maxScan to read. */
export function sourceRowsInWindow(
  ix: RowIndex,
  src: RowSource,
  t0: number,
  t1: number,
  limit: number,
  maxScan: number,
): { rows: Int32Array; total: number } | null {
  const rows: number[] = [];
  const ok = eachRowIn(ix, src, t0, t1, maxScan, (r) => rows.push(r));
  if (!ok) return null;
  // Long spans come first from their index: put every row back in trace order.
  const all = Int32Array.from(rows).sort();
  return { rows: all.slice(0, Math.max(0, limit)), total: all.length };
}

/**
 * Every column (or those `names`) at `rows` (any order), read from the source one short range
 * at a time.
 */
export function readRows(
  src: RowSource,
  rows: Int32Array,
  names: readonly (keyof Columns)[] = COLUMN_NAMES,
): Columns {
  const out = {} as Record<keyof Columns, Columns[keyof Columns]>;
  for (const name of names) {
    const probe = src.read(name, 0, 0);
    const col = new (probe.constructor as new (n: number) => Columns[typeof name])(rows.length);
    // Runs of nearby rows are read as one range (a window's rows mostly are).
    let j = 0;
    while (j < rows.length) {
      let k = j + 1;
      while (k < rows.length && rows[k] > rows[k - 1] && rows[k] - rows[j] < SLICE) k++;
      const part = src.read(name, rows[j], rows[k - 1] + 1);
      for (let m = j; m < k; m++) col[m] = part[rows[m] - rows[j]];
      j = k;
    }
    out[name] = col;
  }
  return out as unknown as Columns;
}
