// The frame around the marks: lane backgrounds (under the canvas), lane labels, group
// headers with their collapse toggles, and the axis (over it).
import type { Selection } from 'd3';
import type { LayoutRow } from '../model/layout';
import type { PosMap } from '../model/spacing';
import { set, setText } from './dom';
import { AXIS_HEIGHT, formatNs, LANE_GAP, SIZES, type Scales } from './scales';

type G = Selection<SVGGElement, unknown, null, undefined>;

export function renderBackgrounds(g: G, scales: Scales): void {
  const { layout, width } = scales;
  g.selectAll<SVGRectElement, LayoutRow>('rect')
    .data(layout.rows)
    .join('rect')
    .each(function (r) {
      set(this, 'class', r.type === 'group' ? 'group-bg' : `lane-bg lane-bg-${r.type}`);
      set(this, 'x', '0');
      set(this, 'y', String(r.y));
      set(this, 'width', String(width));
      const h =
        r.type === 'group' || r.type === 'fold'
          ? SIZES.headerHeight - 2
          : layout.laneHeight - LANE_GAP / 2;
      set(this, 'height', String(h));
    });
}

export function renderLabels(
  g: G,
  scales: Scales,
  initiator: number,
  onToggle: (group: number) => void,
  onUnfold: (first: number, last: number) => void = () => {},
): void {
  const { layout } = scales;
  const lanes = layout.rows.filter((r) => r.type === 'cpu' || r.type === 'aggregate');
  const mid = (layout.laneHeight - LANE_GAP) / 2 + 4;
  g.selectAll<SVGGElement, LayoutRow>('g.lane')
    .data(lanes, (r) => (r.type === 'cpu' ? `c${r.cpu}` : `a${r.type === 'aggregate' && r.group}`))
    .join((enter) => {
      const l = enter.append('g');
      l.append('text').attr('class', 'lane-label');
      return l;
    })
    .each(function (r) {
      set(this, 'class', r.type === 'cpu' ? 'lane' : 'lane aggregate');
      if (r.type === 'cpu') set(this, 'data-cpu', String(r.cpu));
      else this.removeAttribute('data-cpu');
      if (r.type === 'aggregate') set(this, 'data-group', String(r.group));
      else this.removeAttribute('data-group');
      const text = this.firstChild as SVGTextElement;
      set(text, 'x', '8');
      set(text, 'y', String(r.y + mid));
      if (r.type === 'cpu')
        setText(text, r.cpu === initiator ? `CPU ${r.cpu} · initiator` : `CPU ${r.cpu}`);
      else if (r.type === 'aggregate') setText(text, `${r.last - r.first + 1} CPUs, merged`);
      else setText(text, '');
    });

  renderFolds(g, scales, initiator, onUnfold);

  const groups = layout.rows.filter((r) => r.type === 'group');
  toggleRows(g, 'group-toggle', groups, (r) => (r.type === 'group' ? r.group : -1))
    .each(function (r) {
      if (r.type !== 'group') return;
      const label = `CPUs ${r.first}–${r.last}`;
      set(this, 'data-group', String(r.group));
      set(this, 'aria-expanded', String(!r.collapsed));
      set(this, 'aria-label', `${r.collapsed ? 'Expand' : 'Collapse'} ${label}`);
      const hasInit = initiator >= r.first && initiator <= r.last ? ' · initiator' : '';
      placeToggle(this, r.y, scales.plot[0] + 160, `${r.collapsed ? '▸' : '▾'} ${label}${hasInit}`);
    })
    .call(onActivate, (r) => {
      if (r.type === 'group') onToggle(r.group);
    });
}

/** Rows of header buttons (an SVG group with a hit box and a label), keyed by `key`. */
function toggleRows(g: G, cls: string, rows: LayoutRow[], key: (r: LayoutRow) => string | number) {
  return g
    .selectAll<SVGGElement, LayoutRow>(`g.${cls}`)
    .data(rows, key)
    .join((enter) => {
      const t = enter.append('g').attr('class', cls).attr('role', 'button').attr('tabindex', 0);
      t.append('rect').attr('class', 'toggle-hit');
      t.append('text');
      return t;
    });
}

