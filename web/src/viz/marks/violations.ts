// Violation mark (SVG): every InvariantViolated row in the window as a red ✕ with an outline,
// on its CPU's lane (or its collapsed group's merged lane) at its time, drawn above the other
// marks. Never aggregated: at any zoom each violation in the window is its own clickable
// element (data-row), so the Inspector can explain it. Many violations on one lane in one
// pixel column would be indistinguishable, so beyond MAX_VIOLATIONS only the first of each
// (lane, column) is kept, and the rest are counted in its tooltip. Violations stacked on one
// spot (39 stale hits at one instant are 78 ✕ on one pixel) carry a count badge, so a stack
// does not read as one violation.
import type { Selection } from 'd3';
import { candidates, type IntervalIndex } from '../../model/intervals';
import type { Columns } from '../columns';
import { formatNs, type Scales } from '../scales';

export const MAX_VIOLATIONS = 1500;

/** A ✕: a plus sign of arm length 6 and half-width 1.8, turned 45°, centred on (0, 0). */
export const CROSS = (() => {
  const [a, w] = [6, 1.8];
  const plus: [number, number][] = [
    [-w, -a],
    [w, -a],
    [w, -w],
    [a, -w],
    [a, w],
    [w, w],
    [w, a],
    [-w, a],
    [-w, w],
    [-a, w],
    [-a, -w],
    [-w, -w],
  ];
  const r = Math.SQRT1_2;
  const pts = plus.map(([px, py]) => `${((px - py) * r).toFixed(2)},${((px + py) * r).toFixed(2)}`);
  return `M${pts.join('L')}Z`;
})();

interface Item {
  row: number;
  x: number;
  y: number;
  more: number;
}

/** ✕ closer than this (px, on one lane) overlap: they are counted as one stack. */
export const STACK_PX = 4;

export interface Stack {
  /** The first ✕ of the stack (its badge sits beside it). */
  row: number;
  x: number;
  y: number;
  count: number;
  /** The badge's words: "39×I3 39×I1", or "×N" when more than two invariants share it. */
  label: string;
  /** Each invariant's count, most first. */
  byId: [string, number][];
}

/**
 * Overlapping ✕ on each lane, with how many violations of each invariant each holds (the id
 * is what the message starts with, "I3: ..."). Only stacks of more than one are returned.
 */
export function stacksOf(
  items: readonly { row: number; x: number; y: number; more: number }[],
  idOf: (row: number) => string,
): Stack[] {
  const sorted = [...items].sort((p, q) => p.y - q.y || p.x - q.x);
  const out: Stack[] = [];
  let i = 0;
  while (i < sorted.length) {
    const first = sorted[i];
    const ids = new Map<string, number>();
    let count = 0;
    let j = i;
    for (; j < sorted.length && sorted[j].y === first.y && sorted[j].x - first.x < STACK_PX; j++) {
      const n = 1 + sorted[j].more;
      const id = idOf(sorted[j].row);
      ids.set(id, (ids.get(id) ?? 0) + n);
      count += n;
    }
    if (count > 1) {
      const byId = [...ids].sort((p, q) => q[1] - p[1] || p[0].localeCompare(q[0]));
      const label = byId.length <= 2 ? byId.map(([id, n]) => `${n}×${id}`).join(' ') : `×${count}`;
      out.push({ row: first.row, x: first.x, y: first.y, count, label, byId });
    }
    i = j;
  }
  return out;
}

/** An invariant's id, from its message ("I3: CPU 7 used ..." → "I3"). */
function invariantId(text: string | undefined): string {
  return /^\s*(I\d+)\b/.exec(text ?? '')?.[1] ?? '✕';
}

export function renderViolations(
  g: Selection<SVGGElement, unknown, null, undefined>,
  index: IntervalIndex,
  scales: Scales,
  { trace, pos }: Columns,
  selected: number | null,
): number {
  const { x } = scales;
  const [left, right] = scales.plot;
  // Not clipped to the plot: a violation at the very start or end of the run stays whole.
  const [p0, p1] = [x.invert(left - 6), x.invert(right + 6)];
  const [lo, hi] = candidates(index, p0, p1);
  const items: Item[] = [];
  const thin = hi - lo > MAX_VIOLATIONS;
  const seen = new Map<string, Item>();
  for (let j = lo; j < hi; j++) {
    if (index.end[j] < p0) continue;
    const row = index.ids[j];
    const cpu = trace.cpu[row];
    const it = {
      row,
      x: x(pos.rowStart(row)),
      y: scales.trackY(cpu, 0) + scales.track / 2 + 1,
      more: 0,
    };
    if (thin) {
      const key = `${it.y}:${Math.round(it.x)}`;
      const first = seen.get(key);
      if (first) {
        first.more++;
        continue;
      }
      seen.set(key, it);
    }
    items.push(it);
  }
  g.selectAll<SVGGElement, Item>('g.violation')
    .data(items, (d) => d.row)
    .join((enter) =>
      enter
        .append('g')
        .attr('data-kind', 'InvariantViolated')
        .call((v) => v.append('path').attr('d', CROSS))
        .call((v) => v.append('title')),
    )
    .attr('class', (d) => `mark violation${d.row === selected ? ' selected' : ''}`)
    .attr('data-row', (d) => d.row)
    .attr('data-cpu', (d) => trace.cpu[d.row])
    .attr('transform', (d) => `translate(${d.x},${d.y})`)
    .select('title')
    .text((d) => {
      const text = trace.strings[trace.arg[d.row]] ?? 'invariant violated';
      const more = d.more ? ` (+${d.more} more here)` : '';
      return `${text} — CPU ${trace.cpu[d.row]} at ${formatNs(trace.time[d.row])}${more}`;
    });
  const stacks = stacksOf(items, (row) => invariantId(trace.strings[trace.arg[row]]));
  const badges = g
    .selectAll<SVGGElement, Stack>('g.violation-count')
    .data(stacks, (d) => d.row)
    .join((enter) =>
      enter
        .append('g')
        .attr('class', 'violation-count')
        .call((b) => b.append('rect').attr('rx', 3))
        .call((b) => b.append('text'))
        .call((b) => b.append('title')),
    )
    .attr('data-count', (d) => d.count)
    .attr('transform', (d) => `translate(${d.x + 8},${d.y - 6.5})`);
  badges
    .select('text')
    .attr('x', 3)
    .attr('y', 10)
    .text((d) => d.label);
  badges
    .select('rect')
    .attr('height', 13)
    .attr('width', (d) => 6 + d.label.length * 6.2);
  badges
    .select('title')
    .text(
      (d) =>
        `${d.count} violations at this spot: ${d.byId.map(([id, n]) => `${n} × ${id}`).join(', ')}`,
    );
  return items.length;
}
