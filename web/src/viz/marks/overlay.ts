// Interaction overlay: the cursor line and outlines around the selected and highlighted rows.
// Outlines work the same whether the rows are drawn in SVG or on the canvas, and mark the
// selection by shape (a thick outline), not by colour alone.
import type { Selection } from 'd3';
import { EventKind, kindName } from '../../trace/trace';
import { trackOf, type Columns } from '../columns';
import { formatNs, type Scales } from '../scales';

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
/** A highlighted row narrower than this (an instant) gets a box this wide, filled, to be seen. */
export const INSTANT_BOX = 14;

export function renderOverlay(
  g: Selection<SVGGElement, unknown, null, undefined>,
  scales: Scales,
  columns: Columns,
  state: OverlayState,
): void {
  const { trace, pos } = columns;
  const { x } = scales;
  const [left, right] = scales.plot;
  // A span that runs past the window's edge is outlined up to the edge only: the outline is
  // where the reader looks, and what a test measures as on screen.
  const outline = (i: number, lit: boolean) => {
    const x0 = Math.max(left - 2, x(pos.rowStart(i)));
    const x1 = Math.min(right + 2, x(pos.rowEnd(i)));
    const instant = lit && x1 - x0 < INSTANT_BOX - 3;
    // A violation's ✕ is its own big mark: its box stays an outline, not a fill over it.
    const filled = instant && trace.kind[i] !== EventKind.InvariantViolated;
    const w = Math.max(instant ? INSTANT_BOX - 3 : 4, x1 - x0);
    const grow = instant ? 3 : 1;
    return {
      x: x0 + (x1 - x0) / 2 - w / 2 - 1.5,
      y: scales.trackY(trace.cpu[i], trackOf(trace.kind[i])) - grow,
      w: w + 3,
      h: scales.track + 2 * grow,
      instant: filled,
    };
  };
  // Instants at one spot (40 misses in one touch, a violation per stale page) share one box:
  // stacked, their fills would turn opaque and hide what they mark.
  const spot = new Set<string>();
  const lit = state.highlight.slice(0, MAX_OUTLINES).filter((i) => {
    if (i < 0 || i >= trace.n || trace.dur[i] > 0) return true;
    const key = `${Math.round(x(pos.rowStart(i)))}:${trace.cpu[i]}:${trace.kind[i]}`;
    if (spot.has(key)) return false;
    spot.add(key);
    return true;
  });
  const rows = [
    ...(state.differs ?? [])
      .slice(0, MAX_OUTLINES)
      .map((i) => ({ i, cls: 'diff-outline', lit: false })),
    ...lit.map((i) => ({ i, cls: 'highlight-outline', lit: true })),
    ...(state.matched != null ? [{ i: state.matched, cls: 'match-outline', lit: false }] : []),
    ...(state.selected !== null
      ? [{ i: state.selected, cls: 'selection-outline', lit: false }]
      : []),
  ].filter(({ i }) => i >= 0 && i < trace.n);
  g.selectAll<SVGRectElement, { i: number; cls: string; lit: boolean }>('rect')
    .data(rows)
    .join('rect')
    .attr('class', (d) =>
      d.lit && outline(d.i, true).instant ? `${d.cls} highlight-instant` : d.cls,
    )
    .attr('data-row', (d) => d.i)
    // What a guided step points at, for tests and assistive tools alike.
    .attr('data-subject', (d) => (d.lit ? 'mark' : null))
    .attr('data-kind', (d) => (d.lit ? kindName(trace.kind[d.i]) : null))
    .each(function (d) {
      const o = outline(d.i, d.lit);
      this.setAttribute('x', String(o.x));
      this.setAttribute('y', String(o.y));
      this.setAttribute('width', String(o.w));
      this.setAttribute('height', String(o.h));
    });

  const cx = state.cursor === null ? null : x(pos.toPos(state.cursor));
  const visible = cx !== null && cx >= left && cx <= right;
  // Near the right edge the time goes on the cursor's left, or the plot would cut it off.
  const flip =
    visible && (cx as number) + 4 + formatNs(state.cursor as number).length * LABEL_CHAR_PX > right;
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
        .attr('x', (cx ?? 0) + (flip ? -4 : 4))
        .attr('text-anchor', flip ? 'end' : 'start')
        .attr('y', 11)
        .text((t) => formatNs(t)),
    );
}

/** About the widest a character of the cursor's time label gets (11–12 px sans-serif). */
export const LABEL_CHAR_PX = 8;
