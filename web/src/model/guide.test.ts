import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario, type RunResult } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { extentOf } from './events';
import { highlightRows, paddedWindow, stepFrame, WINDOW_PAD } from './guide';
import { lensIntervals } from './lens';

let run: RunResult;
beforeAll(() => {
  initSimulatorForNode();
  run = runScenario(readScenario('x86-flush-info-story'));
});

describe('paddedWindow', () => {
  it('widens a counterexample’s run by WINDOW_PAD on each side, so its last step is whole', () => {
    expect(paddedWindow([1000, 11000])).toEqual([
      1000 - 10000 * WINDOW_PAD,
      11000 + 10000 * WINDOW_PAD,
    ]);
    expect(paddedWindow([5, 5])).toEqual([4, 6]);
  });
});

describe('stepFrame', () => {
  it("pads the step's window so that a mark at its edge is drawn whole", () => {
    const step = run.info.steps[0];
    const [a, b] = step.window ?? [0, 0];
    const frame = stepFrame(run.trace, step, [], extentOf(run.trace));
    const pad = (b - a) * WINDOW_PAD;
    expect(frame.window).toEqual([Math.max(a - pad, -pad), b + pad]);
  });

  it("shows the step's CPUs and those it expands, and widens to the intervals it points at", () => {
    const step = run.info.steps[2];
    expect(step.cpus).toEqual([0]);
    expect(step.expand).toEqual([2]);
    const lens = lensIntervals(run.trace, step.lens, run.info.costs.context_switch_ns);
    const rows = highlightRows(run.trace, step, step.window ?? [0, 0]);
    const frame = stepFrame(run.trace, step, rows, extentOf(run.trace), lens);
    expect(frame.cpus).toEqual([0, 2]);
    for (const iv of lens) {
      expect(iv.start).toBeGreaterThanOrEqual(frame.window[0]);
      expect(iv.end).toBeLessThanOrEqual(frame.window[1]);
    }
  });

  it('takes the CPUs of the highlighted rows when the step names none', () => {
    const step = { ...run.info.steps[1], cpus: [], expand: [] };
    const rows = highlightRows(run.trace, step, step.window ?? [0, 0]);
    const frame = stepFrame(run.trace, step, rows, extentOf(run.trace));
    expect(frame.cpus).toEqual([...new Set(rows.map((r) => run.trace.cpu[r]))].sort());
  });
});
