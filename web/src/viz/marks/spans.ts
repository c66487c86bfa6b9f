// Span mark: one rect per trace row in `index`, placed by time and sub-track. Rows outside
// the visible window are skipped, so cost follows what is on screen.
import type { Selection } from 'd3';
import type { Trace } from '../../sim/trace';
import { kindName } from '../../sim/trace';
import { formatNs, TRACK_HEIGHT, type Scales } from '../scales';

export function renderSpans(
  g: Selection<SVGGElement, unknown, null, undefined>,
  index: Int32Array,
  track: Uint8Array,
  scales: Scales,
  trace: Trace,
): void {
  const [t0, t1] = scales.x.domain();
  const visible: number[] = [];
  for (let j = 0; j < index.length; j++) {
    const i = index[j];
    if (trace.time[i] <= t1 && trace.time[i] + trace.dur[i] >= t0) visible.push(j);
  }
  g.selectAll('rect')
    .data(visible)
    .join('rect')
    .attr('class', (j) => `mark span k-${kindName(trace.kind[index[j]])}`)
    .attr('data-kind', (j) => kindName(trace.kind[index[j]]))
    .attr('data-row', (j) => index[j])
    .attr('data-cpu', (j) => trace.cpu[index[j]])
    .attr('x', (j) => scales.x(trace.time[index[j]]))
    .attr('y', (j) => scales.trackY(trace.cpu[index[j]], track[j]) + 1)
    .attr('width', (j) =>
      Math.max(
        1,
        scales.x(trace.time[index[j]] + trace.dur[index[j]]) - scales.x(trace.time[index[j]]),
      ),
    )
    .attr('height', TRACK_HEIGHT - 2)
    .selectAll('title')
    .data((j) => [j])
    .join('title')
    .text((j) => {
      const i = index[j];
      return `${kindName(trace.kind[i])} on CPU ${trace.cpu[i]}: ${formatNs(trace.time[i])} + ${formatNs(trace.dur[i])}`;
    });
}
