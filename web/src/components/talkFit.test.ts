import { describe, expect, it } from 'vitest';
import { TRACK } from './share/squeeze';
import { nextTalkFit, TALK_MIN_ZOOM, type TalkFit } from './talkFit';

/**
 * Runs the fit as renders would: the timelines' natural height is `fixed` + lanes × 5 tracks,
 * × `grows` when other rows grow with the lanes.
 */
function settle(room: number, width: number, lanes: number, fixed: number, grows = 1): TalkFit {
  let fit: TalkFit = { zoom: 1.5, track: TRACK };
  for (let i = 0; i < 30; i++) {
    const timelines = (fixed + lanes * 5 * grows * fit.track) * fit.zoom;
    const next = nextTalkFit(fit, { timelines, room, width, lanes });
    if (next === fit) return fit;
    fit = next;
  }
  throw new Error('the fit did not settle');
}

describe('nextTalkFit', () => {
  it('shrinks a diagram taller than the screen until it fits, not below the legible least', () => {
    // Four lanes and a tlb_gen chart: 372 px at zoom 1 under a 640 px room on a 1920 screen.
    const fit = settle(640, 1920, 4, 372 - 4 * 5 * TRACK);
    expect(fit.zoom).toBeCloseTo(640 / 372, 2);
    expect(fit.track).toBe(TRACK);
    expect(settle(300, 1024, 4, 372 - 200).zoom).toBe(TALK_MIN_ZOOM);
  });

  it('past the largest zoom, grows the lanes into the blank room below', () => {
    // One open lane, 150 px at zoom 1, under a 560 px room on a 1920 screen: at zoom 2 it
    // would take 300 px, so the lane grows until the diagram reaches the bottom.
    const fit = settle(560, 1920, 1, 100);
    expect(fit.zoom).toBe(2);
    expect(fit.track).toBeGreaterThan(TRACK);
    const height = (100 + 5 * fit.track) * fit.zoom;
    expect(height).toBeLessThanOrEqual(560);
    expect(height).toBeGreaterThan(560 - 40);
    // A lane grows no taller than MAX_TRACK allows: then the room stays blank.
    expect(settle(2000, 1920, 1, 100).track).toBe(5 * TRACK);
  });

  it('gives a stretch back before shrinking when the room gets smaller', () => {
    const next = nextTalkFit(
      { zoom: 2, track: 30 },
      { timelines: 900, room: 500, width: 1920, lanes: 2 },
    );
    expect(next).toMatchObject({ zoom: 2, track: TRACK });
  });

  it('settles, inside the screen, when more than the lanes grow with a stretch', () => {
    // A stretch by half the blank room overshoots when the diagram grows 3× what the lanes
    // alone would: growing and giving back by halves swung around the bottom for ever.
    for (const grows of [1.5, 3, 6]) {
      const fit = settle(560, 1920, 1, 100, grows);
      const height = (100 + 5 * grows * fit.track) * fit.zoom;
      expect(height, `grows ×${grows}`).toBeLessThanOrEqual(560);
      expect(height, `grows ×${grows}`).toBeGreaterThan(300);
    }
  });
});
