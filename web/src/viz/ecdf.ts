// Step-line empirical CDFs of one or more samples on shared axes (latency distributions of
// the A and B runs). Lines differ in dash pattern as well as colour.
import { axisBottom, axisLeft, line, scaleLinear, select, curveStepAfter } from 'd3';
import { formatNs } from './scales';

export interface EcdfSeries {
  label: string;
  x: Float64Array;
  p: Float64Array;
  className: string;
}

const M = { top: 10, right: 16, bottom: 34, left: 44 };

export function renderEcdf(
  svgEl: SVGSVGElement,
  series: readonly EcdfSeries[],
  width: number,
  height: number,
  xLabel: string,
): void {
  const xmax = Math.max(1, ...series.map((s) => (s.x.length ? s.x[s.x.length - 1] : 0)));
  const x = scaleLinear()
    .domain([0, xmax])
    .nice()
    .range([M.left, width - M.right]);
  const y = scaleLinear()
    .domain([0, 1])
    .range([height - M.bottom, M.top]);
  const svg = select(svgEl)
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  svg
    .selectAll<SVGGElement, number>('g.x-axis')
    .data([0])
    .join('g')
    .attr('class', 'x-axis axis')
    .attr('transform', `translate(0,${height - M.bottom})`)
    .call(
      axisBottom(x)
        .ticks(5)
        .tickFormat((d) => formatNs(+d)),
    );
  svg
    .selectAll<SVGGElement, number>('g.y-axis')
    .data([0])
    .join('g')
    .attr('class', 'y-axis axis')
    .attr('transform', `translate(${M.left},0)`)
    .call(
      axisLeft(y)
        .ticks(4)
        .tickFormat((d) => `${Math.round(+d * 100)}%`),
    );
  svg
    .selectAll('text.x-label')
    .data([xLabel])
    .join('text')
    .attr('class', 'x-label')
    .attr('x', (M.left + width - M.right) / 2)
    .attr('y', height - 4)
    .attr('text-anchor', 'middle')
    .text((d) => d);
  const path = line<number>().curve(curveStepAfter);
  svg
    .selectAll<SVGPathElement, EcdfSeries>('path.ecdf')
    .data(series, (s) => s.label)
    .join('path')
    .attr('class', (s) => `ecdf ${s.className}`)
    .attr('data-series', (s) => s.label)
    .attr('fill', 'none')
    .attr('d', (s) => {
      const idx = Array.from({ length: s.x.length + 1 }, (_, i) => i);
      return path.x((i) => x(i === 0 ? 0 : s.x[i - 1])).y((i) => y(i === 0 ? 0 : s.p[i - 1]))(idx);
    });
}
