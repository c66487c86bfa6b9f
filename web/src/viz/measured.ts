// Measured mean ± stddev per variant beside the model's prediction, for one benchmark metric.
// Encodings never rely on colour alone: each series (source on a machine) has its own symbol,
// a measurement without a stddev is hollow and has no bar, and a prediction is a dashed tick
// with an × — so the chart reads in greyscale and for colour-blind readers.
import {
  axisBottom,
  axisLeft,
  scaleBand,
  scaleLinear,
  select,
  symbol,
  symbolCircle,
  symbolDiamond,
  symbolSquare,
  symbolTriangle,
  symbolWye,
  symbolX,
} from 'd3';
import {
  describeVerdict,
  formatValue,
  UNIT_LABEL,
  type OverlayChartModel,
  type OverlayPoint,
} from '../model/overlay';

export const SERIES_SYMBOLS = [
  symbolCircle,
  symbolSquare,
  symbolTriangle,
  symbolDiamond,
  symbolWye,
];
export const SERIES_SHAPE_NAMES = ['circle', 'square', 'triangle', 'diamond', 'wye'];

const M = { top: 12, right: 16, bottom: 64, left: 72 };

function pointTitle(p: OverlayPoint, unit: string): string {
  const m = p.measurement;
  const lines = [
    `${m.variant}: ${formatValue(p.value, unit)}${p.lo !== null ? ` ± ${formatValue(p.value - p.lo, unit)}` : ' (no stddev stated)'}${m.runs ? `, ${m.runs} runs` : ''}`,
    `measured on ${m.machine} (${m.source})${m.aggregated ? `, mean of ${m.runs} per-run rows` : ''}`,
    `${m.origin.file}, row${m.rows.length > 1 ? 's' : ''} ${m.rows.join(m.aggregated && m.rows.length === 2 ? '–' : ', ')}`,
  ];
  if (p.prediction.status === 'done' && p.predicted !== null) {
    lines.push(
      `predicted by the tlbscope model (${p.prediction.scenario}, machine preset ${p.prediction.preset}): ${formatValue(p.predicted!, unit)}`,
    );
  }
  lines.push(describeVerdict(p.verdict, unit));
  return lines.join('\n');
}

export function renderMeasured(
  svgEl: SVGSVGElement,
  chart: OverlayChartModel,
  width: number,
  height: number,
): void {
  const { points, unit } = chart;
  const values = points.flatMap((p) => [p.value, p.lo, p.hi, p.predicted]);
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  const pad = (hi - lo || Math.abs(hi) || 1) * 0.15;
  lo = Math.max(lo >= 0 ? 0 : -Infinity, lo - pad);
  hi += pad;
  const y = scaleLinear()
    .domain([lo, hi])
    .nice()
    .range([height - M.bottom, M.top]);
  const x = scaleBand<string>()
    .domain(chart.variants)
    .range([M.left, width - M.right])
    .padding(0.2);
  const seriesIds = [...new Set(points.map((p) => p.series))].sort((a, b) => a - b);
  const sub = scaleBand<number>().domain(seriesIds).range([0, x.bandwidth()]).padding(0.25);
  const cx = (p: OverlayPoint) =>
    (x(p.measurement.variant) ?? 0) + (sub(p.series) ?? 0) + sub.bandwidth() * 0.35;
  const px = (p: OverlayPoint) =>
    (x(p.measurement.variant) ?? 0) + (sub(p.series) ?? 0) + sub.bandwidth() * 0.8;

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
    .call(axisBottom(x).tickFormat((v) => (v.length > 24 ? `…${v.slice(-23)}` : v)))
    .selectAll<SVGTextElement, string>('text')
    .attr('transform', 'rotate(-15)')
    .attr('text-anchor', 'end');
  svg
    .selectAll<SVGGElement, number>('g.y-axis')
    .data([0])
    .join('g')
    .attr('class', 'y-axis axis')
    .attr('transform', `translate(${M.left},0)`)
    .call(axisLeft(y).ticks(5));
  svg
    .selectAll('text.y-label')
    .data([
      `${chart.metric} (${UNIT_LABEL[unit] ?? unit})${y.domain()[0] > 0 ? ', not from 0' : ''}`,
    ])
    .join('text')
    .attr('class', 'y-label')
    .attr('transform', `translate(14,${(M.top + height - M.bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text((d) => d);

  const g = svg
    .selectAll<SVGGElement, number>('g.marks')
    .data([0])
    .join('g')
    .attr('class', 'marks');
  const item = g
    .selectAll<SVGGElement, OverlayPoint>('g.point')
    .data(points)
    .join('g')
    .attr('class', 'point')
    .attr('data-variant', (p) => p.measurement.variant)
    .attr('data-series', (p) => p.series)
    .attr('data-verdict', (p) => p.verdict.kind);
  item.selectAll('*').remove();
  item.append('title').text((p) => pointTitle(p, unit));

  const bars = item.filter((p) => p.lo !== null);
  const cap = 5;
  bars
    .append('path')
    .attr('data-kind', 'error-bar')
    .attr('class', 'error-bar')
    .attr('d', (p) => {
      const x0 = cx(p);
      const [a, b] = [y(p.lo!), y(p.hi!)];
      return `M${x0},${a}V${b}M${x0 - cap},${a}H${x0 + cap}M${x0 - cap},${b}H${x0 + cap}`;
    });
  item
    .append('path')
    .attr('data-kind', 'measured')
    .attr(
      'class',
      (p) => `measured series-${p.series % SERIES_SYMBOLS.length}${p.lo === null ? ' hollow' : ''}`,
    )
    .attr('transform', (p) => `translate(${cx(p)},${y(p.value)})`)
    .attr('d', (p) => symbol(SERIES_SYMBOLS[p.series % SERIES_SYMBOLS.length], 64)() ?? '');

  const predicted = item.filter((p) => p.predicted !== null);
  predicted
    .append('path')
    .attr('data-kind', 'prediction-tick')
    .attr('class', 'prediction-tick')
    .attr('d', (p) => `M${cx(p) - 8},${y(p.predicted!)}H${px(p) + 6}`);
  predicted
    .append('path')
    .attr('data-kind', 'prediction')
    .attr('class', 'prediction')
    .attr('transform', (p) => `translate(${px(p)},${y(p.predicted!)})`)
    .attr('d', symbol(symbolX, 64)() ?? '');
}
