// Everything the timeline derives from a trace for one spacing, built once per (trace,
// spacing) and then queried per frame. Building is O(n) (O(n log n) in event spacing).
import type { Trace } from '../sim/trace';
import type { IntervalIndex } from './intervals';
import { toArrowIndex, toArrows, type Arrows } from './ipis';
import { toLanes, type LanesModel } from './lanes';
import { toLaneIndex, type LaneIndex } from './lod';
import { toPosMap, type PosMap, type Spacing } from './spacing';

export interface TimelineModel {
  readonly trace: Trace;
  readonly lanes: LanesModel;
  readonly pos: PosMap;
  readonly index: LaneIndex;
  readonly arrows: Arrows;
  readonly arrowIndex: IntervalIndex;
}

export function toTimelineModel(trace: Trace, spacing: Spacing): TimelineModel {
  const lanes = toLanes(trace);
  const pos = toPosMap(trace, spacing, lanes.extent[1]);
  const arrows = toArrows(trace);
  return {
    trace,
    lanes,
    pos,
    index: toLaneIndex(trace, lanes, pos),
    arrows,
    arrowIndex: toArrowIndex(arrows, pos),
  };
}
