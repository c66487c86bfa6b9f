// Renders the whole timeline into an <svg> the caller owns: axis, lane backgrounds and labels,
// span marks, arrows. Plain D3; React only hands over the element, the view model and size.
import { axisTop, select, type Selection } from 'd3';
import type { Arrow } from '../model/ipis';
import type { LanesModel } from '../model/lanes';
import type { Trace } from '../sim/trace';
import { renderArrows } from './marks/arrows';
import { renderSpans } from './marks/spans';
import { AXIS_HEIGHT, formatNs, LANE_GAP, LANE_HEIGHT, LANE_LABEL_WIDTH, toScales } from './scales';

export interface TimelineInput {
  trace: Trace;
  lanes: LanesModel;
  arrows: readonly Arrow[];
  /** CPU that initiated the shootdown, labelled as such (or -1). */
  initiator: number;
}

export function renderTimeline(
  svgEl: SVGSVGElement,
  input: TimelineInput,
  width: number,
  window: [number, number],
): void {
  const { lanes } = input;
  const scales = toScales(lanes.cpus, window, width);
  const svg = select(svgEl)
    .attr('width', width)
    .attr('height', scales.height)
    .attr('viewBox', `0 0 ${width} ${scales.height}`)
    .attr('role', 'img');

  const defs = svg.selectAll('defs').data([0]).join('defs');
  defs
    .selectAll('marker')
    .data(['ipi', 'ack'])
    .join('marker')
    .attr('id', (d) => `arrowhead-${d}`)
    .attr('viewBox', '0 0 10 10')
    .attr('refX', 9)
    .attr('refY', 5)
    .attr('markerWidth', 6)
    .attr('markerHeight', 6)
    .attr('orient', 'auto-start-reverse')
    .selectAll('path')
    .data((d) => [d])
    .join('path')
    .attr('d', 'M 0 0 L 10 5 L 0 10 z')
    .attr('class', (d) => `arrowhead arrowhead-${d}`);
  defs
    .selectAll('clipPath')
    .data([0])
    .join('clipPath')
    .attr('id', 'plot-clip')
    .selectAll('rect')
    .data([0])
    .join('rect')
    .attr('x', LANE_LABEL_WIDTH)
    .attr('y', 0)
    .attr('width', Math.max(0, width - LANE_LABEL_WIDTH))
    .attr('height', scales.height);

  const layer = (name: string, clipped = false) => {
    const g = svg
      .selectAll<SVGGElement, unknown>(`g.${name}`)
      .data([0])
      .join('g')
      .attr('class', name);
    if (clipped) g.attr('clip-path', 'url(#plot-clip)');
    return g as unknown as Selection<SVGGElement, unknown, null, undefined>;
  };

  const cpus = Array.from({ length: lanes.cpus }, (_, c) => c);
  layer('lanes')
    .selectAll('g.lane')
    .data(cpus)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'lane');
      g.append('rect').attr('class', 'lane-bg');
      g.append('text').attr('class', 'lane-label');
      return g;
    })
    .attr('data-cpu', (c) => c)
    .call((g) =>
      g
        .select('rect.lane-bg')
        .attr('x', 0)
        .attr('y', (c) => scales.laneY(c))
        .attr('width', width)
        .attr('height', LANE_HEIGHT - LANE_GAP / 2),
    )
    .call((g) =>
      g
        .select('text.lane-label')
        .attr('x', 8)
        .attr('y', (c) => scales.laneY(c) + (LANE_HEIGHT - LANE_GAP) / 2 + 4)
        .text((c) => (c === input.initiator ? `CPU ${c} · initiator` : `CPU ${c}`)),
    );

  renderSpans(layer('spans', true), lanes.spans, lanes.track, scales, input.trace);
  renderArrows(layer('arrows', true), input.arrows, scales);

  layer('axis')
    .attr('transform', `translate(0,${AXIS_HEIGHT - 4})`)
    .call(
      axisTop(scales.x)
        .ticks(Math.max(2, Math.floor((width - LANE_LABEL_WIDTH) / 110)))
        .tickFormat((d) => formatNs(+d)),
    );
}
