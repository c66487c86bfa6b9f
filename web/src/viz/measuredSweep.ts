// A swept panel (model/sweep.ts): the measured values and the model's predictions as curves
// over the swept number, one pair of curves per group of the other settings. Groups differ by
// dash pattern and are named in a key at the top left; measured and predicted keep the marks
// of the categorical panel (series symbol, ×), so the two read apart in greyscale too.
import { axisBottom, axisLeft, scaleLinear, scaleLog, select, symbol, symbolX } from 'd3';
import { UNIT_LABEL } from '../model/overlay';
import type { Panel, PanelPoint } from '../model/panels';
import type { Sweep } from '../model/sweep';
import { pointTitle, SERIES_SYMBOLS, type PanelOptions } from './measuredMarks';

const M = { top: 12, right: 16, left: 72, bottom: 40 };
/** Dash patterns per group, solid first; the group key repeats them. */
const DASHES = ['', '7 3', '2 3', '9 3 2 3'];
const KEY_LINE = 15;

export function renderSweepPanel(
  svgEl: SVGSVGElement,
  panel: Panel,
  sweep: Sweep,
  width: number,
  height: number,
  opts: PanelOptions,
): void {
  const { points, unit } = panel;
  const positive = points.every((p) => p.value > 0 && (p.lo ?? 1) > 0 && (p.predicted ?? 1) > 0);
  const log = opts.log && positive;
  const keyRows = sweep.groups.length > 1 ? sweep.groups.length : 0;
  const top = M.top + keyRows * KEY_LINE;
  const [lo, hi] = log
    ? (() => {
        const vs = points
          .flatMap((p) => [p.value, p.lo, p.hi, p.predicted])
          .filter((v): v is number => v !== null && v > 0);
        return [Math.min(...vs) / 1.2, Math.max(...vs) * 1.2];
      })()
    : panel.domain;
  const y = (log ? scaleLog() : scaleLinear())
    .domain([lo, hi])
    .nice()
    .range([height - M.bottom, top]);
  const x = scaleLinear()
    .domain(sweep.extent[0] === sweep.extent[1] ? [0, sweep.extent[1] || 1] : sweep.extent)
    .range([M.left + 8, width - M.right - 8]);

  const svg = select(svgEl)
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('data-scale', log ? 'log' : 'linear')
    .attr('data-binned', null)
    .attr('data-sweep', sweep.key);
  svg.selectAll('g.bins, path.fitted-curve').remove();
  svg
    .selectAll<SVGGElement, number>('g.x-axis')
    .data([0])
    .join('g')
    .attr('class', 'x-axis axis')
    .attr('transform', `translate(0,${height - M.bottom})`)
    .call(axisBottom(x).ticks(Math.max(2, Math.floor(width / 80))));
  svg
    .selectAll('text.x-label')
    .data([sweep.key])
    .join('text')
    .attr('class', 'x-label')
    .attr('x', (M.left + width - M.right) / 2)
    .attr('y', height - 6)
    .attr('text-anchor', 'middle')
    .text((d) => d);
  svg
    .selectAll<SVGGElement, number>('g.y-axis')
    .data([0])
    .join('g')
    .attr('class', 'y-axis axis')
    .attr('transform', `translate(${M.left},0)`)
    .call(log ? axisLeft(y).ticks(4, '~g') : axisLeft(y).ticks(5));
  const fromZero = y.domain()[0] <= 0 || panel.reference !== null;
  svg
    .selectAll('text.y-label')
    .data([
      `${opts.metric} (${UNIT_LABEL[unit] ?? unit})${log ? ', log scale' : fromZero ? '' : ', not from 0'}`,
    ])
    .join('text')
    .attr('class', 'y-label')
    .attr('transform', `translate(14,${(top + height - M.bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text((d) => d);
  svg.selectAll('line.zero').remove();

  // The group key: a line sample in the group's dash, then its settings.
  const key = svg
    .selectAll<SVGGElement, number>('g.sweep-key')
    .data([0])
    .join('g')
    .attr('class', 'sweep-key');
  const row = key
    .selectAll<SVGGElement, Sweep['groups'][number]>('g.key-row')
    .data(keyRows ? sweep.groups : [])
    .join('g')
    .attr('class', 'key-row')
    .attr('data-group', (g) => g.label)
    .attr('transform', (_, i) => `translate(${M.left + 8},${M.top + i * KEY_LINE + 4})`);
  row.selectAll('*').remove();
  row
    .append('path')
    .attr('class', 'sweep-line')
    .attr('d', 'M0,0H22')
    .attr('stroke-dasharray', (_, i) => DASHES[i % DASHES.length]);
  row
    .append('text')
    .attr('x', 28)
    .attr('dy', '0.32em')
    .text((g) => g.short);

  // Curves: measured (solid colour of the text) and predicted (the prediction colour), each
  // group in its dash.
  const path = (pts: { x: number; y: number | null }[]) => {
    let d = '';
    let open = false;
    for (const p of pts) {
      if (p.y === null || !Number.isFinite(p.y)) {
        open = false;
        continue;
      }
      d += `${open ? 'L' : 'M'}${x(p.x)},${y(p.y)}`;
      open = true;
    }
    return d;
  };
  const curves = sweep.groups.flatMap((g, i) => [
    {
      kind: 'measured-line',
      group: g.label,
      dash: DASHES[i % DASHES.length],
      d: path(g.points.map((p) => ({ x: p.x, y: p.point.value }))),
    },
    {
      kind: 'prediction-line',
      group: g.label,
      dash: DASHES[i % DASHES.length],
      d: path(g.points.map((p) => ({ x: p.x, y: p.point.predicted }))),
    },
  ]);
  svg
    .selectAll<SVGPathElement, (typeof curves)[number]>('path.sweep-curve')
    .data(curves)
    .join('path')
    .attr('class', (c) => `sweep-curve ${c.kind}`)
    .attr('data-kind', (c) => c.kind)
    .attr('data-group', (c) => c.group)
    .attr('stroke-dasharray', (c) => c.dash)
    .attr('d', (c) => c.d);

  const xOf = new Map<PanelPoint, number>();
  for (const g of sweep.groups) for (const p of g.points) xOf.set(p.point, x(p.x));
  const g = svg
    .selectAll<SVGGElement, number>('g.marks')
    .data([0])
    .join('g')
    .attr('class', 'marks')
    .raise();
  const item = g
    .selectAll<SVGGElement, PanelPoint>('g.point')
    .data(points)
    .join('g')
    .attr('class', 'point')
    .attr('data-variant', (p) => p.point.measurement.variant)
    .attr('data-series', (p) => p.point.series)
    .attr('data-verdict', (p) => p.point.verdict.kind);
  item.selectAll('*').remove();
  item.append('title').text((p) => pointTitle(p.point, panel.valueUnit));
  const shape = SERIES_SYMBOLS[panel.series % SERIES_SYMBOLS.length];
  const cap = 4;
  item
    .filter((p) => p.lo !== null)
    .append('path')
    .attr('data-kind', 'error-bar')
    .attr('class', 'error-bar')
    .attr('d', (p) => {
      const x0 = xOf.get(p)!;
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
    .attr('transform', (p) => `translate(${xOf.get(p)},${y(p.value)})`)
    .attr('d', symbol(shape, 48)() ?? '');
  item
    .filter((p) => p.predicted !== null)
    .append('path')
    .attr('data-kind', 'prediction')
    .attr('class', 'prediction')
    .attr('transform', (p) => `translate(${xOf.get(p)},${y(p.predicted!)})`)
    .attr('d', symbol(symbolX, 48)() ?? '');
}
