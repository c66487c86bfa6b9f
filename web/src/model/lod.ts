// Level of detail for span tracks: what to draw for a set of sub-tracks in a window at a
// given pixel width. Few rows → the rows themselves (drawn as marks, clickable). Many rows →
// one aggregate per run of pixel columns (count, dominant kind, covered fraction), so drawing
// costs follow pixels, not events. Finding the rows costs O(log n + rows in the window)
// through the per-track interval index; aggregating is O(1) per row (difference arrays).
import type { Trace } from '../trace/trace';
import { candidates, lowerBound, toIntervalIndex, type IntervalIndex } from './intervals';
import { TRACKS, type LanesModel } from './lanes';
import type { PosMap } from './spacing';

/** One interval index per (cpu, sub-track), in positions of one spacing. */
export interface LaneIndex {
  readonly cpus: number;
  readonly pos: PosMap;
  /** tracks[cpu * TRACKS + track]. */
  readonly tracks: readonly IntervalIndex[];
}

export function toLaneIndex(trace: Trace, lanes: LanesModel, pos: PosMap): LaneIndex {
  const { time, dur, cpu, n } = trace;
  const slots = lanes.cpus * TRACKS;
  const counts = new Int32Array(slots);
  for (let j = 0; j < lanes.spans.length; j++)
    counts[cpu[lanes.spans[j]] * TRACKS + lanes.track[j]]++;
  const ids = Array.from(counts, (c) => new Int32Array(c));
  const start = Array.from(counts, (c) => new Float64Array(c));
  const end = Array.from(counts, (c) => new Float64Array(c));
  const tag = Array.from(counts, (c) => new Uint8Array(c));
  const fill = new Int32Array(slots);
  const event = pos.spacing === 'event';
  // Inlined rather than pos.rowStart/rowEnd: this runs once per span of the trace.
  for (let j = 0; j < lanes.spans.length; j++) {
    const row = lanes.spans[j];
    const s = cpu[row] * TRACKS + lanes.track[j];
    const k = fill[s]++;
    ids[s][k] = row;
    tag[s][k] = trace.kind[row];
    if (event) {
      start[s][k] = row;
      end[s][k] = dur[row] > 0 ? gallop(time, time[row] + dur[row], row + 1, n) : row;
    } else {
      start[s][k] = time[row];
      end[s][k] = time[row] + dur[row];
    }
  }
  return {
    cpus: lanes.cpus,
    pos,
    tracks: ids.map((_, s) => toIntervalIndex(ids[s], start[s], end[s], tag[s])),
  };
}

/** lowerBound from `from`, searching outward first: span ends are usually a few rows away. */
export function gallop(a: ArrayLike<number>, v: number, from: number, hi: number): number {
  let step = 1;
  let lo = from;
  let probe = from;
  while (probe < hi && a[probe] < v) {
    lo = probe + 1;
    probe = from + step;
    step *= 2;
  }
  return lowerBound(a, v, lo, Math.min(hi, probe));
}

/** Pixel-column aggregates as columns. Adjacent columns that look alike are merged. */
export interface Bins {
  readonly n: number;
  /** Left and right edge, in pixels from the left of the plot area. */
  readonly x0: Float32Array;
  readonly x1: Float32Array;
  /** Rows touching the busiest column of the run. */
  readonly count: Uint32Array;
  /** The kind covering most of the run. */
  readonly kind: Uint8Array;
  /** Mean fraction of each column covered (0..1), averaged over the sub-tracks aggregated. */
  readonly coverage: Float32Array;
}

export type Lod = { mode: 'rows'; rows: Int32Array } | { mode: 'bins'; bins: Bins };

export interface LodOptions {
  /** Return rows when at most this many touch the window (and only one track is asked for). */
  maxRows: number;
}

