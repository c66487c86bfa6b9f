import { describe, expect, it } from 'vitest';
import { lanesShown, maxSqueeze, squeezeAt } from './squeeze';

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
