// A binned panel (model/bins.ts): per bin of consecutive variants, a bar from the smallest to
// the largest measured value with the series' symbol at the median, and the median prediction
// as an × beside it. One <g> per bin, so the DOM stays at a few hundred nodes however many
// variants the file has.
import { scaleLinear, select, symbol, symbolX } from 'd3';
import { formatValue, UNIT_LABEL } from '../model/overlay';
import type { Bin, BinnedPanel } from '../model/bins';
import type { Panel } from '../model/panels';
import { bottomAxis, SERIES_SYMBOLS, valueAxis } from './measuredMarks';

const M = { top: 12, right: 16, left: 72, bottom: 34 };

function binTitle(b: Bin, unit: string): string {
  const lines = [
    `variants ${b.from.toLocaleString('en-US')}–${b.to.toLocaleString('en-US')}: ${b.firstVariant} … ${b.lastVariant}`,
    `measured (${b.count} values): min ${formatValue(b.measured.min, unit)}, median ${formatValue(b.measured.median, unit)}, max ${formatValue(b.measured.max, unit)}`,
  ];
  if (b.predicted)
    lines.push(
      `predicted by the tlbscope model: min ${formatValue(b.predicted.min, unit)}, median ${formatValue(b.predicted.median, unit)}, max ${formatValue(b.predicted.max, unit)}`,
    );
  lines.push(
    Object.entries(b.verdicts)
      .map(([k, n]) => `${n} ${k}`)
      .join(', '),
  );
  return lines.join('\n');
}

export function renderBinnedPanel(
  svgEl: SVGSVGElement,
  panel: Panel,
  binned: BinnedPanel,
  width: number,
  height: number,
  metric: string,
): void {
  const { bins } = binned;
  let lo = Infinity;
  let hi = -Infinity;
  for (const b of bins) {
    lo = Math.min(lo, b.measured.min, b.predicted?.min ?? Infinity);
    hi = Math.max(hi, b.measured.max, b.predicted?.max ?? -Infinity);
  }
  const pad = (hi - lo || Math.abs(hi) || 1) * 0.1;
  const y = scaleLinear()
    .domain([lo >= 0 && lo - pad < 0 ? 0 : lo - pad, hi + pad])
    .nice()
    .range([height - M.bottom, M.top]);
  const x = scaleLinear()
    .domain([1, Math.max(2, binned.variants)])
    .range([M.left, width - M.right]);
  const mid = (b: Bin) => x((b.from + b.to) / 2);
  const svg = select(svgEl)
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('data-scale', 'linear')
    .attr('data-binned', bins.length);
  bottomAxis(svg, x, {
    y: height - M.bottom,
    ticks: [6, ',d'],
    label: `variant, in the file's order (${binned.perBin.toLocaleString('en-US')} per bin)`,
    from: M.left,
    to: width - M.right,
    labelY: height - 4,
  });
  valueAxis(svg, y, {
    left: M.left,
    top: M.top,
    bottom: height - M.bottom,
    log: false,
    label: `${metric} (${UNIT_LABEL[panel.unit] ?? panel.unit}), min/median/max per bin`,
  });
  // A point-by-point drawing of the same panel (before a resize or a mode change) goes.
  svg.selectAll('g.marks').remove();
  const g = svg.selectAll<SVGGElement, number>('g.bins').data([0]).join('g').attr('class', 'bins');
  const item = g
    .selectAll<SVGGElement, Bin>('g.bin')
    .data(bins)
    .join('g')
    .attr('class', 'bin')
    .attr('data-from', (b) => b.from)
    .attr('data-to', (b) => b.to);
  item.selectAll('*').remove();
  item.append('title').text((b) => binTitle(b, panel.valueUnit));
  item
    .append('path')
    .attr('data-kind', 'bin-range')
    .attr('class', 'error-bar')
    .attr('d', (b) => `M${mid(b)},${y(b.measured.min)}V${y(b.measured.max)}`);
  const shape = SERIES_SYMBOLS[panel.series % SERIES_SYMBOLS.length];
  item
    .append('path')
    .attr('data-kind', 'measured')
    .attr('class', `measured series-${panel.series % SERIES_SYMBOLS.length}`)
    .attr('transform', (b) => `translate(${mid(b)},${y(b.measured.median)})`)
    .attr('d', symbol(shape, 16)() ?? '');
  item
    .filter((b) => b.predicted !== null)
    .append('path')
    .attr('data-kind', 'prediction')
    .attr('class', 'prediction')
    .attr('transform', (b) => `translate(${mid(b)},${y(b.predicted!.median)})`)
    .attr('d', symbol(symbolX, 16)() ?? '');
}