// Scratch buffers reused across calls: a draw asks for hundreds of tracks per frame.
let scratch = new Float64Array(0);
function scratchOf(size: number): Float64Array {
  if (scratch.length < size) scratch = new Float64Array(size * 2);
  scratch.fill(0, 0, size);
  return scratch;
}
let out = {
  x0: new Float32Array(0),
  x1: new Float32Array(0),
  count: new Uint32Array(0),
  kinds: new Uint8Array(0),
  cover: new Float32Array(0),
};
function outOf(width: number): typeof out {
  if (out.x0.length < width) {
    const n = width * 2;
    out = {
      x0: new Float32Array(n),
      x1: new Float32Array(n),
      count: new Uint32Array(n),
      kinds: new Uint8Array(n),
      cover: new Float32Array(n),
    };
  }
  return out;
}
const SLOTS = 4; // distinct kinds tracked per call; more share the last slot

/**
 * What to draw for `tracks` (one sub-track, or the same sub-track of a group of CPUs) over
 * the window [p0, p1] of positions mapped onto `width` pixels.
 */
export function toLod(
  tracks: readonly IntervalIndex[],
  window: [number, number],
  width: number,
  opts: LodOptions,
): Lod {
  const [p0, p1] = window;
  const ranges = tracks.map((ix) => candidates(ix, p0, p1));
  const total = ranges.reduce((s, [lo, hi]) => s + hi - lo, 0);
  if (tracks.length === 1 && total <= opts.maxRows) {
    const ix = tracks[0];
    const [lo, hi] = ranges[0];
    const rows: number[] = [];
    for (let j = lo; j < hi; j++) if (ix.end[j] >= p0) rows.push(ix.ids[j]);
    return { mode: 'rows', rows: Int32Array.from(rows) };
  }
  return { mode: 'bins', bins: toBins(tracks, ranges, window, width) };
}

function toBins(
  tracks: readonly IntervalIndex[],
  ranges: [number, number][],
  [p0, p1]: [number, number],
  width: number,
): Bins {
  const W = Math.max(1, Math.ceil(width));
  const k = W / Math.max(p1 - p0, Number.MIN_VALUE);
  // Layout of the scratch buffer: per slot, partial coverage (W) and full-column diffs (W+1);
  // then the count diffs (W+1).
  const stride = 2 * W + 1;
  const buf = scratchOf(SLOTS * stride + W + 1);
  const cntBase = SLOTS * stride;
  const slotKinds: number[] = [];
  const slotOf = (kind: number): number => {
    let s = slotKinds.indexOf(kind);
    if (s < 0) {
      if (slotKinds.length < SLOTS) s = slotKinds.push(kind) - 1;
      else s = SLOTS - 1;
    }
    return s;
  };
  for (let t = 0; t < tracks.length; t++) {
    const ix = tracks[t];
    const [lo, hi] = ranges[t];
    let lastKind = -1;
    let base = 0;
    for (let j = lo; j < hi; j++) {
      const e = (ix.end[j] - p0) * k;
      if (e < 0) continue;
      const s = Math.max(0, (ix.start[j] - p0) * k);
      const ee = Math.min(W, e);
      const kind = ix.tag[j];
      if (kind !== lastKind) {
        lastKind = kind;
        base = slotOf(kind) * stride;
      }
      const bs = Math.min(W - 1, Math.floor(s));
      const be = Math.min(W - 1, Math.floor(ee));
      if (bs === be) buf[base + bs] += ee - s;
      else {
        buf[base + bs] += bs + 1 - s;
        buf[base + be] += ee - be;
        buf[base + W + bs + 1] += 1;
        buf[base + W + be] -= 1;
      }
      buf[cntBase + bs] += 1;
      buf[cntBase + be + 1] -= 1;
    }
  }
  // Sweep the columns: prefix sums, dominant kind, then merge look-alike neighbours.
  const { x0, x1, count, kinds, cover } = outOf(W);
  let m = 0;
  const full = new Float64Array(SLOTS);
  let cnt = 0;
  const nTracks = tracks.length;
  for (let b = 0; b < W; b++) {
    cnt += buf[cntBase + b];
    let best = -1;
    let bestCov = -1;
    let sum = 0;
    for (let s = 0; s < slotKinds.length; s++) {
      full[s] += buf[s * stride + W + b];
      const c = buf[s * stride + b] + full[s];
      sum += c;
      if (c > bestCov) {
        bestCov = c;
        best = s;
      }
    }
    if (cnt <= 0) continue;
    const cov = Math.min(1, sum / nTracks);
    const kind = slotKinds[best];
    const last = m - 1;
    if (
      last >= 0 &&
      x1[last] === b &&
      kinds[last] === kind &&
      Math.round(cover[last] * 8) === Math.round(cov * 8)
    ) {
      const w = x1[last] - x0[last];
      cover[last] = (cover[last] * w + cov) / (w + 1);
      x1[last] = b + 1;
      if (cnt > count[last]) count[last] = cnt;
    } else {
      x0[m] = b;
      x1[m] = b + 1;
      count[m] = cnt;
      kinds[m] = kind;
      cover[m++] = cov;
    }
  }
  // Exact-size copies: the scratch columns are reused by the next call.
  return {
    n: m,
    x0: x0.slice(0, m),
    x1: x1.slice(0, m),
    count: count.slice(0, m),
    kind: kinds.slice(0, m),
    coverage: cover.slice(0, m),
  };
}

