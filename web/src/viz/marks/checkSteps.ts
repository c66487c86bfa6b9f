// A counterexample's numbered steps (model/check.ts StepMark): a numbered badge inside the top
// of the step's CPU lane at its first event (or its time when it wrote none), so that which CPU
// a step ran on is never in doubt. Racing steps (run in the
// opposite order to a normal run) are filled, the violating step is red, the step being looked
// at has a thick ring. Several steps in one spot are moved to the nearest free place on the
// lane's two badge rows (viz/labelLayout.ts) so every number stays readable, each with a thin
// leader back to where it happened; a chain of them never runs off the plot.
import type { Selection } from 'd3';
import type { StepMark } from '../../model/check';
import type { Columns } from '../columns';
import type { Scales } from '../scales';
import { placeLabels } from '../labelLayout';

/** Badge radius, px; neighbours on a lane keep one diameter and a gap apart. */
const R = 8;
/** Badge rows per lane: the second sits just under the first, still inside the lane. */
const ROWS = 2;

interface Placed {
  m: StepMark;
  x: number;
  at: number;
  /** Where the leader starts: the step's spot on the lane's first badge row. */
  y0: number;
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
  const shown: Placed[] = [];
  for (const m of [...marks].sort((p, q) => p.n - q.n)) {
    const at = scales.x(m.row !== null ? pos.rowStart(m.row) : pos.toPos(m.time));
    if (at < left - R || at > right + R) continue;
    const y0 = scales.trackY(m.cpu, 0) + R - 1;
    shown.push({ m, x: at, at, y0, y: y0 });
  }
  // Grouped by where the lane is drawn, not by CPU: a collapsed group's CPUs share one lane.
  const spots = placeLabels(
    shown.map((p) => ({
      group: Math.round(p.y0),
      want: p.at - R,
      width: 2 * R,
      // A folded CPU's strip is one badge high.
      rows: scales.layout.folded(p.m.cpu) ? 1 : ROWS,
    })),
    { bounds: [left, right], gap: 2, rowCost: 3 * R },
  );
  const placed: Placed[] = [];
  shown.forEach((p, i) => {
    const s = spots[i];
    if (!s) return;
    p.x = s.x + R;
    p.y = p.y0 + s.row * (2 * R + 2);
    placed.push(p);
  });
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
        .attr('y2', (d) => d.y0),
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
