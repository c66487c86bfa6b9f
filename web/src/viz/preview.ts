// A thumbnail of a run for the landing page: one thin lane per CPU (up to 8), spans drawn in
// their kind's colour over the whole run. Static, no interaction.
import { select } from 'd3';
import { SPAN_TRACK } from '../model/lanes';
import { kindName, type Trace } from '../trace/trace';

const MAX_LANES = 8;

export function renderPreview(
  svgEl: SVGSVGElement,
  trace: Trace,
  width: number,
  height: number,
): void {
  const lanes = Math.min(MAX_LANES, Math.max(1, trace.cpus));
  let end = 1;
  for (let i = 0; i < trace.n; i++) end = Math.max(end, trace.time[i] + trace.dur[i]);
  const laneH = height / lanes;
  const rows: number[] = [];
  for (let i = 0; i < trace.n; i++) {
    const t = SPAN_TRACK.get(trace.kind[i]);
    // Task spans would paint every lane solid; the interesting marks are the others.
    if (t === undefined || t === 0 || trace.cpu[i] >= lanes) continue;
    rows.push(i);
  }
  // A thumbnail needs a few thousand marks at most: keep every k-th.
  const step = Math.max(1, Math.ceil(rows.length / 4000));
  const shown = rows.filter((_, j) => j % step === 0);
  const svg = select(svgEl)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('width', width)
    .attr('height', height);
  svg
    .selectAll('rect.preview-lane')
    .data(Array.from({ length: lanes }, (_, c) => c))
    .join('rect')
    .attr('class', 'preview-lane')
    .attr('x', 0)
    .attr('y', (c) => c * laneH + 1)
    .attr('width', width)
    .attr('height', laneH - 2);
  svg
    .selectAll('rect.span')
    .data(shown)
    .join('rect')
    .attr('class', (i) => `span k-${kindName(trace.kind[i])}`)
    .attr('x', (i) => (trace.time[i] / end) * width)
    .attr(
      'y',
      (i) => trace.cpu[i] * laneH + 1 + ((SPAN_TRACK.get(trace.kind[i]) ?? 0) / 5) * (laneH - 2),
    )
    .attr('width', (i) => Math.max(0.8, (trace.dur[i] / end) * width))
    .attr('height', Math.max(1, (laneH - 2) / 5));
}
