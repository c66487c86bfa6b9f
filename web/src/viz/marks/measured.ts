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
import { formatNs, LANE_GAP, TRACK_HEIGHT, type Scales } from '../scales';
import { set } from '../dom';

/** The most measured marks drawn in one window; beyond, a lane keeps one per pixel column. */
export const MAX_MEASURED_MARKS = 3000;

const BAR_H = Math.max(3, LANE_GAP - 4);

interface Mark {
  i: number;
  x: number;
  w: number;
  y: number;
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
  const [left, right] = scales.plot;
  const cpus = layout.rows.length ? Math.max(...rowsCpus(scales)) + 1 : 0;
  const marks: Mark[] = [];
  const lanes = new Map<number, string>();
  const seen = new Set<string>();
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e.cpu >= cpus) continue;
    const x0 = x(pos.toPos(e.time));
    const x1 = e.duration > 0 ? x(pos.toPos(e.time + e.duration)) : x0;
    if (x1 < left - 6 || x0 > right + 6) continue;
    const y = layout.laneTop(e.cpu) + TRACKS * TRACK_HEIGHT + 2;
    if (marks.length >= MAX_MEASURED_MARKS) {
      const key = `${y}:${Math.round(x0)}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    marks.push({ i, x: x0, w: Math.max(0, x1 - x0), y });
    if (!lanes.has(y)) lanes.set(y, measuredLabel(e.machine, e.source));
  }
  const root = g.node();
  if (root) set(root, 'class', 'measured');

  g.selectAll<SVGGElement, Mark>('g.measured-mark')
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
      this.setAttribute('data-cpu', String(e.cpu));
      this.setAttribute('data-event', e.event);
      this.setAttribute('data-row', `measured-${e.row}`);
      const path = this.firstChild as SVGPathElement;
      // A bar for a duration (at least 3 px wide), a ▽ for an instant.
      const d =
        m.w >= 3 ? `M${m.x},${m.y}h${m.w}v${BAR_H}h${-m.w}Z` : `M${m.x - 3},${m.y}h6l-3,${BAR_H}Z`;
      path.setAttribute('d', d);
      (this.lastChild as SVGTitleElement).textContent = measuredTitle(e);
    });

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
