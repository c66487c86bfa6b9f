import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import type { Trace } from '../trace/trace';
import { columnSource, type RowSource } from './rowSource';
import { followWindow, frameWindow, sourceTimeRows, stepRow, timeRows, walkRows } from './stepping';

let trace: Trace;

beforeAll(() => {
  initSimulatorForNode();
  trace = runScenario(readScenario('x86-munmap-shootdown'), {
    overrides: ['cpus=8', 'flushes=40'],
  }).trace;
});

/** A store read as the worker reads its own: a probe at a time, counting the probes. */
function countingSource(t: Trace): RowSource & { probes: number } {
  const inner = columnSource(t);
  const src = {
    rows: inner.rows,
    probes: 0,
    read: ((name, lo, hi) => {
      src.probes++;
      return inner.read(name, lo, hi);
    }) as RowSource['read'],
  };
  return src;
}

describe('stepping a store as the page steps its columns', () => {
  it('visits every row in the same order, forward and back, from the same cursor', () => {
    const page = timeRows(trace.time);
    const worker = sourceTimeRows(columnSource(trace));
    let same = 0;
    for (const dir of [1, -1] as const) {
      let r: number | null = null;
      let t = dir > 0 ? -1 : Infinity;
      for (;;) {
        const p = stepRow(page, r, t, dir);
        expect(stepRow(worker, r, t, dir)).toBe(p);
        if (p < 0) break;
        same++;
        r = p;
        t = trace.time[p];
      }
    }
    expect(same).toBe(2 * trace.n);
  });

  it('has rows at one time, stepped by index (the case the row number decides)', () => {
    let ties = 0;
    for (let i = 1; i < trace.n; i++) if (trace.time[i] === trace.time[i - 1]) ties++;
    expect(ties).toBeGreaterThan(10);
  });

  it('steps from a cursor moved away from the selection as the page does', () => {
    const page = timeRows(trace.time);
    const worker = sourceTimeRows(columnSource(trace));
    const end = trace.time[trace.n - 1];
    for (let k = 0; k <= 20; k++) {
      const t = (end * k) / 20 + 0.5;
      const sel = Math.floor((trace.n * k) / 21);
      for (const dir of [1, -1] as const) {
        expect(stepRow(worker, sel, t, dir)).toBe(stepRow(page, sel, t, dir));
        expect(stepRow(worker, null, t, dir)).toBe(stepRow(page, null, t, dir));
      }
    }
  });

  it('takes N steps in one question as N single steps, reading a few rows a step', () => {
    const page = timeRows(trace.time);
    const src = countingSource(trace);
    const worker = sourceTimeRows(src);
    let r: number | null = 100;
    let t = trace.time[100];
    for (let k = 0; k < 37; k++) {
      r = stepRow(page, r, t, 1);
      t = trace.time[r];
    }
    expect(walkRows(worker, 100, trace.time[100], 1, 37)).toEqual({ row: r, time: t });
    // A binary search a step at most: about log2(rows) probes, not a pass over the run.
    expect(src.probes).toBeLessThan(37 * (Math.log2(trace.n) + 4));
    // At the end, as many steps as there are, then it stops; none at all: row -1.
    const last = trace.n - 1;
    expect(walkRows(worker, last - 1, trace.time[last - 1], 1, 5).row).toBe(last);
    expect(walkRows(worker, last, trace.time[last], 1, 1).row).toBe(-1);
    expect(walkRows(worker, 0, trace.time[0], -1, 3).row).toBe(-1);
  });
});

describe('followWindow', () => {
  it('keeps a window that shows the time', () => {
    expect(followWindow([100, 200], 150, 0, [0, 1000])).toEqual([100, 200]);
    expect(followWindow([100, 200], 200, 0, [0, 1000])).toEqual([100, 200]);
    // A span from before the window into it is in view: its start is not looked for.
    expect(followWindow([100, 200], 10, 100, [0, 1000])).toEqual([100, 200]);
    expect(followWindow([100, 200], 10, 5000, [0, 1000])).toEqual([100, 200]);
  });
  it('centres a window of the same width on a time outside it, inside the run', () => {
    expect(followWindow([100, 200], 500, 20, [0, 1000])).toEqual([450, 550]);
    expect(followWindow([100, 200], 10, 80, [0, 1000])).toEqual([0, 100]);
    expect(followWindow([100, 200], 995, 0, [0, 1000])).toEqual([900, 1000]);
  });
  it('leaves the window alone for a time that is not a number', () => {
    expect(followWindow([100, 200], NaN, 0, [0, 1000])).toEqual([100, 200]);
  });
});

describe('frameWindow', () => {
  it('closes in on a span, a sixth of its length either side', () => {
    expect(frameWindow([0, 1000], 600, 120, [0, 1000])).toEqual([580, 740]);
  });
  it('stays inside the run at its edges', () => {
    expect(frameWindow([0, 1000], 0, 60, [0, 1000])).toEqual([0, 80]);
    expect(frameWindow([0, 1000], 940, 60, [0, 1000])).toEqual([920, 1000]);
  });
  it('keeps the width for an instant, centred on it', () => {
    expect(frameWindow([100, 200], 500, 0, [0, 1000])).toEqual([450, 550]);
    expect(frameWindow([100, 200], NaN, 10, [0, 1000])).toEqual([100, 200]);
  });
});
