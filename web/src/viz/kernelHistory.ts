// The kernel history chart: one point per kernel (oldest left) for each figure the table
// shows, joined by lines, with the kernel the slider is on marked by a band. Each series has
// its own colour and its own marker shape, so it reads without colour too.
import { axisBottom, axisLeft, line, scaleLinear, scalePoint, select, symbol } from 'd3';
import { symbolCircle, symbolSquare, symbolTriangle } from 'd3';
import { formatNs } from './scales';

export interface HistorySeries {
  /** Class of the series (its colour) and its key in the legend. */
  id: 'op' | 'flush' | 'preempt';
  label: string;
  /** One value per kernel; null where the kernel has none (yet). */
  values: readonly (number | null)[];
}

const SHAPE = { op: symbolCircle, flush: symbolSquare, preempt: symbolTriangle } as const;
const M = { top: 10, right: 12, bottom: 24, left: 58 };

export function renderKernelHistory(
  svgEl: SVGSVGElement,
  kernels: readonly string[],
  series: readonly HistorySeries[],
  chosen: number | null,
  width: number,
  height: number,
): void {
  const x = scalePoint<string>()
    .domain(kernels)
    .range([M.left, width - M.right])
    .padding(0.4);
  const ymax = Math.max(
    1,
    ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)),
  );
  const y = scaleLinear()
    .domain([0, ymax])
    .nice()
    .range([height - M.bottom, M.top]);
  const svg = select(svgEl)
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  const step = x.step();
  svg
    .selectAll<SVGRectElement, number>('rect.history-chosen')
    .data(chosen === null ? [] : [chosen])
    .join('rect')
    .attr('class', 'history-chosen')
    .attr('x', (i) => (x(kernels[i]) ?? 0) - step / 2)
    .attr('width', step)
    .attr('y', M.top)
    .attr('height', height - M.top - M.bottom);
  svg
    .selectAll<SVGGElement, number>('g.x-axis')
    .data([0])
    .join('g')
    .attr('class', 'x-axis axis')
    .attr('transform', `translate(0,${height - M.bottom})`)
    .call(axisBottom(x).tickSizeOuter(0));
  svg
    .selectAll<SVGGElement, number>('g.y-axis')
    .data([0])
    .join('g')
    .attr('class', 'y-axis axis')
    .attr('transform', `translate(${M.left},0)`)
    .call(
      axisLeft(y)
        .ticks(4)
        .tickFormat((d) => formatNs(+d)),
    );
  const path = line<number | null>()
    .defined((v) => v !== null)
    .x((_, i) => x(kernels[i]) ?? 0)
    .y((v) => y(v ?? 0));
  const groups = svg
    .selectAll<SVGGElement, HistorySeries>('g.history-series')
    .data(series, (s) => s.id)
    .join('g')
    .attr('class', (s) => `history-series series-${s.id}`)
    .attr('data-series', (s) => s.id);
  groups
    .selectAll<SVGPathElement, HistorySeries>('path.history-line')
    .data((s) => [s])
    .join('path')
    .attr('class', 'history-line')
    .attr('fill', 'none')
    .attr('d', (s) => path([...s.values]));
  groups
    .selectAll<SVGPathElement, { v: number; i: number; id: HistorySeries['id'] }>(
      'path.history-point',
    )
    .data((s) => s.values.flatMap((v, i) => (v === null ? [] : [{ v, i, id: s.id }])))
    .join('path')
    .attr('class', 'history-point')
    .attr('d', (d) => symbol(SHAPE[d.id], 42)())
    .attr('transform', (d) => `translate(${x(kernels[d.i]) ?? 0},${y(d.v)})`)
    .selectAll('title')
    .data((d) => [d])
    .join('title')
    .text((d) => `${kernels[d.i]}: ${formatNs(d.v)}`);
}