/** A header button's hit box and label at row `y`. */
function placeToggle(el: SVGGElement, y: number, width: number, label: string): void {
  const rect = el.firstChild as SVGRectElement;
  set(rect, 'x', '0');
  set(rect, 'y', String(y));
  set(rect, 'width', String(width));
  set(rect, 'height', String(SIZES.headerHeight - 2));
  const text = el.lastChild as SVGTextElement;
  set(text, 'x', '6');
  set(text, 'y', String(y + 13));
  setText(text, label);
}

/** Click, Enter and Space all act, without reaching the plot's own handlers. */
function onActivate(
  sel: Selection<SVGGElement, LayoutRow, SVGGElement, unknown>,
  act: (r: LayoutRow) => void,
): void {
  sel
    .on('click', (e: MouseEvent, r) => {
      e.stopPropagation();
      act(r);
    })
    .on('keydown', (e: KeyboardEvent, r) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        e.stopPropagation();
        act(r);
      }
    });
}

/** The strips of folded CPUs: each a button that unfolds them. */
function renderFolds(
  g: G,
  scales: Scales,
  initiator: number,
  onUnfold: (first: number, last: number) => void,
): void {
  const folds = scales.layout.rows.filter((r) => r.type === 'fold');
  toggleRows(g, 'fold-toggle', folds, (r) => (r.type === 'fold' ? `${r.first}-${r.last}` : ''))
    .each(function (r) {
      if (r.type !== 'fold') return;
      const n = r.last - r.first + 1;
      const label = n === 1 ? `CPU ${r.first}` : `CPUs ${r.first}–${r.last}`;
      const init = initiator >= r.first && initiator <= r.last ? ' · initiator' : '';
      set(this, 'data-first', String(r.first));
      set(this, 'data-last', String(r.last));
      set(
        this,
        'aria-label',
        `Show ${label}, folded because this step is not about ${n === 1 ? 'it' : 'them'}`,
      );
      placeToggle(this, r.y, scales.plot[0], `▸ ${label}${init}`);
    })
    .call(onActivate, (r) => {
      if (r.type === 'fold') onUnfold(r.first, r.last);
    });
}

/**
 * The time (or event-order) axis above the lanes. Drawn by hand rather than with d3.axisTop:
 * d3's axis keys ticks by value, so every pan frame removed and created all of them; here
 * tick elements are reused by index and only their position and text change.
 */
export function renderAxis(g: G, scales: Scales, pos: PosMap): void {
  const { x, plot } = scales;
  const count = Math.max(2, Math.floor((plot[1] - plot[0]) / 110));
  const event = pos.spacing === 'event';
  const [a, b] = x.domain();
  // Event spacing: ticks on whole events only.
  const values = event
    ? x.ticks(count).filter((t) => Number.isInteger(t) && t >= a && t <= b)
    : x.ticks(count);
  const format = event ? (d: number) => `#${Math.round(d)}` : formatNs;
  const root = g.node();
  if (root) {
    set(root, 'class', 'axis');
    set(root, 'transform', `translate(0,${AXIS_HEIGHT - 4})`);
    set(root, 'fill', 'none');
    set(root, 'font-size', '10');
    set(root, 'text-anchor', 'middle');
  }
  g.selectAll<SVGPathElement, number>('path.domain')
    .data([0])
    .join((enter) => enter.append('path').attr('class', 'domain').attr('stroke', 'currentColor'))
    .each(function () {
      set(this, 'd', `M${plot[0] + 0.5},-6V0.5H${plot[1] + 0.5}V-6`);
    });
  const ticks = g
    .selectAll<SVGGElement, number>('g.tick')
    .data(values)
    .join((enter) => {
      const t = enter.append('g').attr('class', 'tick');
      t.append('line').attr('stroke', 'currentColor').attr('y2', -6);
      t.append('text').attr('fill', 'currentColor').attr('y', -9);
      return t;
    });
  ticks.each(function (d) {
    set(this, 'transform', `translate(${x(d) + 0.5},0)`);
    const text = this.lastChild as SVGTextElement;
    const label = format(d);
    if (text.textContent !== label) text.textContent = label;
  });
  g.selectAll<SVGTextElement, number>('text.axis-title')
    .data([0])
    .join((enter) =>
      enter
        .append('text')
        .attr('class', 'axis-title')
        .attr('text-anchor', 'start')
        .attr('x', 8)
        .attr('y', -8),
    )
    .each(function () {
      setText(this, event ? 'event order' : 'time');
    });
}
