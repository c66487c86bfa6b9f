// Interaction overlay: the cursor line and outlines around the selected and highlighted rows.
// Outlines work the same whether the rows are drawn in SVG or on the canvas, and mark the
// selection by shape (a thick outline), not by colour alone.
import type { Selection } from 'd3';
import { trackOf, type Columns } from '../columns';
import { formatNs, TRACK_HEIGHT, type Scales } from '../scales';

export interface OverlayState {
  cursor: number | null;
  selected: number | null;
  highlight: readonly number[];
  /** A/B: flushes whose match in the other run differs (a thick dashed outline each). */
  differs?: readonly number[];
  /** A/B: the flush matched with the other run's selection (a double outline). */
  matched?: number | null;
}

/** Outlines beyond this many highlighted rows are not drawn (the dimming still shows them). */
const MAX_OUTLINES = 400;

export function renderOverlay(
  g: Selection<SVGGElement, unknown, null, undefined>,
  scales: Scales,
  columns: Columns,
  state: OverlayState,
): void {
  const { trace, pos } = columns;
  const { x } = scales;
  const [left, right] = scales.plot;
  const outline = (i: number) => {
    const x0 = x(pos.rowStart(i));
    const x1 = x(pos.rowEnd(i));
    const w = Math.max(4, x1 - x0);
    return {
      x: x0 + (x1 - x0) / 2 - w / 2 - 1.5,
      y: scales.trackY(trace.cpu[i], trackOf(trace.kind[i])) - 1,
      w: w + 3,
      h: TRACK_HEIGHT + 2,
    };
  };
  const rows = [
    ...(state.differs ?? []).slice(0, MAX_OUTLINES).map((i) => ({ i, cls: 'diff-outline' })),
    ...state.highlight.slice(0, MAX_OUTLINES).map((i) => ({ i, cls: 'highlight-outline' })),
    ...(state.matched != null ? [{ i: state.matched, cls: 'match-outline' }] : []),
    ...(state.selected !== null ? [{ i: state.selected, cls: 'selection-outline' }] : []),
  ].filter(({ i }) => i >= 0 && i < trace.n);
  g.selectAll<SVGRectElement, { i: number; cls: string }>('rect')
    .data(rows)
    .join('rect')
    .attr('class', (d) => d.cls)
    .attr('data-row', (d) => d.i)
    .each(function (d) {
      const o = outline(d.i);
      this.setAttribute('x', String(o.x));
      this.setAttribute('y', String(o.y));
      this.setAttribute('width', String(o.w));
      this.setAttribute('height', String(o.h));
    });

  const cx = state.cursor === null ? null : x(pos.toPos(state.cursor));
  const visible = cx !== null && cx >= left && cx <= right;
  g.selectAll('g.cursor')
    .data(visible ? [state.cursor as number] : [])
    .join((enter) => {
      const c = enter.append('g').attr('class', 'cursor');
      c.append('line');
      c.append('text');
      return c;
    })
    .call((c) =>
      c
        .select('line')
        .attr('x1', cx ?? 0)
        .attr('x2', cx ?? 0)
        .attr('y1', 14)
        .attr('y2', scales.height),
    )
    .call((c) =>
      c
        .select('text')
        .attr('x', (cx ?? 0) + 4)
        .attr('y', 11)
        .text((t) => formatNs(t)),
    );
}
