// Measured per-event overlay on a run kept in its worker: the CSV's events (content/eventCsv.ts)
// over their CPU's strip, hollow and dashed as on the page-held timeline (marks/measured.ts),
// never filled like the model's cells. A strip has no gap under it to hold them, so a mark
// spans the strip's height (at least 3 px); its tooltip says it was measured and where. The
// events are the page's own (a few thousand at most): no question to the worker.
import { scaleLinear, select } from 'd3';
import type { MeasuredEvents } from '../content/eventCsv';
import { set } from './dom';
import { layer } from './layer';
import { MAX_MEASURED_MARKS, measuredTitle } from './marks/measured';
import { REMOTE_AXIS, type RemoteLayout } from './remote';

interface Mark {
  i: number;
  x: number;
  w: number;
  y: number;
}

/** Draws `measured`'s events in the window (or clears them when null); returns how many. */
export function renderRemoteMeasured(
  svg: SVGSVGElement,
  layout: RemoteLayout,
  win: [number, number],
  measured: MeasuredEvents | null,
): number {
  const { plot, strip, cpus } = layout;
  const x = scaleLinear().domain(win).range(plot);
  const h = Math.max(3, strip - 1);
  const events = measured?.events ?? [];
  const marks: Mark[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e.cpu >= cpus) continue;
    const x0 = x(e.time);
    const x1 = e.duration > 0 ? x(e.time + e.duration) : x0;
    if (x1 < plot[0] - 6 || x0 > plot[1] + 6) continue;
    const y = REMOTE_AXIS + e.cpu * strip;
    // Past the cap, one mark a pixel column of a strip, as on the page-held timeline.
    if (marks.length >= MAX_MEASURED_MARKS) {
      const key = `${y}:${Math.round(x0)}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    marks.push({ i, x: x0, w: Math.max(0, x1 - x0), y });
  }
  layer(select(svg), 'remote-measured')
    .selectAll<SVGGElement, Mark>('g.measured-mark')
    .data(marks, (m) => String(m.i))
    .join((enter) => {
      const g = enter.append('g').attr('class', 'measured-mark');
      g.append('path')
        .attr('fill', 'none')
        .attr('stroke', 'currentColor')
        .attr('stroke-width', 1)
        .attr('stroke-dasharray', '2 1');
      g.append('title');
      return g;
    })
    .each(function (m) {
      const e = events[m.i];
      set(this, 'data-cpu', String(e.cpu));
      set(this, 'data-event', e.event);
      set(this, 'data-row', `measured-${e.row}`);
      // A bar for a duration (at least 3 px wide), a ▽ for an instant.
      const d = m.w >= 3 ? `M${m.x},${m.y}h${m.w}v${h}h${-m.w}Z` : `M${m.x - 3},${m.y}h6l-3,${h}Z`;
      set(this.firstChild as SVGPathElement, 'd', d);
      const title = this.lastChild as SVGTitleElement;
      const text = measuredTitle(e);
      if (title.textContent !== text) title.textContent = text;
    });
  return marks.length;
}
