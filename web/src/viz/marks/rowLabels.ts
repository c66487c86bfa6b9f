// Labels of single rows (model/asidLabels.ts): a short text just right of the row's mark, in its
// sub-track (haloed in the panel colour over the spans), so a step's numbers sit
// where the reader is told to look. A folded CPU or a row outside the window gets none.
import type { Selection } from 'd3';
import type { RowLabel } from '../../model/asidLabels';
import { trackOf, type Columns } from '../columns';
import { type Scales } from '../scales';

export function renderRowLabels(
  g: Selection<SVGGElement, unknown, null, undefined>,
  labels: readonly RowLabel[],
  scales: Scales,
  { trace, pos }: Columns,
): number {
  const [left, right] = scales.plot;
  const shown = labels
    .filter((l) => !scales.layout.folded(trace.cpu[l.row]))
    .map((l) => ({
      ...l,
      x: scales.x(pos.rowStart(l.row)),
      y: scales.trackY(trace.cpu[l.row], trackOf(trace.kind[l.row])),
    }))
    .filter((l) => l.x >= left && l.x <= right);
  g.selectAll<SVGTextElement, (typeof shown)[number]>('text.row-label')
    .data(shown, (d) => d.row)
    .join('text')
    .attr('class', 'row-label')
    .attr('data-row', (d) => d.row)
    .attr('data-cpu', (d) => trace.cpu[d.row])
    .attr('x', (d) => d.x + 11)
    .attr('y', (d) => d.y + scales.track / 2 + 3.5)
    .text((d) => d.text);
  return shown.length;
}
