// An index over intervals sorted by start, for "which intervals touch this window?" in
// O(log n + answer). Spans are sorted by start time, so a long span that starts before the
// window would be missed by a search on start alone; `endMax` (the running maximum of the
// ends) is monotone, so a second binary search finds the first interval that can still reach
// the window. Exact when intervals do not nest (one CPU's sub-track); with nesting the scan
// also visits the nested intervals that end before the window, which callers filter.

/** Intervals as columns, sorted by `start`. `ids` are whatever the caller indexes (trace rows). */
export interface IntervalIndex {
  readonly ids: Int32Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** endMax[j] = max(end[0..j]). */
  readonly endMax: Float64Array;
  /** A small per-interval tag kept beside the positions (the event kind), so scans stay sequential. */
  readonly tag: Uint8Array;
}

/** First index i in [lo, hi) with a[i] >= v (hi if none). */
export function lowerBound(a: ArrayLike<number>, v: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index i in [lo, hi) with a[i] > v (hi if none). */
export function upperBound(a: ArrayLike<number>, v: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Builds the index; sorts by start only if the input is not already sorted. */
export function toIntervalIndex(
  ids: Int32Array,
  start: Float64Array,
  end: Float64Array,
  tag: Uint8Array = new Uint8Array(ids.length),
): IntervalIndex {
  let sorted = true;
  for (let j = 1; j < start.length && sorted; j++) sorted = start[j - 1] <= start[j];
  if (!sorted) {
    const order = Uint32Array.from(ids.keys()).sort((a, b) => start[a] - start[b] || a - b);
    ids = Int32Array.from(order, (j) => ids[j]);
    start = Float64Array.from(order, (j) => start[j]);
    end = Float64Array.from(order, (j) => end[j]);
    tag = Uint8Array.from(order, (j) => tag[j]);
  }
  const endMax = new Float64Array(end.length);
  let m = -Infinity;
  for (let j = 0; j < end.length; j++) endMax[j] = m = Math.max(m, end[j]);
  return { ids, start, end, endMax, tag };
}

/**
 * The range [lo, hi) of positions whose intervals may touch [p0, p1]: every interval that
 * does is inside it. Callers test `end[j] >= p0` when intervals can nest.
 */
export function candidates(ix: IntervalIndex, p0: number, p1: number): [number, number] {
  const hi = upperBound(ix.start, p1);
  return [lowerBound(ix.endMax, p0, 0, hi), hi];
}