/** Rows of `tracks` touching [p0, p1], counting no further than `limit`. */
export function countInWindow(
  tracks: readonly IntervalIndex[],
  p0: number,
  p1: number,
  limit = Infinity,
): number {
  let n = 0;
  for (const ix of tracks) {
    const [lo, hi] = candidates(ix, p0, p1);
    for (let j = lo; j < hi && n < limit; j++) if (ix.end[j] >= p0) n++;
    if (n >= limit) break;
  }
  return n;
}

/**
 * The row under position `p` on a sub-track, within `tolerance` positions: the span
 * containing p, else the nearest one; among equals the shortest (the most specific). -1 if none.
 */
export function hitTest(ix: IntervalIndex, p: number, tolerance: number): number {
  const [lo, hi] = candidates(ix, p - tolerance, p + tolerance);
  let best = -1;
  let bestDist = Infinity;
  let bestLen = Infinity;
  for (let j = lo; j < hi; j++) {
    const s = ix.start[j];
    const e = ix.end[j];
    const d = p < s ? s - p : p > e ? p - e : 0;
    if (d > tolerance) continue;
    const len = e - s;
    if (d < bestDist || (d === bestDist && len < bestLen)) {
      best = ix.ids[j];
      bestDist = d;
      bestLen = len;
    }
  }
  return best;
}

/**
 * Coarse bins of a set of sub-tracks (the same sub-track of a collapsed group of CPUs),
 * built once over the trace's extent: per bin, the covered fraction per kind summed over the
 * tracks, and how many rows touch it; then coarser levels, each halving the bins. A zoomed-out
 * view then costs the bins on screen (about two per pixel column), not the rows under them:
 * a collapsed 16-CPU group of a million-row run holds ~100,000 rows per sub-track.
 */
export interface BinPyramid {
  readonly e0: number;
  /** Width of a level-0 bin, in positions. */
  readonly bin: number;
  readonly kinds: readonly number[];
  readonly tracks: number;
  /** levels[L].cover[s][b]: summed coverage of kind slot s; levels[L].count[b]: rows touching. */
  readonly levels: readonly { cover: Float32Array[]; count: Float32Array }[];
}

export const PYRAMID_BINS = 1 << 14;
/**
 * A sub-track (one CPU's, or a collapsed group's) gets a pyramid above this many rows; below,
 * its rows are scanned. Zoomed out, the lanes on screen held ~100,000 rows between them, and
 * scanning them cost 3-9 ms of every frame; with pyramids that cost follows pixels.
 */
