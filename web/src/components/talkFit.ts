// Talk mode's diagram fills the projector's height: the timelines are drawn larger as a whole
// (CSS zoom: marks, labels and hit areas in proportion) until they reach the screen's bottom,
// and past the largest legible enlargement their lanes grow taller instead, so a sparse step
// does not leave half the screen blank and a dense one does not run off it.
import { stretchTrack, TRACK } from './share/squeeze';

/** Least enlargement: a projector's audience still reads the 10 px lane and axis labels. */
export const TALK_MIN_ZOOM = 1.25;

/** Largest enlargement: 1.5 on a laptop-sized screen, 2 from 1600 px across. */
export function talkMaxZoom(width: number): number {
  return width >= 1600 ? 2 : 1.5;
}

export interface TalkFit {
  zoom: number;
  /** A timeline sub-track's height in its own px (Timeline's trackHeight). */
  track: number;
  /**
   * A stretch ran past the screen's bottom once: from then on the lanes only shrink. The
   * stretch assumes only the CPU lanes grow with the track; when other rows grow with them
   * too, growing and giving back by halves would swing around the bottom for ever.
   */
  capped?: boolean;
}

/**
 * The next fit, from what is on screen now: `timelines` the drawn height of the timelines
 * (at `now.zoom`), `room` the height they may take (the screen below them, less what follows
 * them), `lanes` how many CPU lanes a stretch grows. Converges in a few renders: a stretch
 * takes half the blank room at a time, since other rows may grow with the lanes.
 */
export function nextTalkFit(
  now: TalkFit,
  {
    timelines,
    room,
    width,
    lanes,
  }: { timelines: number; room: number; width: number; lanes: number },
): TalkFit {
  if (timelines <= 0 || room <= 0) return now;
  const natural = timelines / now.zoom;
  const max = talkMaxZoom(width);
  const wanted = room / natural;
  // Blank room left at the largest enlargement, in the timeline's own px (< 0: past the bottom).
  const blank = (room - natural * max) / max;
  // Past the bottom with stretched lanes: give back the whole overflow, which takes back at
  // least that much however many rows grew with the lanes, and stretch no more.
  if (wanted < max && now.track > TRACK)
    return { zoom: now.zoom, track: stretchTrack(now.track, blank, lanes), capped: true };
  const zoom = Math.max(TALK_MIN_ZOOM, Math.min(max, wanted));
  if (zoom < max || now.capped || Math.abs(blank) * max < 12) return same(now, { ...now, zoom });
  return same(now, { zoom, track: stretchTrack(now.track, blank / 2, lanes) });
}

/** `now` itself when `next` is no real change, so that a settled fit renders no more. */
function same(now: TalkFit, next: TalkFit): TalkFit {
  return Math.abs(now.zoom - next.zoom) < 0.01 && Math.abs(now.track - next.track) < 0.25
    ? now
    : next;
}
