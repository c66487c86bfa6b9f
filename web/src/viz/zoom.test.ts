import { describe, expect, it } from 'vitest';
import { clampWindow, panWindow, zoomWindow } from './zoom';

describe('zoomWindow', () => {
  it('keeps the anchor where it was on screen', () => {
    const w = zoomWindow([0, 100], 0.5, 80);
    expect(w).toEqual([40, 90]);
    expect((80 - w[0]) / (w[1] - w[0])).toBeCloseTo(0.8);
  });
});

describe('clampWindow', () => {
  it('shifts a window that left the extent back inside without squashing it', () => {
    expect(clampWindow(panWindow([0, 10], -5), [0, 100], 1)).toEqual([0, 10]);
    expect(clampWindow([95, 105], [0, 100], 1)).toEqual([90, 100]);
  });

  it('never zooms out past the extent nor in past the minimum span', () => {
    expect(clampWindow([-50, 150], [0, 100], 1)).toEqual([0, 100]);
    expect(clampWindow([50, 50.1], [0, 100], 2)).toEqual([49.05, 51.05]);
  });
});
