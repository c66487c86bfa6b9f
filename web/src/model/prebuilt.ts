// A timeline model built off the main thread: everything toTimelineModel derives from a trace
// except what holds functions (the position map, rebuilt cheaply from the trace's time
// column). At a million rows the build takes 200-450 ms; done in the simulator's worker and
// sent over as transferable arrays, it no longer blocks the page after every run.
import type { Trace } from '../sim/trace';
import type { LaneIndex } from './lod';
import { toPosMap, type Spacing } from './spacing';
import type { TimelineModel } from './timelineModel';

export type PrebuiltView = Omit<TimelineModel, 'trace' | 'pos' | 'index'> & {
  readonly spacing: Spacing;
  readonly index: Omit<LaneIndex, 'pos'>;
};

/** The model's data, for the worker to send. */
export function toPrebuilt(m: TimelineModel): PrebuiltView {
  const { lanes, arrows, arrowIndex, violations, generations, lagIndex, index } = m;
  return {
    spacing: m.pos.spacing,
    lanes,
    arrows,
    arrowIndex,
    violations,
    generations,
    lagIndex,
    index: { cpus: index.cpus, tracks: index.tracks },
  };
}

/**
 * The model again, around the trace the view was built from. The position map holds
 * functions, so it is rebuilt here: O(1) in either spacing (it closes over the time column).
 */
export function fromPrebuilt(trace: Trace, v: PrebuiltView): TimelineModel {
  const { spacing, ...rest } = v;
  const pos = toPosMap(trace, spacing, v.lanes.extent[1]);
  return { ...rest, trace, pos, index: { ...v.index, pos } };
}

/** Every ArrayBuffer under `value`, once each (a transfer list must not repeat one). */
export function buffersOf(value: unknown, out = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) out.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const v of value) buffersOf(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) buffersOf(v, out);
  }
  return [...out];
}
