// A timeline model built off the main thread: everything toTimelineModel derives from a trace
// except what holds functions (the position map, rebuilt cheaply from the trace's time
// column). At a million rows the build takes 200-450 ms; done in the simulator's worker and
// sent over as transferable arrays, it no longer blocks the page after every run.
import type { Trace } from '../trace/trace';
import { initiatorOf } from './ipis';
import { TRACKS } from './lanes';
import { defaultCollapsed, toLayout } from './layout';
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

// Only which rows exist matters here, not where they are drawn.
const NO_SIZES = { trackHeight: 0, laneGap: 0, headerHeight: 0, top: 0 };

/**
 * Builds the pyramids the first draw of the default layout reads (as viz/timeline.ts asks
 * for them: one per aggregate lane's track, one per expanded CPU's track), so that work is
 * done off the page too.
 */
function warmPyramids(m: TimelineModel): void {
  const { cpus } = m.trace;
  const layout = toLayout(cpus, defaultCollapsed(cpus, initiatorOf(m.trace)), NO_SIZES);
  for (const r of layout.rows) {
    for (let t = 0; t < TRACKS; t++) {
      if (r.type === 'cpu') trackPyramid(m.index, r.cpu, t);
      else if (r.type === 'aggregate') groupPyramid(m.index, r.first, r.last, t);
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
