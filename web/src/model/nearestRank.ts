// Nearest-rank percentiles: the sample at rank ⌈q·n⌉ of the sorted samples, always one that was
// measured, never an interpolation between two. Shared by the recording's summary, the flush
// analysis and the costs a recording measures, so their p50 and p99 mean the same thing.

/** The samples sorted ascending, for nearestRank. */
export function sortedSamples(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/** The `q` (0 < q ≤ 1) nearest-rank percentile of `sorted`, which holds at least one sample. */
export function nearestRank(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
