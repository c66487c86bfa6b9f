// How far the latency lens's intervals reach on each CPU, over a whole run read a slice at a
// time (a run kept in its worker): what a guided step's frame needs of them (model/guide.ts
// stepFrame widens the step's window to hold each interval it points at whole). Pure.
import { LensScan } from './lens';
import { forEachSlice, type RowSource } from './rowSource';

/** The earliest start and latest end of a CPU's lens intervals. */
export interface LensExtent {
  cpu: number;
  start: number;
  end: number;
}

/**
 * Each CPU's lens intervals of `kinds` reduced to one extent (ascending CPUs): stepFrame
 * given these frames a step as it does given every interval, since it only takes each one's
 * CPU and the earliest start and latest end. At most one entry per CPU crosses to the page.
 */
export function lensExtents(
  intervals: Iterable<{ cpu: number; start: number; end: number }>,
): LensExtent[] {
  const by = new Map<number, LensExtent>();
  for (const iv of intervals) {
    const e = by.get(iv.cpu);
    if (!e) by.set(iv.cpu, { cpu: iv.cpu, start: iv.start, end: iv.end });
    else {
      e.start = Math.min(e.start, iv.start);
      e.end = Math.max(e.end, iv.end);
    }
  }
  return [...by.values()].sort((a, b) => a.cpu - b.cpu);
}

/** lensExtents of the whole run in `src`, by lens.ts's own LensScan fed a slice at a time. */
export function lensExtentsOfSource(
  src: RowSource,
  kinds: readonly string[],
  contextSwitchNs: number,
): LensExtent[] {
  const found: LensExtent[] = [];
  const scan = new LensScan(kinds, contextSwitchNs, (_kind, cpu, start, end) => {
    // Folded as they come: a run's intervals can number hundreds of thousands.
    const e = found[cpu];
    if (!e) found[cpu] = { cpu, start, end };
    else {
      e.start = Math.min(e.start, start);
      e.end = Math.max(e.end, end);
    }
  });
  if (kinds.length)
    forEachSlice(src, ['time', 'dur', 'cpu', 'kind', 'arg', 'parent'], (c, lo, n) =>
      scan.feed(c, lo, n),
    );
  scan.finish();
  return lensExtents(found.filter(Boolean));
}
