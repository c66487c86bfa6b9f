// How an embed makes room in a small frame without shrinking its text below legibility: it
// first drops the tlb_gen chart under the lanes, then the legend, then folds CPUs one lane at
// a time (the step's subject and the IPI initiator stay longest), until the diagram fits at a
// scale whose smallest text is still readable (FitBox's `minScale`).

export interface Squeeze {
  generations: boolean;
  legend: boolean;
  /** How many CPU lanes stay open; null = as the step says. */
  lanes: number | null;
}

/** The steps before lanes are folded: 0 all, 1 no tlb_gen chart, 2 no legend either. */
const DROPS = 2;

/** The deepest squeeze that still changes something, for a machine of `cpus` CPUs. */
export function maxSqueeze(cpus: number): number {
  return DROPS + Math.max(0, cpus - 1);
}

export function squeezeAt(level: number, cpus: number): Squeeze {
  const l = Math.max(0, Math.min(level, maxSqueeze(cpus)));
  return {
    generations: l < 1,
    legend: l < 2,
    lanes: l <= DROPS ? null : cpus - (l - DROPS),
  };
}

/**
 * The CPUs shown as lanes when at most `lanes` may be open: the step's subject first, then the
 * initiator, then the others from CPU 0 up. `undefined` when nothing needs folding (the
 * timeline then shows every CPU, or the step's own subject).
 */
export function lanesShown(
  cpus: number,
  subject: readonly number[] | undefined,
  initiator: number,
  lanes: number | null,
): number[] | undefined {
  const open = subject?.length ? subject : null;
  if (lanes === null || lanes >= (open?.length ?? cpus)) return open ? [...open] : undefined;
  const order: number[] = [];
  const add = (c: number) => {
    if (c >= 0 && c < cpus && !order.includes(c)) order.push(c);
  };
  for (const c of open ?? []) add(c);
  add(initiator);
  for (let c = 0; c < cpus; c++) add(c);
  return order.slice(0, Math.max(1, lanes)).sort((a, b) => a - b);
}

/** A lane's sub-track height at rest, and the most an embed stretches it to. */
export const TRACK = 10;
export const MAX_TRACK = 5 * TRACK;
/** Sub-tracks per CPU lane (model/lanes.ts TRACKS). */
const TRACKS_PER_LANE = 5;

/**
 * The CPU lanes a stretch grows, over all timelines shown: the step's subject, or every CPU of
 * a machine small enough to draw each (past 32 its CPUs are folded into groups: none).
 */
export function stretchedLanes(
  cpus: number,
  subject: readonly number[] | undefined,
  timelines: number,
): number {
  return (subject?.length || (cpus > 32 ? 0 : cpus)) * timelines;
}

/**
 * The sub-track height that spends `room` px of blank frame (at the largest scale the frame's
 * width allows) on the `lanes` open CPU lanes over all timelines shown, or gives back what
 * they took when `room` is negative: a sparse step on a projector fills the frame rather than
 * leaving its lower part empty, and type is never made smaller to make lanes taller. Capped,
 * so one lane does not become a wall of colour.
 */
export function stretchTrack(track: number, room: number, lanes: number): number {
  if (lanes <= 0) return track;
  return Math.max(TRACK, Math.min(MAX_TRACK, track + room / (lanes * TRACKS_PER_LANE)));
}
