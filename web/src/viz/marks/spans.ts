// Span mark (SVG): one rect per trace row in `rows`, placed by position and sub-track.
// Used when few marks are visible, so they stay in the DOM for tests, export and tooltips.
import type { Selection } from 'd3';
import { kindName } from '../../sim/trace';
import { trackOf, type Columns } from '../columns';
import { formatNs, TRACK_HEIGHT, type Scales } from '../scales';

export interface MarkState {
  selected: number | null;
  /** Rows to emphasise; when set, the others are dimmed. */
  highlight: ReadonlySet<number> | null;
}

export function renderSpans(
  g: Selection<SVGGElement, unknown, null, undefined>,
  rows: Int32Array,
  scales: Scales,
  { trace, pos }: Columns,
  state: MarkState,
): void {
  const { x } = scales;
  g.selectAll<SVGRectElement, number>('rect')
    .data(rows, (i) => i)
    .join((enter) =>
      // Keyed by row, so a rect's tooltip never changes: written once, not every frame.
      enter
        .append('rect')
        .call((r) =>
          r
            .append('title')
            .text(
              (i) =>
                `${kindName(trace.kind[i])} on CPU ${trace.cpu[i]}: ${formatNs(trace.time[i])} + ${formatNs(trace.dur[i])} (row ${i})`,
            ),
        ),
    )
    .attr('class', (i) => {
      const k = `mark span k-${kindName(trace.kind[i])}`;
      if (i === state.selected) return `${k} selected`;
      if (state.highlight) return state.highlight.has(i) ? `${k} highlighted` : `${k} dim`;
      return k;
    })
    .attr('data-kind', (i) => kindName(trace.kind[i]))
    .attr('data-row', (i) => i)
    .attr('data-cpu', (i) => trace.cpu[i])
    .attr('x', (i) => x(pos.rowStart(i)))
    .attr('y', (i) => scales.trackY(trace.cpu[i], trackOf(trace.kind[i])) + 1)
    .attr('width', (i) => Math.max(1, x(pos.rowEnd(i)) - x(pos.rowStart(i))))
    .attr('height', TRACK_HEIGHT - 2);
}
