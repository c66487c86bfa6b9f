// Latency-lens mark (SVG): each interval of model/lens.ts as a bracket under its CPU's lane,
// labelled with what it is and how long it lasts, so a wait reads as a length on the timeline
// rather than a number in the summary. Few per run (one per wait), so always SVG.
import type { Selection } from 'd3';
import { LENS_NAMES, type LensInterval } from '../../model/lens';
import { TRACKS } from '../../model/lanes';
import { set, setText } from '../dom';
import { formatNs, type Scales } from '../scales';

/** Height of one row of brackets under a lane. */
export const LENS_ROW = 20;
const CHAR_W = 6.2;

export function lensLabel(iv: LensInterval): string {
  return `${LENS_NAMES[iv.kind]} ${formatNs(iv.end - iv.start)}`;
}

export function renderLens(
  g: Selection<SVGGElement, unknown, null, undefined>,
  intervals: readonly LensInterval[],
  scales: Scales,
  /** Kinds the guided step points at: those get `data-subject`. */
  subject: ReadonlySet<string>,
): number {
  const { x, layout } = scales;
  const [left, right] = scales.plot;
  const [d0, d1] = x.domain();
  const shown = intervals.filter((iv) => !layout.folded(iv.cpu) && iv.end >= d0 && iv.start <= d1);
  // Where each row's last label ended, so that a label never lands on its neighbour's.
  const taken = new Map<string, number>();
  g.selectAll<SVGGElement, LensInterval>('g.lens')
    .data(shown, (iv) => `${iv.kind}:${iv.row}`)
    .join((enter) => {
      const l = enter.append('g');
      l.append('path').attr('class', 'lens-bracket');
      l.append('text').attr('class', 'lens-label');
      l.append('title');
      return l;
    })
    .each(function (iv) {
      const x0 = Math.max(left, x(iv.start));
      const x1 = Math.min(right, x(iv.end));
      const y = layout.laneTop(iv.cpu) + TRACKS * scales.track + 2 + iv.level * LENS_ROW;
      const mid = y + 3;
      set(this, 'class', `lens lens-${iv.kind}`);
      set(this, 'data-lens', iv.kind);
      set(this, 'data-cpu', String(iv.cpu));
      set(this, 'data-row', String(iv.row));
      if (subject.has(iv.kind)) set(this, 'data-subject', 'interval');
      else this.removeAttribute('data-subject');
      // Open ends where the interval runs past the window: no tick there.
      const tick0 = x(iv.start) >= left ? `M${x0},${y}V${y + 6}` : '';
      const tick1 = x(iv.end) <= right ? `M${x1},${y}V${y + 6}` : '';
      set(this.children[0], 'd', `${tick0}M${x0},${mid}H${Math.max(x0 + 1, x1)}${tick1}`);
      const text = this.children[1] as SVGTextElement;
      const row = `${iv.cpu}:${iv.level}`;
      const free = taken.get(row) ?? -Infinity;
      // Inside the bracket when it fits, else beside it where there is room; crowded, the
      // duration alone; no room at all, no text (the tooltip still has it).
      let label = lensLabel(iv);
      let place = placeLabel(label.length * CHAR_W, x0, x1, left, right, free);
      if (!place) {
        label = formatNs(iv.end - iv.start);
        place = placeLabel(label.length * CHAR_W, x0, x1, left, right, free);
      }
      if (place) taken.set(row, place.end + 6);
      set(text, 'x', String(place?.x ?? x0));
      set(text, 'y', String(y + 15));
      set(text, 'text-anchor', place?.anchor ?? 'start');
      setText(text, place ? label : '');
      setText(
        this.children[2] as SVGTitleElement,
        `${label} on CPU ${iv.cpu}: ${formatNs(iv.start)} to ${formatNs(iv.end)}`,
      );
    });
  return shown.length;
}

/** Where a label of width w goes for a bracket [x0, x1], right of `free`; null if nowhere. */
function placeLabel(
  w: number,
  x0: number,
  x1: number,
  left: number,
  right: number,
  free: number,
): { x: number; anchor: string; end: number } | null {
  const mid = (x0 + x1) / 2;
  if (x1 - x0 >= w + 8 && mid - w / 2 >= free)
    return { x: mid, anchor: 'middle', end: mid + w / 2 };
  if (x1 + 4 + w <= right && x1 + 4 >= free) return { x: x1 + 4, anchor: 'start', end: x1 + 4 + w };
  const start = Math.max(left, x0 - 4 - w);
  if (start >= free && start + w <= x0) return { x: start + w, anchor: 'end', end: start + w };
  return null;
}
