// A counterexample's numbered steps (model/check.ts StepMark): a numbered badge inside the top
// of the step's CPU lane at its first event (or its time when it wrote none), so that which CPU
// a step ran on is never in doubt. Racing steps (run in the
// opposite order to a normal run) are filled, the violating step is red, the step being looked
// at has a thick ring. Several steps in one spot are pushed right so every number stays
// readable, each with a thin leader back to where it happened.
import type { Selection } from 'd3';
import type { StepMark } from '../../model/check';
import type { Columns } from '../columns';
import type { Scales } from '../scales';

/** Badge radius, px; neighbours on a lane keep one diameter and a gap apart. */
const R = 8;
const GAP = 2 * R + 2;

interface Placed {
  m: StepMark;
  x: number;
  at: number;
  y: number;
}

export function renderCheckSteps(
  g: Selection<SVGGElement, unknown, null, undefined>,
  marks: readonly StepMark[],
  scales: Scales,
  columns: Columns,
): void {
  const { pos } = columns;
  const [left, right] = scales.plot;
  const byCpu = new Map<number, Placed[]>();
  for (const m of marks) {
    const at = scales.x(m.row !== null ? pos.rowStart(m.row) : pos.toPos(m.time));
    if (at < left - R || at > right + R) continue;
    const lane = byCpu.get(m.cpu) ?? [];
    lane.push({ m, x: at, at, y: scales.trackY(m.cpu, 0) + R - 1 });
    byCpu.set(m.cpu, lane);
  }
  const placed: Placed[] = [];
  for (const lane of byCpu.values()) {
    lane.sort((p, q) => p.at - q.at || p.m.n - q.m.n);
    let prev = -Infinity;
    for (const p of lane) {
      p.x = Math.max(p.at, prev + GAP);
      prev = p.x;
      placed.push(p);
    }
    // A run pushed past the plot's right edge (a narrow frame) backs up to end inside it.
    let next = right + GAP;
    for (let i = lane.length - 1; i >= 0 && lane[i].x > next - GAP; i--) {
      lane[i].x = next - GAP;
      next = lane[i].x;
    }
  }
  g.selectAll<SVGGElement, Placed>('g.cx-step')
    .data(placed, (d) => String(d.m.n))
    .join((enter) => {
      const e = enter.append('g');
      e.append('line');
      e.append('circle');
      e.append('text');
      return e;
    })
    .attr('class', (d) =>
      [
        'cx-step',
        d.m.race !== null ? 'racing' : '',
        d.m.violation ? 'violation' : '',
        d.m.current ? 'current' : '',
      ]
        .filter(Boolean)
        .join(' '),
    )
    .attr('data-step', (d) => d.m.n)
    .attr('data-race', (d) => d.m.race ?? null)
    .attr('data-cpu', (d) => d.m.cpu)
    .call((s) =>
      s
        .select('line')
        .attr('x1', (d) => d.x)
        .attr('y1', (d) => d.y)
        .attr('x2', (d) => d.at)
        .attr('y2', (d) => d.y),
    )
    .call((s) =>
      s
        .select('circle')
        .attr('cx', (d) => d.x)
        .attr('cy', (d) => d.y)
        .attr('r', R),
    )
    .call((s) =>
      s
        .select('text')
        .attr('x', (d) => d.x)
        .attr('y', (d) => d.y + 3.5)
        .text((d) => d.m.n),
    );
}
