// A recording's flagged events (SVG): an event whose flags column says interrupts or preemption
// were off as it fired is an instant, not a span: the flag says nothing of the time between two
// events. Each is a short tick at its time in the gap under its CPU's lane, irqs-off a solid
// tick and preempt-off a hollow ring beside it (shape, not colour alone), with a tooltip that
// names the line it came from. Past MAX_MEASURED_MARKS in a window, one a pixel column of a lane.
import type { Selection } from 'd3';
import { TRACKS } from '../../model/lanes';
import type { PosMap } from '../../model/spacing';
import { FLAG_IRQS_OFF, FLAG_PREEMPT_OFF, type FlagInstants } from '../../recording/types';
import { formatNs, type Scales } from '../scales';
import { set } from '../dom';
import { measuredMarks, type MeasuredMark } from './measured';

const TICK = 4;

export function flagWords(bits: number): string {
  return [bits & FLAG_IRQS_OFF ? 'irqs off' : '', bits & FLAG_PREEMPT_OFF ? 'preempt off' : '']
    .filter(Boolean)
    .join(', ');
}

/** Draws `flagged` in the window (or clears the layer when null); returns the marks drawn. */
export function renderFlagInstants(
  g: Selection<SVGGElement, unknown, null, undefined>,
  flagged: FlagInstants | null,
  scales: Scales,
  pos: PosMap,
): number {
  const n = flagged?.time.length ?? 0;
  const cpuRows = new Set<number>();
  for (const r of scales.layout.rows) if (r.type === 'cpu') cpuRows.add(r.cpu);
  // measuredMarks places {time, cpu, duration}; a flag is an instant.
  const events = Array.from({ length: n }, (_, i) => ({
    time: flagged!.time[i],
    cpu: flagged!.cpu[i],
    duration: 0,
  }));
  const marks = n
    ? measuredMarks(
        events as Parameters<typeof measuredMarks>[0],
        (ns) => scales.x(pos.toPos(ns)),
        (cpu) => (cpuRows.has(cpu) ? scales.layout.laneTop(cpu) + TRACKS * scales.track + 1 : null),
        scales.plot,
      )
    : [];
  const root = g.node();
  if (root) set(root, 'class', 'flag-instants');
  g.selectAll<SVGGElement, MeasuredMark>('g.flag-instant')
    .data(marks, (m) => String(m.i))
    .join((enter) => {
      const m = enter.append('g').attr('class', 'flag-instant');
      m.append('path')
        .attr('stroke', 'currentColor')
        .attr('stroke-width', 1.5)
        .attr('fill', 'none');
      m.append('title');
      return m;
    })
    .each(function (m) {
      const f = flagged!;
      const bits = f.bits[m.i];
      set(this, 'data-cpu', String(f.cpu[m.i]));
      set(this, 'data-flag', flagWords(bits).replace(/ /g, '-'));
      set(this, 'data-line', String(f.line[m.i]));
      const irqs = bits & FLAG_IRQS_OFF ? `M${m.x},${m.y}v${TICK}` : '';
      const preempt =
        bits & FLAG_PREEMPT_OFF
          ? `M${m.x + 2},${m.y + TICK / 2}a1.5,1.5 0 1,0 3,0a1.5,1.5 0 1,0 -3,0`
          : '';
      set(this.firstChild as SVGPathElement, 'd', irqs + preempt);
      const text = `${flagWords(bits)} as one event fired on CPU ${f.cpu[m.i]} at ${formatNs(f.time[m.i])} (flags column, line ${f.line[m.i]}): an instant, not a span`;
      const title = this.lastChild as SVGTitleElement;
      if (title.textContent !== text) title.textContent = text;
    });
  return marks.length;
}
