// Latency-lens mark (SVG): each interval of model/lens.ts (and each part of a flush chosen in
// the analysis, model/flushBrackets.ts) as a bracket under its CPU's lane,
// labelled with what it is and how long it lasts, so a wait reads as a length on the timeline
// rather than a number in the summary. Few per run (one per wait), so always SVG. Labels that
// would run into each other are moved apart (viz/labelLayout.ts), with a leader when moved.
import type { Selection } from 'd3';
import { LENS_NAMES, lensRows, type LensInterval } from '../../model/lens';
import { placeLabels } from '../labelLayout';
import { textWidth } from '../textWidth';
import { TRACKS } from '../../model/lanes';
import { set, setText } from '../dom';
import { formatNs, type Scales } from '../scales';

/** Height of one row of brackets under a lane. */
export const LENS_ROW = 20;
/** Estimated width of a character of a label (10.5 px, semibold), where none is measured. */
const CHAR_W = 7;

export function lensLabel(iv: LensInterval): string {
  const name = iv.kind === 'flush_part' ? (iv.label ?? 'part') : LENS_NAMES[iv.kind];
  return `${name} ${formatNs(iv.end - iv.start)}`;
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
  const rows = lensRows(intervals);
  const spots = lensLabelSpots(g, shown, scales, rows);
  g.selectAll<SVGGElement, LensInterval>('g.lens')
    .data(shown, (iv) => `${iv.kind}:${iv.row}:${iv.label ?? ''}`)
    .join((enter) => {
      const l = enter.append('g');
      l.append('path').attr('class', 'lens-bracket');
      l.append('text').attr('class', 'lens-label');
      l.append('title');
      l.append('line').attr('class', 'lens-leader');
      return l;
    })
    .each(function (iv, i) {
      const x0 = Math.max(left, x(iv.start));
      const x1 = Math.min(right, x(iv.end));
      const top = layout.laneTop(iv.cpu) + TRACKS * scales.track + 2;
      const y = top + iv.level * LENS_ROW;
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
      const spot = spots[i];
      const ty = top + (spot?.row ?? iv.level) * LENS_ROW + 15;
      set(text, 'x', String(spot?.x ?? x0));
      set(text, 'y', String(ty));
      set(text, 'text-anchor', 'start');
      setText(text, spot?.label ?? '');
      setText(
        this.children[2] as SVGTitleElement,
        `${lensLabel(iv)} on CPU ${iv.cpu}: ${formatNs(iv.start)} to ${formatNs(iv.end)}`,
      );
      // A label moved off its bracket points back at it: from the label's top to the bracket.
      const leader = this.children[3] as SVGLineElement;
      if (spot?.moved) {
        const cx = spot.x + spot.width / 2;
        set(leader, 'x1', String(cx));
        set(leader, 'y1', String(ty - 10));
        set(leader, 'x2', String(Math.min(x1, Math.max(x0, cx))));
        set(leader, 'y2', String(mid));
        leader.removeAttribute('display');
      } else set(leader, 'display', 'none');
    });
  return shown.length;
}

interface LensSpot {
  x: number;
  row: number;
  width: number;
  label: string;
  moved: boolean;
}

/** A label farther than this from its bracket is shortened or left out (px). */
const MAX_SHIFT = 160;

/**
 * Where each interval's label goes: centred under its bracket, else the nearest free place in
 * its CPU's lens rows (viz/labelLayout.ts); crowded, the duration alone; no room at all, no
 * text (the tooltip still has it).
 */
function lensLabelSpots(
  g: Selection<SVGGElement, unknown, null, undefined>,
  shown: readonly LensInterval[],
  scales: Scales,
  rows: ReadonlyMap<number, number>,
): (LensSpot | null)[] {
  const { x, layout } = scales;
  const [left, right] = scales.plot;
  const full = shown.map(lensLabel);
  const short = shown.map((iv) => formatNs(iv.end - iv.start));
  const place = (labels: readonly string[]) =>
    placeLabels(
      shown.map((iv, i) => {
        const w = textWidth(g.node(), 'lens-label', labels[i], CHAR_W);
        const x0 = Math.max(left, x(iv.start));
        const x1 = Math.min(right, x(iv.end));
        return {
          group: Math.round(layout.laneTop(iv.cpu)),
          want: (x0 + x1) / 2 - w / 2,
          width: w,
          row: iv.level,
          rows: rows.get(iv.cpu) ?? iv.level + 1,
        };
      }),
      { bounds: [left, right], gap: LABEL_GAP, rowCost: 2 * LENS_ROW, maxShift: MAX_SHIFT },
    );
  let labels = full;
  let spots = place(labels);
  if (spots.some((s) => s === null)) {
    labels = spots.map((s, i) => (s ? full[i] : short[i]));
    spots = place(labels);
  }
  return spots.map((s, i) =>
    s
      ? { ...s, label: labels[i], width: textWidth(g.node(), 'lens-label', labels[i], CHAR_W) }
      : null,
  );
}

/** Space between two labels of a row, so two never read as one. */
const LABEL_GAP = 10;
