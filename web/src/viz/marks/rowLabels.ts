// Labels of single rows (model/asidLabels.ts): a short text just right of the row's mark, in its
// sub-track (haloed in the panel colour over the spans), so a step's numbers sit
// where the reader is told to look. A folded CPU or a row outside the window gets none.
// Marks closer together than a label is wide would print their labels over each other: those
// are moved along the sub-track (viz/labelLayout.ts) with a leader back to their mark, and
// one with no room near its mark is left out (the inspector still has its number).
import type { Selection } from 'd3';
import type { RowLabel } from '../../model/asidLabels';
import { trackOf, type Columns } from '../columns';
import { placeLabels } from '../labelLayout';
import { type Scales } from '../scales';
import { textWidth } from '../textWidth';

/** Where a label starts, right of its mark (px). */
const OFFSET = 11;
/** Farther than this from its mark, a label would be read as another's (px). */
const MAX_SHIFT = 60;

export function renderRowLabels(
  g: Selection<SVGGElement, unknown, null, undefined>,
  labels: readonly RowLabel[],
  scales: Scales,
  { trace, pos }: Columns,
): number {
  const [left, right] = scales.plot;
  const near = labels
    .filter((l) => !scales.layout.folded(trace.cpu[l.row]))
    .map((l) => ({
      ...l,
      at: scales.x(pos.rowStart(l.row)),
      x: 0,
      y: scales.trackY(trace.cpu[l.row], trackOf(trace.kind[l.row])),
    }))
    .filter((l) => l.at >= left && l.at <= right);
  const spots = placeLabels(
    near.map((l) => ({
      group: Math.round(l.y),
      want: l.at + OFFSET,
      width: textWidth(g.node(), 'row-label', l.text, 6.5),
    })),
    { bounds: [left, right], gap: 4, maxShift: MAX_SHIFT },
  );
  const shown = near.flatMap((l, i) => {
    const s = spots[i];
    return s ? [{ ...l, x: s.x, moved: Math.abs(s.x - (l.at + OFFSET)) > 0.5 }] : [];
  });
  const baseline = (d: (typeof shown)[number]) => d.y + scales.track / 2 + 3.5;
  g.selectAll<SVGLineElement, (typeof shown)[number]>('line.row-leader')
    .data(
      shown.filter((d) => d.moved),
      (d) => d.row,
    )
    .join('line')
    .attr('class', 'row-leader')
    .attr('x1', (d) => d.at)
    .attr('x2', (d) => d.x)
    .attr('y1', (d) => baseline(d) + 1)
    .attr('y2', (d) => baseline(d) + 1);
  g.selectAll<SVGTextElement, (typeof shown)[number]>('text.row-label')
    .data(shown, (d) => d.row)
    .join('text')
    .attr('class', 'row-label')
    .attr('data-row', (d) => d.row)
    .attr('data-cpu', (d) => trace.cpu[d.row])
    .attr('x', (d) => d.x)
    .attr('y', baseline)
    .text((d) => d.text);
  return shown.length;
}
