// The frame around the marks: lane backgrounds (under the canvas), lane labels, group
// headers with their collapse toggles, and the axis (over it).
import type { Selection } from 'd3';
import type { LayoutRow } from '../model/layout';
import type { PosMap } from '../model/spacing';
import { AXIS_HEIGHT, formatNs, LANE_GAP, SIZES, type Scales } from './scales';

type G = Selection<SVGGElement, unknown, null, undefined>;

export function renderBackgrounds(g: G, scales: Scales): void {
  const { layout, width } = scales;
  g.selectAll('rect')
    .data(layout.rows)
    .join('rect')
    .attr('class', (r) => (r.type === 'group' ? 'group-bg' : `lane-bg lane-bg-${r.type}`))
    .attr('x', 0)
    .attr('y', (r) => r.y)
    .attr('width', width)
    .attr('height', (r) =>
      r.type === 'group' ? SIZES.headerHeight - 2 : layout.laneHeight - LANE_GAP / 2,
    );
}

export function renderLabels(
  g: G,
  scales: Scales,
  initiator: number,
  onToggle: (group: number) => void,
): void {
  const { layout } = scales;
  const lanes = layout.rows.filter((r) => r.type !== 'group');
  const mid = (layout.laneHeight - LANE_GAP) / 2 + 4;
  g.selectAll<SVGGElement, LayoutRow>('g.lane')
    .data(lanes, (r) => (r.type === 'cpu' ? `c${r.cpu}` : `a${r.type === 'aggregate' && r.group}`))
    .join((enter) => {
      const l = enter.append('g');
      l.append('text').attr('class', 'lane-label');
      return l;
    })
    .attr('class', (r) => (r.type === 'cpu' ? 'lane' : 'lane aggregate'))
    .attr('data-cpu', (r) => (r.type === 'cpu' ? r.cpu : null))
    .attr('data-group', (r) => (r.type === 'aggregate' ? r.group : null))
    .select('text')
    .attr('x', 8)
    .attr('y', (r) => r.y + mid)
    .text((r) => {
      if (r.type === 'cpu')
        return r.cpu === initiator ? `CPU ${r.cpu} · initiator` : `CPU ${r.cpu}`;
      if (r.type === 'aggregate') return `${r.last - r.first + 1} CPUs, merged`;
      return '';
    });

  const groups = layout.rows.filter((r) => r.type === 'group');
  g.selectAll<SVGGElement, LayoutRow>('g.group-toggle')
    .data(groups, (r) => (r.type === 'group' ? r.group : -1))
    .join((enter) => {
      const t = enter
        .append('g')
        .attr('class', 'group-toggle')
        .attr('role', 'button')
        .attr('tabindex', 0);
      t.append('rect').attr('class', 'toggle-hit');
      t.append('text');
      return t;
    })
    .each(function (r) {
      if (r.type !== 'group') return;
      const label = `CPUs ${r.first}–${r.last}`;
      this.setAttribute('data-group', String(r.group));
      this.setAttribute('aria-expanded', String(!r.collapsed));
      this.setAttribute('aria-label', `${r.collapsed ? 'Expand' : 'Collapse'} ${label}`);
      const rect = this.firstChild as SVGRectElement;
      rect.setAttribute('x', '0');
      rect.setAttribute('y', String(r.y));
      rect.setAttribute('width', String(scales.plot[0] + 160));
      rect.setAttribute('height', String(SIZES.headerHeight - 2));
      const text = this.lastChild as SVGTextElement;
      text.setAttribute('x', '6');
      text.setAttribute('y', String(r.y + 13));
      const hasInit = initiator >= r.first && initiator <= r.last ? ' · initiator' : '';
      text.textContent = `${r.collapsed ? '▸' : '▾'} ${label}${hasInit}`;
    })
    .on('click', (e: MouseEvent, r) => {
      e.stopPropagation();
      if (r.type === 'group') onToggle(r.group);
    })
    .on('keydown', (e: KeyboardEvent, r) => {
      if ((e.key === 'Enter' || e.key === ' ') && r.type === 'group') {
        e.preventDefault();
        e.stopPropagation();
        onToggle(r.group);
      }
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
  g.attr('class', 'axis')
    .attr('transform', `translate(0,${AXIS_HEIGHT - 4})`)
    .attr('fill', 'none')
    .attr('font-size', 10)
    .attr('text-anchor', 'middle');
  g.selectAll('path.domain')
    .data([0])
    .join('path')
    .attr('class', 'domain')
    .attr('stroke', 'currentColor')
    .attr('d', `M${plot[0] + 0.5},-6V0.5H${plot[1] + 0.5}V-6`);
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
    this.setAttribute('transform', `translate(${x(d) + 0.5},0)`);
    const text = this.lastChild as SVGTextElement;
    const label = format(d);
    if (text.textContent !== label) text.textContent = label;
  });
  g.selectAll('text.axis-title')
    .data([0])
    .join('text')
    .attr('class', 'axis-title')
    .attr('fill', null)
    .attr('text-anchor', 'start')
    .attr('x', 8)
    .attr('y', -8)
    .text(event ? 'event order' : 'time');
}
