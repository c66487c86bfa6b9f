// Span mark (SVG): one rect per trace row in `rows`, placed by position and sub-track.
// Used when few marks are visible, so they stay in the DOM for tests, export and tooltips.
import type { Selection } from 'd3';
import { bandBox } from '../../model/markShape';
import { kindName } from '../../trace/trace';
import { trackOf, type Columns } from '../columns';
import { set } from '../dom';
import { formatNs, type Scales } from '../scales';

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
  // The tooltip is made when the pointer first rests on a mark: a <title> per rect doubled
  // the elements a zoom frame creates, for text nobody reads until they hover.
  g.on('pointerover', (ev: PointerEvent) => {
    const el = ev.target;
    if (!(el instanceof Element) || el.localName !== 'rect' || el.firstChild) return;
    const i = Number(el.getAttribute('data-row'));
    const t = document.createElementNS('http://www.w3.org/2000/svg', 'title');
    t.textContent = spanTitle(i, trace);
    el.append(t);
  });
  g.selectAll<SVGRectElement, number>('rect')
    .data(rows, (i) => i)
    .join('rect')
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
      const k0 = trace.kind[i];
      const band = bandBox(k0, scales.trackY(trace.cpu[i], trackOf(k0)) + 1, scales.track - 2);
      set(this, 'y', String(band.y));
      set(this, 'width', String(Math.max(1, x(pos.rowEnd(i)) - x0)));
      set(this, 'height', String(band.h));
    });
}

function spanTitle(i: number, trace: Columns['trace']): string {
  return `${kindName(trace.kind[i])} on CPU ${trace.cpu[i]}: ${formatNs(trace.time[i])} + ${formatNs(trace.dur[i])} (row ${i})`;
}
