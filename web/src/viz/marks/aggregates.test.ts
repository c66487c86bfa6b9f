import { beforeAll, describe, expect, it } from 'vitest';
import { toLayout } from '../../model/layout';
import { toPosMap } from '../../model/spacing';
import { runScenario } from '../../sim/run';
import { initSimulatorForNode, readScenario } from '../../sim/testing';
import { EventKind, type Trace } from '../../trace/trace';
import { SIZES, toScales } from '../scales';
import { packRgba, parseRgb, runAlpha, toStrips, type CanvasItem } from './aggregates';

const RGB: Record<number, [number, number, number]> = {};
const rgb = (kind: number): [number, number, number] => (RGB[kind] ??= [kind, 2 * kind, 3]);

let trace: Trace;
beforeAll(() => {
  initSimulatorForNode();
  trace = runScenario(readScenario('x86-munmap-shootdown')).trace;
});

function scalesFor(window: [number, number], width = 418) {
  return toScales(toLayout(trace.cpus, new Set(), SIZES), window, width);
}

const bins = (x0: number[], x1: number[], kind: number[], coverage: number[]) => ({
  n: x0.length,
  x0: Float32Array.from(x0),
  x1: Float32Array.from(x1),
  count: new Uint32Array(x0.length).fill(1),
  kind: Uint8Array.from(kind),
  coverage: Float32Array.from(coverage),
});

describe('toStrips: one pixel row per canvas item', () => {
  it('writes each run at its columns, coloured by kind with opacity by coverage', () => {
    const scales = scalesFor([0, 1000]); // plot is 418 - 118 - 16 = 284 px wide
    const items: CanvasItem[] = [
      {
        y: 0,
        h: 8,
        bins: bins([2, 10], [5, 11], [EventKind.IpiHandler, EventKind.FlushRange], [1, 0.1]),
      },
    ];
    const s = toStrips(items, scales, { trace, pos: toPosMap(trace, 'time') }, rgb, false, 1);
    expect(s.width).toBe(284);
    const row = Array.from(s.pixels.subarray(0, s.width));
    const handler = packRgba(...rgb(EventKind.IpiHandler), runAlpha(1, false));
    const flush = packRgba(...rgb(EventKind.FlushRange), runAlpha(0.1, false));
    expect(row.slice(0, 12)).toEqual([0, 0, handler, handler, handler, 0, 0, 0, 0, 0, flush, 0]);
    expect(runAlpha(0.1, false)).toBeLessThan(runAlpha(1, false));
  });

  it('doubles the columns at device pixel ratio 2 and dims every run when asked', () => {
    const scales = scalesFor([0, 1000]);
    const items: CanvasItem[] = [{ y: 0, h: 8, bins: bins([3], [4], [EventKind.IpiWait], [1]) }];
    const columns = { trace, pos: toPosMap(trace, 'time') };
    const s = toStrips(items, scales, columns, rgb, true, 2);
    expect(s.width).toBe(568);
    const lit = [...s.pixels.subarray(0, s.width).keys()].filter((i) => s.pixels[i] !== 0);
    expect(lit).toEqual([6, 7]);
    expect(s.pixels[6]).toBe(packRgba(...rgb(EventKind.IpiWait), runAlpha(1, true)));
  });

  it('draws rows at their time, at least one pixel wide, each item on its own row', () => {
    const pos = toPosMap(trace, 'time');
    const rows = [...trace.kind.keys()].filter((i) => trace.kind[i] === EventKind.IpiHandler);
    const [a, b] = [rows[0], rows[1]];
    const window: [number, number] = [trace.time[a] - 100, trace.time[b] + trace.dur[b] + 100];
    const scales = scalesFor(window);
    const items: CanvasItem[] = [
      { y: 0, h: 8, rows: Int32Array.of(a) },
      { y: 10, h: 8, rows: Int32Array.of(b) },
    ];
    const s = toStrips(items, scales, { trace, pos }, rgb, false, 1);
    const litIn = (r: number) =>
      [...Array(s.width).keys()].filter((i) => s.pixels[r * s.stride + i] !== 0);
    const x = (t: number) => scales.x(t) - scales.plot[0];
    for (const [r, row] of [a, b].entries()) {
      const lit = litIn(r);
      expect(lit.length).toBeGreaterThanOrEqual(1);
      expect(lit[0]).toBe(Math.floor(x(pos.rowStart(row))));
      expect(lit.at(-1)! + 1).toBe(
        Math.max(Math.round(x(pos.rowEnd(row))), Math.floor(x(pos.rowStart(row))) + 1),
      );
    }
  });

  it('reads the colours a canvas reports', () => {
    expect(parseRgb('#2e8b57')).toEqual([46, 139, 87]);
    expect(parseRgb('rgba(1, 2, 3, 0.5)')).toEqual([1, 2, 3]);
  });
});
