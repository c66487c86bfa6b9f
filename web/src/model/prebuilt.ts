// A timeline model built off the main thread: everything toTimelineModel derives from a trace
// except what holds functions (the position map, rebuilt cheaply from the trace's time
// column). At a million rows the build takes 200-450 ms; done in the simulator's worker and
// sent over as transferable arrays, it no longer blocks the page after every run.
import type { Trace } from '../sim/trace';
import { initiatorOf } from './ipis';
import { TRACKS } from './lanes';
import { defaultCollapsed, GROUP_ABOVE, GROUP_SIZE } from './layout';
import {
  adoptPyramids,
  groupPyramid,
  pyramidsOf,
  trackPyramid,
  type BinPyramid,
  type LaneIndex,
} from './lod';
import { toPosMap, type Spacing } from './spacing';
import type { TimelineModel } from './timelineModel';

export type PrebuiltView = Omit<TimelineModel, 'trace' | 'pos' | 'index'> & {
  readonly spacing: Spacing;
  readonly index: Omit<LaneIndex, 'pos'>;
  /** Bin pyramids of the lanes the first draw shows (collapsed groups, the expanded group). */
  readonly pyramids: [string, BinPyramid | null][];
};

/**
 * Builds the pyramids the first draw of the default layout reads (every collapsed group's
 * tracks, and the tracks of the CPUs left expanded), so that work is done off the page too.
 */
function warmPyramids(m: TimelineModel): void {
  const { cpus } = m.trace;
  const collapsed = defaultCollapsed(cpus, initiatorOf(m.trace));
  const groups = cpus > GROUP_ABOVE ? Math.ceil(cpus / GROUP_SIZE) : 1;
  for (let g = 0; g < groups; g++) {
    const first = g * GROUP_SIZE;
    const last = cpus > GROUP_ABOVE ? Math.min(cpus, first + GROUP_SIZE) - 1 : cpus - 1;
    for (let t = 0; t < TRACKS; t++) {
      if (collapsed.has(g)) groupPyramid(m.index, first, last, t);
      else for (let c = first; c <= last; c++) trackPyramid(m.index, c, t);
    }
  }
}

/** The model's data, for the worker to send. */
export function toPrebuilt(m: TimelineModel): PrebuiltView {
  const { lanes, arrows, arrowIndex, violations, generations, lagIndex, index } = m;
  warmPyramids(m);
  return {
    pyramids: pyramidsOf(index),
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
  const { spacing, pyramids, ...rest } = v;
  const pos = toPosMap(trace, spacing, v.lanes.extent[1]);
  const index = { ...v.index, pos };
  adoptPyramids(index, pyramids);
  return { ...rest, trace, pos, index };
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
