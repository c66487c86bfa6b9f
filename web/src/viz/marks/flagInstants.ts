// A recording's flagged events (SVG): an event whose flags column says interrupts or preemption
// were off as it fired is an instant, not a span: the flag says nothing of the time between two
// events. Each is a short tick at its time in the gap under its CPU's lane, irqs-off a solid
// tick and preempt-off a hollow ring beside it (shape, not colour alone), with a tooltip that
// names the line it came from. A window with more than MAX_FLAG_MARKS of them draws, per lane and
// flag, one path with a tick in every pixel column that has any: a recording of a busy machine
// flags tens of thousands of events, and an element each made every redraw a long task.
import type { Selection } from 'd3';
import { TRACKS } from '../../model/lanes';
import type { PosMap } from '../../model/spacing';
import { FLAG_IRQS_OFF, FLAG_PREEMPT_OFF, type FlagInstants } from '../../recording/types';
import { formatNs, type Scales } from '../scales';
import { set } from '../dom';

const TICK = 4;

/** The most flagged events drawn one by one in a window (each with its line in a tooltip). */
export const MAX_FLAG_MARKS = 500;

export function flagWords(bits: number): string {
  return [bits & FLAG_IRQS_OFF ? 'irqs off' : '', bits & FLAG_PREEMPT_OFF ? 'preempt off' : '']
    .filter(Boolean)
    .join(', ');
}

/** One flagged event drawn on its own: its index in FlagInstants and its place. */
export interface FlagMark {
  i: number;
  x: number;
  y: number;
}

/** A lane's flagged events of one flag in a crowded window: the pixel columns that have any. */
export interface FlagColumns {
  cpu: number;
  flag: typeof FLAG_IRQS_OFF | typeof FLAG_PREEMPT_OFF;
  y: number;
  /** Whole-pixel x of each column with at least one such event, ascending. */
  xs: number[];
  /** How many events those columns stand for. */
  count: number;
}

export type FlagLayout = { each: FlagMark[] } | { columns: FlagColumns[]; count: number };

/**
 * Where the events of `flagged` inside the plot [left, right] go: one mark each while they are
 * at most `budget`, else per lane and flag the pixel columns that hold any. `xOf` places a time
 * in px, `yOf` a CPU's marks (null: no such CPU on this timeline).
 */
export function layoutFlags(
  flagged: Pick<FlagInstants, 'time' | 'cpu' | 'bits'>,
  xOf: (ns: number) => number,
  yOf: (cpu: number) => number | null,
  [left, right]: readonly [number, number],
  budget = MAX_FLAG_MARKS,
): FlagLayout {
  const each: FlagMark[] = [];
  // Per lane and flag (key cpu * 4 + flag), a byte per pixel column of the plot and its margins:
  // a recording flags up to FLAG_INSTANTS_KEPT events, and this runs on every redraw.
  const from = Math.floor(left) - 6;
  const width = Math.max(0, Math.ceil(right) + 7 - from);
  const lanes = new Map<number, { hit: Uint8Array; col: FlagColumns }>();
  const ys = new Map<number, number | null>();
  let count = 0;
  for (let i = 0; i < flagged.time.length; i++) {
    const cpu = flagged.cpu[i];
    let y = ys.get(cpu);
    if (y === undefined) ys.set(cpu, (y = yOf(cpu)));
    if (y === null) continue;
    const x = xOf(flagged.time[i]);
    if (x < left - 6 || x > right + 6) continue;
    count++;
    if (count <= budget) each.push({ i, x, y });
    const column = Math.min(width - 1, Math.max(0, Math.round(x) - from));
    for (let flag = FLAG_IRQS_OFF; flag <= FLAG_PREEMPT_OFF; flag <<= 1) {
      if (!(flagged.bits[i] & flag)) continue;
      const key = cpu * 4 + flag;
      let lane = lanes.get(key);
      if (!lane) {
        const col = { cpu, flag: flag as FlagColumns['flag'], y, xs: [], count: 0 };
        lanes.set(key, (lane = { hit: new Uint8Array(width), col }));
      }
      lane.hit[column] = 1;
      lane.col.count++;
    }
  }
  if (count <= budget) return { each };
  const columns = [...lanes.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, { hit, col }]) => {
      const xs: number[] = [];
      for (let c = 0; c < width; c++) if (hit[c]) xs.push(c + from);
      return { ...col, xs };
    });
  return { columns, count };
}

/** Draws `flagged` in the window (or clears the layer when null); returns the marks drawn. */
export function renderFlagInstants(
  g: Selection<SVGGElement, unknown, null, undefined>,
  flagged: FlagInstants | null,
  scales: Scales,
  pos: PosMap,
): number {
  const cpuRows = new Set<number>();
  for (const r of scales.layout.rows) if (r.type === 'cpu') cpuRows.add(r.cpu);
  const layout: FlagLayout = flagged
    ? layoutFlags(
        flagged,
        (ns) => scales.x(pos.toPos(ns)),
        (cpu) => (cpuRows.has(cpu) ? scales.layout.laneTop(cpu) + TRACKS * scales.track + 1 : null),
        scales.plot,
      )
    : { each: [] };
  const root = g.node();
  if (root) set(root, 'class', 'flag-instants');
  const each = 'each' in layout ? layout.each : [];
  const columns = 'columns' in layout ? layout.columns : [];
  g.selectAll<SVGGElement, FlagMark>('g.flag-instant')
    .data(each, (m) => String(m.i))
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
      set(this.firstChild as SVGPathElement, 'd', tickPath(m.x, m.y, bits));
      const text = `${flagWords(bits)} as one event fired on CPU ${f.cpu[m.i]} at ${formatNs(f.time[m.i])} (flags column, line ${f.line[m.i]}): an instant, not a span`;
      const title = this.lastChild as SVGTitleElement;
      if (title.textContent !== text) title.textContent = text;
    });
  g.selectAll<SVGGElement, FlagColumns>('g.flag-columns')
    .data(columns, (c) => `${c.cpu}:${c.flag}`)
    .join((enter) => {
      const m = enter.append('g').attr('class', 'flag-columns');
      m.append('path').attr('stroke', 'currentColor').attr('stroke-width', 1).attr('fill', 'none');
      m.append('title');
      return m;
    })
    .each(function (c) {
      set(this, 'data-cpu', String(c.cpu));
      set(this, 'data-flag', flagWords(c.flag).replace(/ /g, '-'));
      set(this, 'data-count', String(c.count));
      set(
        this.firstChild as SVGPathElement,
        'd',
        c.xs.map((x) => tickPath(x, c.y, c.flag)).join(''),
      );
      const text = `${c.count.toLocaleString('en-US')} events fired with ${flagWords(c.flag)} on CPU ${c.cpu} in this window, a tick for each pixel that has any: zoom in to see each one and its line (each an instant, not a span)`;
      const title = this.lastChild as SVGTitleElement;
      if (title.textContent !== text) title.textContent = text;
    });
  return each.length + columns.reduce((s, c) => s + c.xs.length, 0);
}

/** A solid tick for irqs off, a small ring beside it for preemption off. */
function tickPath(x: number, y: number, bits: number): string {
  const irqs = bits & FLAG_IRQS_OFF ? `M${x},${y}v${TICK}` : '';
  const preempt =
    bits & FLAG_PREEMPT_OFF ? `M${x + 2},${y + TICK / 2}a1.5,1.5 0 1,0 3,0a1.5,1.5 0 1,0 -3,0` : '';
  return irqs + preempt;
}
