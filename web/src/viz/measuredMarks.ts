// What a measured panel's drawings share, categorical (measured.ts), swept (measuredSweep.ts)
// or binned (measuredBins.ts): the series symbols, the tooltip a mark carries, the value axis
// and the measured marks with their error bars.
import {
  axisBottom,
  axisLeft,
  symbol,
  symbolCircle,
  symbolDiamond,
  symbolSquare,
  symbolTriangle,
  symbolWye,
  type AxisScale,
  type ScaleContinuousNumeric,
  type Selection,
} from 'd3';
import { describeVerdict, formatValue, type OverlayPoint } from '../model/overlay';
import type { Panel, PanelPoint } from '../model/panels';

export const SERIES_SYMBOLS = [
  symbolCircle,
  symbolSquare,
  symbolTriangle,
  symbolDiamond,
  symbolWye,
];
export const SERIES_SHAPE_NAMES = ['circle', 'square', 'triangle', 'diamond', 'wye'];

export function pointTitle(p: OverlayPoint, unit: string): string {
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
    lines.push(
      p.band
        ? `band ${formatValue(p.band[0], unit)} to ${formatValue(p.band[1], unit)}: the model with every estimated cost at the low and at the high end of its range`
        : p.prediction.band === null
          ? 'no band: a run at an end of the cost ranges gave no figure'
          : 'band: its two runs are still to come',
    );
  }
  lines.push(describeVerdict(p.verdict, unit));
  return lines.join('\n');
}

export interface PanelOptions {
  metric: string;
  /** A logarithmic axis (only for positive values; ignored otherwise). */
  log: boolean;
}

type Svg = Selection<SVGSVGElement, unknown, null, undefined>;

/** The value axis at `left` and its rotated label, centred between `top` and `bottom`. */
export function valueAxis(
  svg: Svg,
  y: ScaleContinuousNumeric<number, number>,
  {
    left,
    top,
    bottom,
    log,
    label,
  }: {
    left: number;
    top: number;
    bottom: number;
    log: boolean;
    label: string;
  },
): void {
  svg
    .selectAll<SVGGElement, number>('g.y-axis')
    .data([0])
    .join('g')
    .attr('class', 'y-axis axis')
    .attr('transform', `translate(${left},0)`)
    .call(log ? axisLeft(y).ticks(4, '~g') : axisLeft(y).ticks(5));
  svg
    .selectAll('text.y-label')
    .data([label])
    .join('text')
    .attr('class', 'y-label')
    .attr('transform', `translate(14,${(top + bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text((d) => d);
}

/**
 * One `g.point` per point (its variant, series and verdict as data attributes, its tooltip),
 * each with the error bar and the measured mark at `xOf`; the caller adds the prediction.
 */
export function pointMarks(
  svg: Svg,
  panel: Panel,
  y: ScaleContinuousNumeric<number, number>,
  xOf: (p: PanelPoint) => number,
  size: number,
) {
  const g = svg
    .selectAll<SVGGElement, number>('g.marks')
    .data([0])
    .join('g')
    .attr('class', 'marks')
    .raise();
  const item = g
    .selectAll<SVGGElement, PanelPoint>('g.point')
    .data(panel.points)
    .join('g')
    .attr('class', 'point')
    .attr('data-variant', (p) => p.point.measurement.variant)
    .attr('data-series', (p) => p.point.series)
    .attr('data-verdict', (p) => p.point.verdict.kind);
  item.selectAll('*').remove();
  item.append('title').text((p) => pointTitle(p.point, panel.valueUnit));
  const shape = SERIES_SYMBOLS[panel.series % SERIES_SYMBOLS.length];
  const cap = 5;
  item
    .filter((p) => p.lo !== null)
    .append('path')
    .attr('data-kind', 'error-bar')
    .attr('class', 'error-bar')
    .attr('d', (p) => {
      const x0 = xOf(p);
      const [a, b] = [y(p.lo!), y(p.hi!)];
      return `M${x0},${a}V${b}M${x0 - cap},${a}H${x0 + cap}M${x0 - cap},${b}H${x0 + cap}`;
    });
  item
    .append('path')
    .attr('data-kind', 'measured')
    .attr(
      'class',
      (p) =>
        `measured series-${panel.series % SERIES_SYMBOLS.length}${p.lo === null ? ' hollow' : ''}`,
    )
    .attr('transform', (p) => `translate(${xOf(p)},${y(p.value)})`)
    .attr('d', symbol(shape, size)() ?? '');
  return item;
}

/** An end of a band past the plot's top (`up`) or bottom, and the value it reaches. */
export interface BandCut {
  up: boolean;
  end: number;
}

/**
 * The ends of `band` beyond the plot's `y` range: the axis spans measurements and predictions,
 * not bands, so a wide band is cut at the edge, and a mark there says it goes on.
 */
export function bandCuts(
  band: readonly [number, number] | null,
  y: ScaleContinuousNumeric<number, number>,
): BandCut[] {
  if (!band) return [];
  const [yBottom, yTop] = y.range();
  const out: BandCut[] = [];
  if (y(band[1]) < yTop) out.push({ up: true, end: band[1] });
  if (y(band[0]) > yBottom) out.push({ up: false, end: band[0] });
  return out;
}

/** A small arrow at the plot's edge, at `x`, pointing the way the band goes on. */
export function bandCutPath(
  x: number,
  cut: BandCut,
  y: ScaleContinuousNumeric<number, number>,
): string {
  const [yBottom, yTop] = y.range();
  return cut.up
    ? `M${x - 4},${yTop + 5}L${x},${yTop}L${x + 4},${yTop + 5}Z`
    : `M${x - 4},${yBottom - 5}L${x},${yBottom}L${x + 4},${yBottom - 5}Z`;
}

export function bandCutTitle(cut: BandCut, unit: string): string {
  return `the band goes on ${cut.up ? 'above' : 'below'} the chart, to ${formatValue(cut.end, unit)}`;
}

/** A log axis's extent: every positive value with room around it. */
export function logDomain(points: readonly PanelPoint[]): [number, number] {
  const vs = points
    .flatMap((p) => [p.value, p.lo, p.hi, p.predicted, p.fitted])
    .filter((v): v is number => v !== null && v > 0);
  return [Math.min(...vs) / 1.2, Math.max(...vs) * 1.2];
}

/** A numeric axis along the bottom at `y`, with its label centred under the plot. */
export function bottomAxis(
  svg: Svg,
  x: AxisScale<number>,
  {
    y,
    ticks,
    label,
    from,
    to,
    labelY,
  }: {
    y: number;
    ticks: [number, string?];
    label: string;
    from: number;
    to: number;
    labelY: number;
  },
): void {
  svg
    .selectAll<SVGGElement, number>('g.x-axis')
    .data([0])
    .join('g')
    .attr('class', 'x-axis axis')
    .attr('transform', `translate(0,${y})`)
    .call(axisBottom(x).ticks(...ticks));
  svg
    .selectAll('text.x-label')
    .data([label])
    .join('text')
    .attr('class', 'x-label')
    .attr('x', (from + to) / 2)
    .attr('y', labelY)
    .attr('text-anchor', 'middle')
    .text((d) => d);
}
