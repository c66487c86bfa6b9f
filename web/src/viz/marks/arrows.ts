// Arrow mark: IPI sends to handlers and csd unlocks back to the sender.
import type { Selection } from 'd3';
import type { Arrow } from '../../model/ipis';
import { formatNs, TRACK_HEIGHT, type Scales } from '../scales';

export function renderArrows(
  g: Selection<SVGGElement, unknown, null, undefined>,
  arrows: readonly Arrow[],
  scales: Scales,
): void {
  const [t0, t1] = scales.x.domain();
  const visible = arrows.filter(
    (a) => Math.max(a.fromTime, a.toTime) >= t0 && Math.min(a.fromTime, a.toTime) <= t1,
  );
  // IPIs land on the handler track; acks end on the waiting sender's wait track.
  const y = (cpu: number, kind: Arrow['kind'], end: boolean) =>
    scales.trackY(cpu, end === (kind === 'ipi') ? 3 : 4) + TRACK_HEIGHT / 2;
  g.selectAll('line')
    .data(visible)
    .join('line')
    .attr('class', (a) => `mark arrow arrow-${a.kind}`)
    .attr('data-kind', (a) => (a.kind === 'ipi' ? 'IpiArrow' : 'AckArrow'))
    .attr('data-row', (a) => a.row)
    .attr('x1', (a) => scales.x(a.fromTime))
    .attr('y1', (a) => y(a.fromCpu, a.kind, false))
    .attr('x2', (a) => scales.x(a.toTime))
    .attr('y2', (a) => y(a.toCpu, a.kind, true))
    .attr('marker-end', (a) => `url(#arrowhead-${a.kind})`)
    .selectAll('title')
    .data((a) => [a])
    .join('title')
    .text((a) =>
      a.kind === 'ipi'
        ? `IPI CPU ${a.fromCpu} → CPU ${a.toCpu}, sent ${formatNs(a.fromTime)}, handled ${formatNs(a.toTime)}`
        : `csd unlocked by CPU ${a.fromCpu} for CPU ${a.toCpu} at ${formatNs(a.fromTime)}`,
    );
}
