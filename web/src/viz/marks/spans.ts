// Span mark (SVG): one rect per trace row in `rows`, placed by position and sub-track.
// Used when few marks are visible, so they stay in the DOM for tests, export and tooltips.
import type { Selection } from 'd3';
import { kindName } from '../../sim/trace';
import { trackOf, type Columns } from '../columns';
import { set } from '../dom';
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
    .each(function (i) {
      // Only x and width move with the window; the rest is written when it changes, so a
      // pan or zoom frame does not restyle (class) or relayout (y) every mark.
      const k = `mark span k-${kindName(trace.kind[i])}`;
      let cls = k;
      if (i === state.selected) cls = `${k} selected`;
      else if (state.highlight) cls = state.highlight.has(i) ? `${k} highlighted` : `${k} dim`;
      set(this, 'class', cls);
      set(this, 'data-kind', kindName(trace.kind[i]));
      set(this, 'data-row', String(i));
      set(this, 'data-cpu', String(trace.cpu[i]));
      const x0 = x(pos.rowStart(i));
      set(this, 'x', String(x0));
      set(this, 'y', String(scales.trackY(trace.cpu[i], trackOf(trace.kind[i])) + 1));
      set(this, 'width', String(Math.max(1, x(pos.rowEnd(i)) - x0)));
      set(this, 'height', String(TRACK_HEIGHT - 2));
    });
}
