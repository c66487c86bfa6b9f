// A swept panel (model/sweep.ts): the measured values and the model's predictions as curves
// over the swept number, one pair of curves per group of the other settings. Groups differ by
// dash pattern and are named in a key at the top left; measured and predicted keep the marks
// of the categorical panel (series symbol, ×), so the two read apart in greyscale too.
import { scaleLinear, scaleLog, select, symbol, symbolX } from 'd3';
import { UNIT_LABEL } from '../model/overlay';
import type { Panel, PanelPoint } from '../model/panels';
import type { Sweep } from '../model/sweep';
import {
  bandCutPath,
  bandCuts,
  bandCutTitle,
  bottomAxis,
  logDomain,
  pointMarks,
  valueAxis,
  type PanelOptions,
} from './measuredMarks';

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
  const [lo, hi] = log ? logDomain(points) : panel.domain;
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
  bottomAxis(svg, x, {
    y: height - M.bottom,
    ticks: [Math.max(2, Math.floor(width / 80))],
    label: sweep.key,
    from: M.left,
    to: width - M.right,
    labelY: height - 6,
  });
  const fromZero = y.domain()[0] <= 0 || panel.reference !== null;
  valueAxis(svg, y, {
    left: M.left,
    top,
    bottom: height - M.bottom,
    log,
    label: `${opts.metric} (${UNIT_LABEL[unit] ?? unit})${log ? ', log scale' : fromZero ? '' : ', not from 0'}`,
  });
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
  // The band of each group's predictions: an area from the low to the high ends, joined over
  // runs of consecutive points that have one, cut at the plot's edges (the axis is the
  // measurements' and predictions').
  const [yBottom, yTop] = y.range();
  const clampY = (v: number) => Math.max(yTop, Math.min(yBottom, y(v)));
  const area = (pts: { x: number; band: [number, number] | null }[]) => {
    const runs: { x: number; band: [number, number] }[][] = [[]];
    for (const p of pts) {
      if (p.band) runs[runs.length - 1].push({ x: p.x, band: p.band });
      else if (runs[runs.length - 1].length) runs.push([]);
    }
    return runs
      .filter((r) => r.length)
      .map((r) => {
        if (r.length === 1) {
          const [p] = r;
          return `M${x(p.x) - 3},${clampY(p.band[1])}H${x(p.x) + 3}V${clampY(p.band[0])}H${x(p.x) - 3}Z`;
        }
        const top = r.map((p, i) => `${i ? 'L' : 'M'}${x(p.x)},${clampY(p.band[1])}`).join('');
        const bottom = [...r]
          .reverse()
          .map((p) => `L${x(p.x)},${clampY(p.band[0])}`)
          .join('');
        return `${top}${bottom}Z`;
      })
      .join('');
  };
  const bands = sweep.groups
    .map((g) => ({
      group: g.label,
      d: area(g.points.map((p) => ({ x: p.x, band: p.point.band }))),
    }))
    .filter((b) => b.d !== '');
  svg
    .selectAll<SVGPathElement, (typeof bands)[number]>('path.prediction-band')
    .data(bands)
    .join((enter) => enter.insert('path', ':first-child'))
    .attr('class', 'prediction-band')
    .attr('data-kind', 'prediction-band')
    .attr('data-group', (b) => b.group)
    .attr('d', (b) => b.d);
  // Where a band runs past the plot's top or bottom, a small arrow at the edge says so.
  const cuts = sweep.groups.flatMap((g) =>
    g.points.flatMap((p) =>
      bandCuts(p.point.band, y).map((cut) => ({ x: x(p.x), cut, group: g.label })),
    ),
  );
  svg
    .selectAll<SVGGElement, number>('g.band-cuts')
    .data([0])
    .join('g')
    .attr('class', 'band-cuts')
    .selectAll<SVGPathElement, (typeof cuts)[number]>('path.band-cut')
    .data(cuts)
    .join('path')
    .attr('class', 'band-cut')
    .attr('data-kind', 'band-cut')
    .attr('data-group', (c) => c.group)
    .attr('d', (c) => bandCutPath(c.x, c.cut, y))
    .selectAll('title')
    .data((c) => [c])
    .join('title')
    .text((c) => bandCutTitle(c.cut, unit));
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
  const item = pointMarks(svg, panel, y, (p) => xOf.get(p)!, 48);
  item
    .filter((p) => p.predicted !== null)
    .append('path')
    .attr('data-kind', 'prediction')
    .attr('class', 'prediction')
    .attr('transform', (p) => `translate(${xOf.get(p)},${y(p.predicted!)})`)
    .attr('d', symbol(symbolX, 48)() ?? '');
}
