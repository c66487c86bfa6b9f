// Measured per-event overlay on a run kept in its worker: the CSV's events (content/eventCsv.ts)
// over their CPU's strip, hollow and dashed as on the page-held timeline (marks/measured.ts,
// whose marks and drawing this shares), never filled like the model's cells. A strip has no
// gap under it to hold them, so a mark spans the strip's height (at least 3 px); its tooltip
// says it was measured and where. The events are the page's own (a few thousand at most): no
// question to the worker.
import { scaleLinear, select } from 'd3';
import type { MeasuredEvents } from '../content/eventCsv';
import { layer } from './layer';
import { drawMeasuredMarks, measuredMarks } from './marks/measured';
import { REMOTE_AXIS, type RemoteLayout } from './remote';

/** Draws `measured`'s events in the window (or clears them when null); returns how many. */
export function renderRemoteMeasured(
  svg: SVGSVGElement,
  layout: RemoteLayout,
  win: [number, number],
  measured: MeasuredEvents | null,
): number {
  const { plot, strip, cpus } = layout;
  const x = scaleLinear().domain(win).range(plot);
  const events = measured?.events ?? [];
  const marks = measuredMarks(
    events,
    x,
    (cpu) => (cpu < cpus ? REMOTE_AXIS + cpu * strip : null),
    plot,
  );
  drawMeasuredMarks(layer(select(svg), 'remote-measured'), marks, events, Math.max(3, strip - 1));
  return marks.length;
}
