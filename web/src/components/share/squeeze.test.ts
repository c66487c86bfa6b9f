import { describe, expect, it } from 'vitest';
import {
  lanesShown,
  MAX_TRACK,
  maxSqueeze,
  squeezeAt,
  stretchedLanes,
  stretchTrack,
  TRACK,
} from './squeeze';

describe('making room in a small embed', () => {
  it('drops the tlb_gen chart, then the legend, then folds one lane at a time', () => {
    expect(squeezeAt(0, 4)).toEqual({ generations: true, legend: true, lanes: null });
    expect(squeezeAt(1, 4)).toEqual({ generations: false, legend: true, lanes: null });
    expect(squeezeAt(2, 4)).toEqual({ generations: false, legend: false, lanes: null });
    expect(squeezeAt(3, 4).lanes).toBe(3);
    expect(squeezeAt(maxSqueeze(4), 4).lanes).toBe(1);
    // Past the deepest level nothing changes: one lane always stays.
    expect(squeezeAt(99, 4).lanes).toBe(1);
  });

  it('keeps the step subject, then the initiator, then the lowest CPUs', () => {
    expect(lanesShown(8, [5, 6], 2, null)).toEqual([5, 6]);
    // Squeezing never opens lanes the step folded.
    expect(lanesShown(8, [5, 6], 2, 3)).toEqual([5, 6]);
    expect(lanesShown(8, [], 5, 3)).toEqual([0, 1, 5]);
    expect(lanesShown(8, [5, 6], 2, 1)).toEqual([5]);
    expect(lanesShown(4, [], 3, 2)).toEqual([0, 3]);
    expect(lanesShown(4, undefined, -1, 2)).toEqual([0, 1]);
  });

  it('folds nothing while every lane the step shows still fits', () => {
    expect(lanesShown(4, [], 0, null)).toBeUndefined();
    expect(lanesShown(4, [], 0, 4)).toBeUndefined();
    expect(lanesShown(4, [1], 0, 2)).toEqual([1]);
  });
});

describe('filling a tall frame', () => {
  it('spends the blank height on the open lanes, five sub-tracks each', () => {
    expect(stretchTrack(TRACK, 100, 2)).toBe(TRACK + 10);
    // ...up to a cap, whatever the room.
    expect(stretchTrack(TRACK, 10_000, 1)).toBe(MAX_TRACK);
  });
  it('gives the height back when the lanes outgrew the frame, down to the usual height', () => {
    expect(stretchTrack(30, -100, 2)).toBe(20);
    expect(stretchTrack(12, -500, 2)).toBe(TRACK);
  });
  it('leaves a machine with no lane to stretch alone', () => {
    expect(stretchTrack(TRACK, 300, 0)).toBe(TRACK);
  });
  it("grows the step's subject on each timeline, or every CPU of a machine drawn CPU by CPU", () => {
    expect(stretchedLanes(8, [0, 3], 2)).toBe(4);
    expect(stretchedLanes(8, [], 1)).toBe(8);
    expect(stretchedLanes(8, undefined, 2)).toBe(16);
    expect(stretchedLanes(64, undefined, 1)).toBe(0);
  });
});
