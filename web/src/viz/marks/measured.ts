// Measured per-event overlay (SVG): rows of a per-event CSV (content/eventCsv.ts) drawn in the
// gap under their CPU's lane, so a measured flush or IPI handler sits right under the model's
// marks at the same time. Distinct from the model by shape and label, not colour alone: a
// measured event is a hollow, dashed-outline bar (an instant is a hollow ▽), never a filled
// rect; each lane with measured events is labelled "measured" in the label column, and every
// mark's tooltip says "measured on <machine> (<source>)". Marks are few by construction
// (MAX_EVENTS, and only those in the window are drawn).
import type { Selection } from 'd3';
import { TRACKS } from '../../model/lanes';
import type { PosMap } from '../../model/spacing';
import type { MeasuredEvents } from '../../content/eventCsv';
import { measuredLabel } from '../../content/eventCsv';
import { formatNs, LANE_GAP, type Scales } from '../scales';
import { set } from '../dom';

/** The most measured marks drawn in one window; beyond, a lane keeps one per pixel column. */
export const MAX_MEASURED_MARKS = 3000;

const BAR_H = Math.max(3, LANE_GAP - 4);

export interface MeasuredMark {
  /** The event's index in the CSV's events. */
  i: number;
  x: number;
  w: number;
  y: number;
}

/**
 * The marks of `events` inside the plot [left, right]: `xOf` places a time in px, `yOf` a CPU's
 * mark (null: no such CPU on this timeline). Past MAX_MEASURED_MARKS, one a pixel column of a
 * lane. Shared by the page-held timeline and a kept run's strips (viz/remoteMeasured.ts).
 */
export function measuredMarks(
  events: MeasuredEvents['events'],
  xOf: (ns: number) => number,
  yOf: (cpu: number) => number | null,
  [left, right]: readonly [number, number],
): MeasuredMark[] {
  const marks: MeasuredMark[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const y = yOf(e.cpu);
    if (y === null) continue;
    const x0 = xOf(e.time);
    const x1 = e.duration > 0 ? xOf(e.time + e.duration) : x0;
    if (x1 < left - 6 || x0 > right + 6) continue;
    if (marks.length >= MAX_MEASURED_MARKS) {
      const key = `${y}:${Math.round(x0)}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    marks.push({ i, x: x0, w: Math.max(0, x1 - x0), y });
  }
  return marks;
}

/**
 * Joins `marks` under `g` as hollow, dashed bars `height` px tall (a ▽ for an instant or a
 * bar under 3 px), each with its tooltip and data-cpu / data-event / data-row.
 */
export function drawMeasuredMarks(
  g: Selection<SVGGElement, unknown, null, undefined>,
  marks: readonly MeasuredMark[],
  events: MeasuredEvents['events'],
  height: number,
): void {
  g.selectAll<SVGGElement, MeasuredMark>('g.measured-mark')
    .data(marks, (m) => String(m.i))
    .join((enter) => {
      const m = enter.append('g').attr('class', 'measured-mark');
      // Styled here, not in timeline.css: hollow and dashed, in the text colour.
      m.append('path')
        .attr('fill', 'none')
        .attr('stroke', 'currentColor')
        .attr('stroke-width', 1)
        .attr('stroke-dasharray', '2 1');
      m.append('title');
      return m;
    })
    .each(function (m) {
      const e = events[m.i];
      set(this, 'data-cpu', String(e.cpu));
      set(this, 'data-event', e.event);
      set(this, 'data-row', `measured-${e.row}`);
      const d =
        m.w >= 3
          ? `M${m.x},${m.y}h${m.w}v${height}h${-m.w}Z`
          : `M${m.x - 3},${m.y}h6l-3,${height}Z`;
      set(this.firstChild as SVGPathElement, 'd', d);
      const title = this.lastChild as SVGTitleElement;
      const text = measuredTitle(e);
      if (title.textContent !== text) title.textContent = text;
    });
}

/** Draws `measured` (or clears the layer when null); returns the marks drawn. */
export function renderMeasured(
  g: Selection<SVGGElement, unknown, null, undefined>,
  measured: MeasuredEvents | null,
  scales: Scales,
  pos: PosMap,
): number {
  const events = measured?.events ?? [];
  const { x, layout } = scales;
  const [left] = scales.plot;
  const cpus = layout.rows.length ? Math.max(...rowsCpus(scales)) + 1 : 0;
  const marks = measuredMarks(
    events,
    (ns) => x(pos.toPos(ns)),
    (cpu) => (cpu < cpus ? layout.laneTop(cpu) + TRACKS * scales.track + 2 : null),
    scales.plot,
  );
  // Each lane with measured marks is labelled, with the first one's machine and source.
  const lanes = new Map<number, string>();
  for (const m of marks) {
    const e = events[m.i];
    if (!lanes.has(m.y)) lanes.set(m.y, measuredLabel(e.machine, e.source));
  }
  const root = g.node();
  if (root) set(root, 'class', 'measured');
  drawMeasuredMarks(g, marks, events, BAR_H);

  g.selectAll<SVGTextElement, [number, string]>('text.measured-lane')
    .data([...lanes], (d) => String(d[0]))
    .join((enter) => {
      const t = enter
        .append('text')
        .attr('class', 'measured-lane')
        .attr('font-size', 9)
        .attr('fill', 'currentColor');
      t.append('tspan');
      t.append('title');
      return t;
    })
    .each(function ([y, label]) {
      this.setAttribute('x', String(left - 4));
      this.setAttribute('y', String(y + BAR_H));
      this.setAttribute('text-anchor', 'end');
      (this.firstChild as SVGTSpanElement).textContent = 'measured';
      (this.lastChild as SVGTitleElement).textContent = label;
    });
  return marks.length;
}

/** A measured mark's tooltip: what, where, when, and that it was measured (and on what). */
export function measuredTitle(e: MeasuredEvents['events'][number]): string {
  const dur = e.duration > 0 ? `, ${formatNs(e.duration)}` : '';
  return `${e.event} on CPU ${e.cpu} at ${formatNs(e.time)}${dur} — ${measuredLabel(e.machine, e.source)} (row ${e.row})`;
}

function rowsCpus(scales: Scales): number[] {
  const out: number[] = [];
  for (const r of scales.layout.rows) {
    if (r.type === 'cpu') out.push(r.cpu);
    else if (r.type !== 'group') out.push(r.last);
  }
  return out.length ? out : [-1];
}
