import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import type { Trace } from '../trace/trace';
import { groupPyramid } from './lod';
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

  it("carry the pyramids of the default layout's collapsed groups, built once", () => {
    const big = runScenario(readScenario('x86-munmap-shootdown'), {
      overrides: ['cpus=40', 'flushes=300'],
    }).trace;
    const view = toPrebuilt(toTimelineModel(big, 'time'));
    const built = view.pyramids.filter(([, p]) => p !== null);
    expect(built.length).toBeGreaterThan(0);
    const again = fromPrebuilt(big, structuredClone(view, { transfer: buffersOf(view) }));
    for (const [key] of built) {
      const [first, last, track] = key.split(':').map(Number);
      const adopted = groupPyramid(again.index, first, last, track)!;
      const fresh = groupPyramid(toTimelineModel(big, 'time').index, first, last, track)!;
      expect(adopted.levels[0].count).toEqual(fresh.levels[0].count);
      expect(groupPyramid(again.index, first, last, track)).toBe(adopted);
    }
  });

  it('rebuild event spacing too, placing rows as the model built on this thread does', () => {
    const view = toPrebuilt(toTimelineModel(trace, 'event'));
    const again = fromPrebuilt(trace, structuredClone(view, { transfer: buffersOf(view) }));
    const fresh = toTimelineModel(trace, 'event');
    expect(again.pos.spacing).toBe('event');
    expect(again.pos.extent).toEqual(fresh.pos.extent);
    for (const row of [0, 7, trace.n - 1])
      expect(again.pos.rowEnd(row)).toBe(fresh.pos.rowEnd(row));
    expect(again.pos.toPos(trace.time[9] + 1)).toBe(fresh.pos.toPos(trace.time[9] + 1));
    expect(Array.from(again.arrowIndex.start)).toEqual(Array.from(fresh.arrowIndex.start));
  });
});
