// A step's named stretch of a few ns (Step.magnify) inside a window microseconds wide is a
// sliver at the window's scale, its events on top of each other. When it is narrower than
// MAGNIFY_BELOW px it is drawn again, enlarged across the plot, in an inset under the lanes
// it concerns (room the layout keeps there), with its time range on a small axis and a
// bracket from the sliver to the inset.
import { scaleLinear, type Selection } from 'd3';
import { TRACKS } from '../../model/lanes';
import { bandBox } from '../../model/markShape';
import { kindName, type Trace } from '../../trace/trace';
import { trackOf, type Columns } from '../columns';
import { set } from '../dom';
import { formatNs, type Scales } from '../scales';

/** Narrower than this on screen, a named stretch is magnified. */
export const MAGNIFY_BELOW = 24;
/** The inset's axis and bracket above its rows, and the gap under them, in px. */
const HEAD = 30;
const FOOT = 8;
/** Instants (no duration) drawn this wide in the inset, so they show at all. */
const INSTANT_W = 4;

export interface Magnified {
  range: [number, number];
  /** The CPUs it concerns: those with an event in the range, not folded away. */
  cpus: number[];
  /** Rows in the range on those CPUs. */
  rows: number[];
}

/**
 * What to magnify: `range` (ns) when it is `px` wide on screen, fewer than MAGNIFY_BELOW, and
 * some unfolded CPU has an event in it; else null.
 */
export function toMagnified(
  trace: Trace,
  range: readonly [number, number] | null | undefined,
  px: number,
  folded: (cpu: number) => boolean,
): Magnified | null {
  if (!range || px >= MAGNIFY_BELOW) return null;
  const [a, b] = range;
  const rows: number[] = [];
  const cpus = new Set<number>();
  for (let i = 0; i < trace.n; i++) {
    const t = trace.time[i];
    if (t > b || t + trace.dur[i] < a || folded(trace.cpu[i])) continue;
    rows.push(i);
    cpus.add(trace.cpu[i]);
  }
  if (!rows.length) return null;
  return { range: [a, b], cpus: [...cpus].sort((x, y) => x - y), rows };
}

/** The height the inset takes under its last CPU's lane, at sub-track height `track`. */
export function magnifierHeight(m: Magnified, track: number): number {
  return HEAD + m.cpus.length * TRACKS * track + FOOT;
}

export function renderMagnifier(
  g: Selection<SVGGElement, unknown, null, undefined>,
  m: Magnified | null,
  scales: Scales,
  { trace, pos }: Columns,
  /** Extra rows already under the last CPU's lane (the latency lens), in px. */
  above: number,
): void {
  g.selectAll('*').remove();
  g.attr('data-from', m?.range[0] ?? null).attr('data-to', m?.range[1] ?? null);
  if (!m) return;
  const { layout, plot, track } = scales;
  const last = m.cpus[m.cpus.length - 1];
  const top = layout.laneTop(last) + TRACKS * track + above + 4;
  const [l, r] = [plot[0] + 6, plot[1] - 6];
  const xi = scaleLinear().domain(m.range).range([l, r]);
  const rowY = (k: number) => top + HEAD + k * TRACKS * track;
  const h = magnifierHeight(m, track) - FOOT;

  // The bracket: the sliver outlined on its lanes, and lines from it to the inset's corners.
  const sx0 = scales.x(pos.toPos(m.range[0]));
  const sx1 = Math.max(sx0 + 2, scales.x(pos.toPos(m.range[1])));
  const sy0 = layout.laneTop(m.cpus[0]);
  g.append('rect')
    .attr('class', 'magnifier-sliver')
    .attr('x', sx0 - 2)
    .attr('y', sy0)
    .attr('width', sx1 - sx0 + 4)
    .attr('height', top - 4 - sy0);
  g.append('path')
    .attr('class', 'magnifier-bracket')
    .attr('d', `M${sx0 - 2},${top - 4}L${l},${top}M${sx1 + 2},${top - 4}L${r},${top}`);
  g.append('rect')
    .attr('class', 'magnifier-frame')
    .attr('x', l - 4)
    .attr('y', top)
    .attr('width', r - l + 8)
    .attr('height', h);

  // Its own axis: the range's ends and a few ticks between, and how much it is enlarged.
  // As many ticks as labels fit: a label like "1.436 µs" takes about 60 px.
  const ticks = xi.ticks(Math.max(2, Math.min(5, Math.floor((r - l) / 90))));
  const axis = g.append('g').attr('class', 'magnifier-axis');
  for (const t of ticks) {
    axis
      .append('line')
      .attr('x1', xi(t))
      .attr('x2', xi(t))
      .attr('y1', top + HEAD - 6)
      .attr('y2', top + HEAD - 2);
    axis
      .append('text')
      .attr('x', xi(t))
      .attr('y', top + HEAD - 9)
      // A label at the inset's edge is set inside it, not across its frame.
      .attr('text-anchor', xi(t) > r - 20 ? 'end' : xi(t) < l + 20 ? 'start' : 'middle')
      .text(formatNs(t));
  }
  const times = ((r - l) / (sx1 - sx0)).toFixed(0);
  g.append('text')
    .attr('class', 'magnifier-label')
    .attr('x', plot[0] - 8)
    .attr('y', top + 12)
    .attr('text-anchor', 'end')
    .text(`${formatNs(m.range[0])}–${formatNs(m.range[1])}`);
  g.append('text')
    .attr('class', 'magnifier-times')
    .attr('x', plot[0] - 8)
    .attr('y', top + 25)
    .attr('text-anchor', 'end')
    .text(`magnified ×${times}`);

  // The events in the range, on their CPUs' rows of the inset, cut to the range.
  const marks = g.append('g').attr('class', 'magnifier-marks');
  for (const i of m.rows) {
    const k = m.cpus.indexOf(trace.cpu[i]);
    const kind = trace.kind[i];
    const t0 = Math.max(m.range[0], trace.time[i]);
    const t1 = Math.min(m.range[1], trace.time[i] + trace.dur[i]);
    const instant = trace.dur[i] === 0;
    const x0 = instant ? xi(t0) - INSTANT_W / 2 : xi(t0);
    const w = instant ? INSTANT_W : Math.max(1, xi(t1) - xi(t0));
    const band = bandBox(kind, rowY(k) + trackOf(kind) * track + 1, track - 2);
    const rect = marks.append('rect').node();
    if (!rect) continue;
    set(rect, 'class', `mark span k-${kindName(kind)}${instant ? ' instant' : ''}`);
    set(rect, 'data-kind', kindName(kind));
    set(rect, 'data-row', String(i));
    set(rect, 'x', String(x0));
    set(rect, 'y', String(instant ? rowY(k) + trackOf(kind) * track : band.y));
    set(rect, 'width', String(w));
    set(rect, 'height', String(instant ? track : band.h));
    const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
    title.textContent = `${kindName(kind)} on CPU ${trace.cpu[i]}: ${formatNs(trace.time[i])} + ${formatNs(trace.dur[i])}`;
    rect.append(title);
  }
}
