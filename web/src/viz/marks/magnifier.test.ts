import { describe, expect, it } from 'vitest';
import { EventKind, noColumns, toTrace } from '../../trace/trace';
import { MAGNIFY_BELOW, magnifierHeight, toMagnified } from './magnifier';

// CPU 0 runs a task across the whole stretch; on CPU 1 a 5 ns window opens and closes inside
// it, and an event well after it.
const trace = toTrace({
  ...noColumns(),
  time: Float64Array.from([0, 1440, 1440, 1445, 2000]),
  dur: Float64Array.from([3000, 0, 5, 0, 0]),
  cpu: Uint16Array.from([0, 1, 1, 1, 1]),
  kind: Uint8Array.from([
    EventKind.TaskRun,
    EventKind.PreemptCountOp,
    EventKind.PreemptOff,
    EventKind.TaskPreempted,
    EventKind.TaskWoken,
  ]),
  parent: Int32Array.from([-1, -1, -1, -1, -1]),
  cpus: 2,
  strings: [],
});
const none = () => false;

describe('the magnifier of a step’s named stretch', () => {
  it('magnifies a stretch too narrow to see, with the events in it and their CPUs', () => {
    const m = toMagnified(trace, [1435, 1450], 7, none);
    expect(m).toEqual({ range: [1435, 1450], cpus: [0, 1], rows: [0, 1, 2, 3] });
  });
  it('leaves a stretch wide enough to see alone', () => {
    expect(toMagnified(trace, [1435, 1450], MAGNIFY_BELOW, none)).toBeNull();
    expect(toMagnified(trace, null, 1, none)).toBeNull();
  });
  it('skips folded CPUs, and draws nothing when only they have events there', () => {
    expect(toMagnified(trace, [1435, 1450], 7, (c) => c === 0)?.cpus).toEqual([1]);
    expect(toMagnified(trace, [10, 20], 7, (c) => c === 0)).toBeNull();
  });
  it('takes a lane-high row per CPU under its axis', () => {
    const m = toMagnified(trace, [1435, 1450], 7, (c) => c === 0);
    if (!m) throw new Error('nothing magnified');
    expect(magnifierHeight(m, 10) - magnifierHeight({ ...m, cpus: [] }, 10)).toBe(50);
  });
});