export const PYRAMID_ABOVE_ROWS = 2_048;

/**
 * Level-0 bins for `rows` rows: about one per row (a power of two, at most PYRAMID_BINS), so
 * a pyramid's memory follows its rows (≈ 24-40 B a row) and binsFromPyramid uses it only
 * while a pixel column holds two rows or more.
 */
function pyramidBins(rows: number): number {
  return Math.min(PYRAMID_BINS, 2 ** Math.ceil(Math.log2(rows)));
}

export function toBinPyramid(
  tracks: readonly IntervalIndex[],
  [e0, e1]: [number, number],
  bins = PYRAMID_BINS,
): BinPyramid {
  const bin = Math.max(e1 - e0, 1e-9) / bins;
  const kinds: number[] = [];
  for (const ix of tracks)
    for (let j = 0; j < ix.tag.length; j++)
      if (!kinds.includes(ix.tag[j]) && kinds.length < SLOTS) kinds.push(ix.tag[j]);
  const cover = kinds.map(() => new Float32Array(bins));
  const full = kinds.map(() => new Float32Array(bins + 1));
  const diff = new Float32Array(bins + 1);
  const k = 1 / bin;
  for (const ix of tracks) {
    for (let j = 0; j < ix.ids.length; j++) {
      let slot = kinds.indexOf(ix.tag[j]);
      if (slot < 0) slot = SLOTS - 1;
      const s = Math.max(0, (ix.start[j] - e0) * k);
      const e = Math.min(bins, Math.max(s, (ix.end[j] - e0) * k));
      const bs = Math.min(bins - 1, Math.floor(s));
      const be = Math.min(bins - 1, Math.floor(e));
      const c = cover[slot];
      if (bs === be) c[bs] += e - s;
      else {
        c[bs] += bs + 1 - s;
        c[be] += e - be;
        full[slot][bs + 1] += 1;
        full[slot][be] -= 1;
      }
      diff[bs] += 1;
      diff[be + 1] -= 1;
    }
  }
  const count = new Float32Array(bins);
  let run = 0;
  for (let b = 0; b < bins; b++) count[b] = run += diff[b];
  cover.forEach((c, s) => {
    let f = 0;
    for (let b = 0; b < bins; b++) c[b] += f += full[s][b];
  });
  const levels = [{ cover, count }];
  for (let n = bins >> 1; n >= 1; n >>= 1) {
    const prev = levels[levels.length - 1];
    const next = {
      cover: prev.cover.map((c) => {
        const o = new Float32Array(n);
        for (let b = 0; b < n; b++) o[b] = (c[2 * b] + c[2 * b + 1]) / 2;
        return o;
      }),
      count: new Float32Array(n),
    };
    for (let b = 0; b < n; b++) next.count[b] = prev.count[2 * b] + prev.count[2 * b + 1];
    levels.push(next);
  }
  return { e0, bin, kinds, tracks: tracks.length, levels };
}

/**
 * Pixel-column bins of [p0, p1] read from a pyramid, or null when the window is too narrow
 * for it (fewer than two level-0 bins per column): then scanning the rows is cheap enough.
 */
