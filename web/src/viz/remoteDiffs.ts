// A/B on a run kept in its worker: its flushes that differ from their match in the other run,
// and its flush matched with the other run's selection, outlined on their CPU's strip from the
// flush's start to its end, as the local timeline outlines them (viz/marks/overlay.ts
// 'diff-outline', 'match-outline'). The page holds these flushes already (the worker's flush
// list, model/flushMatch.ts FlushFacts): no question to the worker.
import { scaleLinear, select } from 'd3';
import type { FlushFacts } from '../model/flushMatch';
import { set } from './dom';
import { layer } from './layer';
import { REMOTE_AXIS, type RemoteLayout } from './remote';
import { formatNs } from './scales';

/** Most outlines drawn in a window (the local timeline draws at most as many). */
export const MAX_DIFF_OUTLINES = 400;

/** The flushes of `flushes` touching [t0, t1], at most MAX_DIFF_OUTLINES, by start. */
export function diffsInWindow(
  flushes: readonly FlushFacts[],
  [t0, t1]: [number, number],
): FlushFacts[] {
  const out: FlushFacts[] = [];
  for (const f of flushes) {
    if (f.start > t1 || f.start + f.latency < t0) continue;
    out.push(f);
    if (out.length >= MAX_DIFF_OUTLINES) break;
  }
  return out;
}

/** Draws the outlines of `flushes` in the window and of `matched`; returns how many differ. */
export function renderRemoteDiffs(
  svg: SVGSVGElement,
  layout: RemoteLayout,
  win: [number, number],
  flushes: readonly FlushFacts[] | null,
  matched: FlushFacts | null = null,
): number {
  const { plot, strip } = layout;
  const x = scaleLinear().domain(win).range(plot);
  const shown = flushes ? diffsInWindow(flushes, win) : [];
  const marks: { f: FlushFacts; cls: string }[] = shown.map((f) => ({ f, cls: 'diff-outline' }));
  if (matched && diffsInWindow([matched], win).length)
    marks.push({ f: matched, cls: 'match-outline' });
  layer(select(svg), 'remote-diffs')
    .selectAll<SVGRectElement, { f: FlushFacts; cls: string }>('rect')
    .data(marks, (d) => `${d.cls}:${d.f.row}`)
    .join((enter) => enter.append('rect').call((r) => r.append('title')))
    .each(function ({ f, cls }) {
      // Past the plot's edges by the outline's width, as the local timeline's.
      const a = Math.max(plot[0] - 2, x(f.start));
      const b = Math.min(plot[1] + 2, x(f.start + f.latency));
      set(this, 'class', cls);
      set(this, 'data-row', String(f.row));
      set(this, 'x', String(a - 1.5));
      set(this, 'width', String(Math.max(4, b - a) + 3));
      set(this, 'y', String(REMOTE_AXIS + f.cpu * strip - 1));
      set(this, 'height', String(Math.max(3, strip + 1)));
      const title = this.firstChild as SVGTitleElement;
      const what =
        cls === 'match-outline'
          ? "The flush matched with the other run's selection"
          : 'A flush that differs from its match';
      const text = `${what}: CPU ${f.cpu}, mm ${f.mm}, at ${formatNs(f.start)} for ${formatNs(f.latency)}`;
      if (title.textContent !== text) title.textContent = text;
    });
  return shown.length;
}
