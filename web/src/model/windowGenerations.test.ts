// The tlb_gen charts of a run kept in its worker are the page-held chart's model: the model
// read from a RowSource a slice at a time equals toGenerations over the trace, and a window's
// answer holds the lag the page-held chart rasterises for each CPU, and the tlb_gen steps its
// line passes through.
import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import type { Trace } from '../trace/trace';
import { lastRowAt, rasteriseLag, tlbGenAt, toGenerations, toLagIndex } from './generations';
import { columnSource } from './rowSource';
import { toPosMap, traceEnd } from './spacing';
import { generationsInWindow, generationsOfSource, indexGenerations } from './windowGenerations';

let trace: Trace;

beforeAll(() => {
  initSimulatorForNode();
  // Enough rows for several slices of the source (65,536 rows each) and a lag pyramid.
  trace = runScenario(readScenario('x86-munmap-shootdown'), {
    overrides: ['cpus=16', 'flushes=2000'],
  }).trace;
});

describe('the tlb_gen charts of a run kept in its worker', () => {
  it('builds the same model from the source a slice at a time', () => {
    expect(trace.n).toBeGreaterThan(70_000);
    const want = toGenerations(trace);
    expect(want.mms.length).toBeGreaterThan(0);
    expect(generationsOfSource(columnSource(trace), trace.cpus, Infinity)).toEqual(want);
  });

  it('refuses a model of more steps than it may keep', () => {
    expect(generationsOfSource(columnSource(trace), trace.cpus, 1000)).toBeNull();
  });

  it("answers a window with the page-held chart's lag per CPU and its tlb_gen steps", () => {
    const model = toGenerations(trace);
    const end = traceEnd(trace);
    const ix = indexGenerations(model, end);
    const pos = toPosMap(trace, 'time', end);
    const W = 300;
    for (const [t0, t1] of [
      [0, end],
      [end * 0.41, end * 0.43],
      [end * 0.7, end * 0.7 + 500],
    ]) {
      const got = generationsInWindow(ix, t0, t1, W);
      expect(got.map((g) => g.mm)).toEqual(model.mms.map((m) => m.mm));
      let behind = 0;
      got.forEach((g, m) => {
        const mm = model.mms[m];
        expect(Array.from(g.cpus)).toEqual(mm.slots.map((s) => s.cpu));
        mm.slots.forEach((s, r) => {
          const col = new Int32Array(W).fill(-1);
          rasteriseLag(toLagIndex(s, pos), t0, t1, col);
          expect(Array.from(g.lag.subarray(r * W, (r + 1) * W))).toEqual(
            Array.from(col, (v) => Math.min(127, v)),
          );
          behind += col.filter((v) => v > 0).length;
        });
        // The line starts at the generation in force at t0 and ends at the one at t1.
        expect(g.value[0]).toBe(tlbGenAt(mm, Math.max(0, lastRowAt(pos, t0))));
        expect(g.value[g.value.length - 1]).toBe(tlbGenAt(mm, lastRowAt(pos, t1)));
        expect(g.time.length).toBeLessThanOrEqual(2 * W + 1);
      });
      if (t1 - t0 === end) expect(behind).toBeGreaterThan(0);
    }
  });
});