export function binsFromPyramid(
  pyr: BinPyramid,
  [p0, p1]: [number, number],
  width: number,
): Bins | null {
  const W = Math.max(1, Math.ceil(width));
  const perPixel = Math.max(p1 - p0, Number.MIN_VALUE) / W;
  if (pyr.bin * 2 > perPixel) return null;
  let L = 0;
  while (L + 1 < pyr.levels.length && pyr.bin * 2 ** (L + 2) <= perPixel) L++;
  const { cover, count } = pyr.levels[L];
  const bw = pyr.bin * 2 ** L;
  const n = count.length;
  const S = pyr.kinds.length;
  // Each bin goes to the column holding its centre; columns average their bins.
  const sums = scratchOf(W * (S + 2));
  const b0 = Math.max(0, Math.floor((p0 - pyr.e0) / bw));
  const b1 = Math.min(n - 1, Math.floor((p1 - pyr.e0) / bw));
  const k = W / (p1 - p0);
  for (let b = b0; b <= b1; b++) {
    const c = Math.floor((pyr.e0 + (b + 0.5) * bw - p0) * k);
    if (c < 0 || c >= W) continue;
    const o = c * (S + 2);
    sums[o] += 1;
    sums[o + 1] += count[b];
    for (let s = 0; s < S; s++) sums[o + 2 + s] += cover[s][b];
  }
  const { x0, x1, count: cnt, kinds, cover: cov } = outOf(W);
  let m = 0;
  for (let c = 0; c < W; c++) {
    const o = c * (S + 2);
    const nb = sums[o];
    if (!nb || sums[o + 1] <= 0) continue;
    let best = 0;
    let sum = 0;
    for (let s = 0; s < S; s++) {
      sum += sums[o + 2 + s];
      if (sums[o + 2 + s] > sums[o + 2 + best]) best = s;
    }
    const v = Math.min(1, sum / nb / pyr.tracks);
    const kind = pyr.kinds[best];
    const last = m - 1;
    if (
      last >= 0 &&
      x1[last] === c &&
      kinds[last] === kind &&
      Math.round(cov[last] * 8) === Math.round(v * 8)
    ) {
      const w = x1[last] - x0[last];
      cov[last] = (cov[last] * w + v) / (w + 1);
      x1[last] = c + 1;
      cnt[last] = Math.max(cnt[last], sums[o + 1]);
    } else {
      x0[m] = c;
      x1[m] = c + 1;
      cnt[m] = sums[o + 1];
      kinds[m] = kind;
      cov[m++] = v;
    }
  }
  return {
    n: m,
    x0: x0.slice(0, m),
    x1: x1.slice(0, m),
    count: cnt.slice(0, m),
    kind: kinds.slice(0, m),
    coverage: cov.slice(0, m),
  };
}

const pyramids = new WeakMap<LaneIndex, Map<string, BinPyramid | null>>();

function cacheOf(index: LaneIndex): Map<string, BinPyramid | null> {
  let cache = pyramids.get(index);
  if (!cache) pyramids.set(index, (cache = new Map()));
  return cache;
}

/** The pyramids built so far for `index`, keyed as groupPyramid keys them (to send along). */
export function pyramidsOf(index: LaneIndex): [string, BinPyramid | null][] {
  return [...(pyramids.get(index) ?? [])];
}

/** Adopts pyramids built for an index of the same trace and spacing (in a worker). */
export function adoptPyramids(
  index: LaneIndex,
  entries: readonly [string, BinPyramid | null][],
): void {
  const cache = cacheOf(index);
  for (const [k, p] of entries) if (!cache.has(k)) cache.set(k, p);
}

/**
 * The pyramid of one sub-track merged over CPUs first..last, built on first use and kept with
 * the index; null when those tracks hold too few rows to need one.
 */
export function groupPyramid(
  index: LaneIndex,
  first: number,
  last: number,
  track: number,
): BinPyramid | null {
  const cache = cacheOf(index);
  const key = `${first}:${last}:${track}`;
  let p = cache.get(key);
  if (p === undefined) {
    const tracks: IntervalIndex[] = [];
    let rows = 0;
    for (let c = first; c <= last; c++) {
      tracks.push(index.tracks[c * TRACKS + track]);
      rows += index.tracks[c * TRACKS + track].ids.length;
    }
    p =
      rows > PYRAMID_ABOVE_ROWS ? toBinPyramid(tracks, index.pos.extent, pyramidBins(rows)) : null;
    cache.set(key, p);
  }
  return p;
}

/** The pyramid of one CPU's sub-track, or null when it holds too few rows to need one. */
export function trackPyramid(index: LaneIndex, cpu: number, track: number): BinPyramid | null {
  return groupPyramid(index, cpu, cpu, track);
}
