// Everything the timeline derives from a trace for one spacing, built once per (trace,
// spacing) and then queried per frame. Building is O(n) (O(n log n) in event spacing).
import { EventKind, type Trace } from '../trace/trace';
import { toGenerations, toLagIndex, type GenerationsModel, type LagIndex } from './generations';
import { toIntervalIndex, type IntervalIndex } from './intervals';
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
  /** InvariantViolated rows by position (instants: start = end). */
  readonly violations: IntervalIndex;
  readonly generations: GenerationsModel;
  /** lagIndex[m][s]: generations.mms[m].slots[s] in this spacing's positions. */
  readonly lagIndex: readonly (readonly LagIndex[])[];
}

export function toTimelineModel(trace: Trace, spacing: Spacing): TimelineModel {
  const lanes = toLanes(trace);
  const pos = toPosMap(trace, spacing, lanes.extent[1]);
  const arrows = toArrows(trace);
  const generations = toGenerations(trace);
  return {
    trace,
    lanes,
    pos,
    index: toLaneIndex(trace, lanes, pos),
    arrows,
    arrowIndex: toArrowIndex(arrows, pos),
    violations: toViolationIndex(trace, pos),
    generations,
    lagIndex: generations.mms.map((g) => g.slots.map((s) => toLagIndex(s, pos))),
  };
}

function toViolationIndex(trace: Trace, pos: PosMap): IntervalIndex {
  const rows: number[] = [];
  const V = EventKind.InvariantViolated;
  for (let i = 0; i < trace.n; i++) if (trace.kind[i] === V) rows.push(i);
  const start = Float64Array.from(rows, (i) => pos.rowStart(i));
  return toIntervalIndex(Int32Array.from(rows), start, start.slice());
}
