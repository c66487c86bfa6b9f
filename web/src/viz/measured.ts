// Measured mean ± stddev per variant beside the model's prediction, for one benchmark metric.
// Encodings never rely on colour alone: each series (source on a machine) has its own symbol,
// a measurement without a stddev is hollow and has no bar, and a prediction is a dashed tick
// with an × — so the chart reads in greyscale and for colour-blind readers.
import { axisBottom, scaleBand, scaleLinear, scaleLog, select, symbol, symbolX } from 'd3';
import { UNIT_LABEL } from '../model/overlay';
import type { Panel, PanelPoint } from '../model/panels';
import { renderSweepPanel } from './measuredSweep';
import {
  bandCutPath,
  bandCuts,
  bandCutTitle,
  logDomain,
  pointMarks,
  valueAxis,
  type PanelOptions,
} from './measuredMarks';

export { SERIES_SHAPE_NAMES, SERIES_SYMBOLS, type PanelOptions } from './measuredMarks';

const M = { top: 12, right: 16, left: 72 };
const LINE = 13;

/** A variant label in lines: `a=1;b=2` splits at its `;`, nothing is cut. */
export function labelLines(variant: string): string[] {
  return variant.split(';').flatMap((part, i, all) => (i < all.length - 1 ? [`${part};`] : [part]));
}

/**
 * One panel: one series' measurements (mean ± stddev) per variant and the model's prediction
 * beside each, on the panel's own axis. The measured mark and the prediction sit left and
 * right of the variant's centre, so they never overlap, however close their values.
 */
export function renderPanel(
  svgEl: SVGSVGElement,
  panel: Panel,
  width: number,
  height: number,
  opts: PanelOptions,
): void {
  if (panel.sweep) return renderSweepPanel(svgEl, panel, panel.sweep, width, height, opts);
  // A categorical drawing of a panel that was a sweep before (another mode) starts afresh.
  select(svgEl)
    .attr('data-sweep', null)
    .selectAll('g.sweep-key, path.sweep-curve, path.prediction-band, g.band-cuts')
    .remove();
  const { points, unit } = panel;
  const lines = Math.max(1, ...panel.variants.map((v) => labelLines(v).length));
  const bottom = 18 + lines * LINE;
  const positive = points.every((p) => p.value > 0 && (p.lo ?? 1) > 0 && (p.predicted ?? 1) > 0);
  const log = opts.log && positive;
  const y = (log ? scaleLog() : scaleLinear())
    .domain(log ? logDomain(points) : panel.domain)
    .nice()
    .range([height - bottom, M.top]);
  const x = scaleBand<string>()
    .domain(panel.variants)
    .range([M.left, width - M.right])
    .padding(0.2);
  const gap = Math.min(14, x.bandwidth() / 4);
  const centre = (p: PanelPoint) => (x(p.point.measurement.variant) ?? 0) + x.bandwidth() / 2;
  const cx = (p: PanelPoint) => centre(p) - (p.predicted === null ? 0 : gap);
  const px = (p: PanelPoint) => centre(p) + gap;

  const svg = select(svgEl)
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('data-scale', log ? 'log' : 'linear')
    .attr('data-binned', null);
  // A binned drawing of the same panel (model/bins.ts) goes.
  svg.selectAll('g.bins, text.x-label').remove();
  const xAxis = svg
    .selectAll<SVGGElement, number>('g.x-axis')
    .data([0])
    .join('g')
    .attr('class', 'x-axis axis')
    .attr('transform', `translate(0,${height - bottom})`)
    .call(axisBottom(x).tickFormat(() => ''));
  xAxis
    .selectAll<SVGTextElement, string>('.tick text')
    .attr('data-variant', (v) => v)
    .each(function (v) {
      const text = select(this);
      text.selectAll('tspan').remove();
      labelLines(v).forEach((line, i) =>
        text
          .append('tspan')
          .attr('x', 0)
          .attr('dy', i === 0 ? '0.71em' : `${LINE}px`)
          .text(line),
      );
    });
  const fromZero = y.domain()[0] <= 0 || panel.reference !== null;
  valueAxis(svg, y, {
    left: M.left,
    top: M.top,
    bottom: height - bottom,
    log,
    label: `${opts.metric} (${UNIT_LABEL[unit] ?? unit})${log ? ', log scale' : fromZero ? '' : ', not from 0'}`,
  });
  svg
    .selectAll('line.zero')
    .data(panel.reference !== null ? [0] : [])
    .join('line')
    .attr('class', 'zero')
    .attr('x1', M.left)
    .attr('x2', width - M.right)
    .attr('y1', y(0))
    .attr('y2', y(0));

  // The fitted machine's values, one per variant, joined left to right: a curve, not marks,
  // so that it reads as the fit's shape across the variants beside the measured points.
  const fitted = points
    .filter((p) => p.fitted !== null && Number.isFinite(p.fitted))
    .sort((a, b) => centre(a) - centre(b));
  svg
    .selectAll('path.fitted-curve')
    .data(fitted.length ? [fitted] : [])
    .join('path')
    .attr('class', 'fitted-curve')
    .attr('data-kind', 'fitted')
    .attr('d', (ps) => ps.map((p, i) => `${i ? 'L' : 'M'}${centre(p)},${y(p.fitted!)}`).join(''))
    .selectAll('title')
    .data((ps) => [ps])
    .join('title')
    .text('fitted machine: what the preset fitted to this dataset predicts for each variant');
  const item = pointMarks(svg, panel, y, cx, 64);

  // The band: a bar behind the prediction's ×, from its low to its high end, cut at the plot's
  // edges (the axis is the measurements' and predictions', so that a band wider than they are
  // does not squash the differences the chart is for).
  const [yBottom, yTop] = y.range();
  const clampY = (v: number) => Math.max(yTop, Math.min(yBottom, y(v)));
  item
    .filter((p) => p.predicted !== null && p.band !== null)
    .insert('rect', ':first-child')
    .attr('data-kind', 'prediction-band')
    .attr('class', 'prediction-band')
    .attr('x', (p) => px(p) - 6)
    .attr('width', 12)
    .attr('y', (p) => clampY(p.band![1]))
    .attr('height', (p) => Math.max(1, clampY(p.band![0]) - clampY(p.band![1])));
  const predicted = item.filter((p) => p.predicted !== null);
  predicted
    .selectAll('path.band-cut')
    .data((p) => bandCuts(p.band, y).map((cut) => ({ cut, x: px(p) })))
    .join('path')
    .attr('class', 'band-cut')
    .attr('data-kind', 'band-cut')
    .attr('d', (c) => bandCutPath(c.x, c.cut, y))
    .append('title')
    .text((c) => bandCutTitle(c.cut, unit));
  predicted
    .append('path')
    .attr('data-kind', 'prediction-tick')
    .attr('class', 'prediction-tick')
    .attr('d', (p) => `M${px(p) - 7},${y(p.predicted!)}H${px(p) + 7}`);
  predicted
    .append('path')
    .attr('data-kind', 'prediction')
    .attr('class', 'prediction')
    .attr('transform', (p) => `translate(${px(p)},${y(p.predicted!)})`)
    .attr('d', symbol(symbolX, 64)() ?? '');
}
