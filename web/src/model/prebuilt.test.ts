import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/session';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import type { Trace } from '../sim/trace';
import { buffersOf, fromPrebuilt, toPrebuilt } from './prebuilt';
import { toTimelineModel } from './timelineModel';

let trace: Trace;
beforeAll(() => {
  initSimulatorForNode();
  trace = runScenario(readScenario('x86-munmap-shootdown'), { overrides: ['cpus=16'] }).trace;
});

describe('prebuilt timeline models', () => {
  it('survive a structured clone with their buffers moved, and rebuild the same model', () => {
    const model = toTimelineModel(trace, 'time');
    const view = toPrebuilt(model);
    const buffers = buffersOf(view);
    expect(new Set(buffers).size).toBe(buffers.length);
    const copy = structuredClone(view, { transfer: buffers });
    expect(buffers.every((b) => b.byteLength === 0)).toBe(true); // moved, not copied
    const again = fromPrebuilt(trace, copy);
    const fresh = toTimelineModel(trace, 'time');
    expect(again.pos.extent).toEqual(fresh.pos.extent);
    expect(again.index.pos.rowEnd(5)).toBe(fresh.pos.rowEnd(5));
    expect(again.index.tracks.map((t) => Array.from(t.ids))).toEqual(
      fresh.index.tracks.map((t) => Array.from(t.ids)),
    );
    expect(Array.from(again.arrows.toRow)).toEqual(Array.from(fresh.arrows.toRow));
    expect(again.generations.mms.map((g) => g.slots.length)).toEqual(
      fresh.generations.mms.map((g) => g.slots.length),
    );
    expect(again.lagIndex.length).toBe(fresh.lagIndex.length);
  });

  it('refuses event spacing, whose position map is not rebuilt from the time column', () => {
    expect(() => toPrebuilt(toTimelineModel(trace, 'event'))).toThrow(/time spacing/);
  });
});
