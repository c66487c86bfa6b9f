// @vitest-environment jsdom
// The remote timeline's drawing: the painted answer is moved onto the window on screen by a
// transform that puts each answer time at the x the window gives it, and the window's rows
// become marks at their CPU's strip and time, one per row, rewritten in place.
import { describe, expect, it } from 'vitest';
import { EventKind, type Columns } from '../trace/trace';
import { placeAnswer, remoteLayout, renderRemoteTop, REMOTE_AXIS } from './remote';

const SVG = 'http://www.w3.org/2000/svg';

/** Where the transform puts time t of the answer, in px from the plot's left edge. */
function xOf(style: string, a0: number, a1: number, W: number, t: number): number {
  const m = style.match(/translateX\(([-\d.e]+)px\) scaleX\(([-\d.e]+)\)/);
  if (!m) throw new Error(`no transform in '${style}'`);
  return Number(m[1]) + Number(m[2]) * ((t - a0) / (a1 - a0)) * W;
}

describe('placing the painted answer', () => {
  it('maps the answer onto the window: its times land where the window puts them', () => {
    const layout = remoteLayout(8, 1064);
    const W = layout.plot[1] - layout.plot[0];
    const canvas = document.createElement('canvas');
    const clip = document.createElement('div');
    const painted = { t0: 1000, t1: 3000, image: canvas };
    for (const win of [
      [1000, 3000],
      [1500, 2500],
      [0, 4000],
      [2900, 3100],
    ] as [number, number][]) {
      placeAnswer(canvas, clip, layout, win, painted);
      const at = (t: number) => ((t - win[0]) / (win[1] - win[0])) * W;
      for (const t of [1000, 1700, 3000])
        expect(xOf(canvas.style.transform, 1000, 3000, W, t)).toBeCloseTo(at(t), 1);
    }
    expect(clip.style.left).toBe(`${layout.plot[0]}px`);
    expect(canvas.style.visibility).toBe('visible');
    placeAnswer(canvas, clip, layout, [0, 1], null);
    expect(canvas.style.visibility).toBe('hidden');
  });
});

describe("the window's rows as marks", () => {
  const cols = (rows: [number, number, number, number][]): Columns => ({
    time: Float64Array.from(rows, (r) => r[0]),
    dur: Float64Array.from(rows, (r) => r[1]),
    cpu: Uint16Array.from(rows, (r) => r[2]),
    kind: Uint8Array.from(rows, (r) => r[3]),
    mm: new Uint16Array(rows.length),
    asid: new Uint16Array(rows.length),
    gen: new Uint32Array(rows.length),
    addr: new Float64Array(rows.length),
    arg: new Float64Array(rows.length),
    parent: new Int32Array(rows.length).fill(-1),
  });

  it('draws each row at its CPU and time, labels every lane, and rewrites marks in place', () => {
    const svg = document.createElementNS(SVG, 'svg') as SVGSVGElement;
    const layout = remoteLayout(4, 600);
    const rows = {
      rows: Int32Array.from([10, 11, 12]),
      columns: cols([
        [100, 50, 0, EventKind.TaskRun],
        [120, 0, 3, EventKind.IpiHandler],
        [150, 40, 2, EventKind.FlushRange],
      ]),
    };
    expect(renderRemoteTop(svg, layout, [100, 200], rows, 150, 11)).toBe(3);
    expect(svg.querySelectorAll('g.lane')).toHaveLength(4);
    const marks = [...svg.querySelectorAll('rect.mark')];
    expect(marks.map((m) => m.getAttribute('data-row'))).toEqual(['10', '11', '12']);
    const [plot0, plot1] = layout.plot;
    const x = (t: number) => plot0 + ((t - 100) / 100) * (plot1 - plot0);
    expect(Number(marks[0].getAttribute('x'))).toBeCloseTo(x(100));
    expect(Number(marks[0].getAttribute('width'))).toBeCloseTo(x(150) - x(100));
    expect(Number(marks[2].getAttribute('y'))).toBe(REMOTE_AXIS + 2 * layout.strip);
    expect(marks[1].getAttribute('data-kind')).toBe('IpiHandler');
    expect(marks[1].classList.contains('selected')).toBe(true);
    expect(svg.querySelectorAll('line.remote-cursor')).toHaveLength(1);
    // A pan: the same rows move, the elements stay.
    renderRemoteTop(svg, layout, [120, 220], rows, null, null);
    const again = [...svg.querySelectorAll('rect.mark')];
    expect(again[0]).toBe(marks[0]);
    expect(Number(again[0].getAttribute('x'))).toBeCloseTo(plot0);
    expect(svg.querySelectorAll('.selected, line.remote-cursor')).toHaveLength(0);
  });
});
