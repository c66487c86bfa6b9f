import { describe, expect, it } from 'vitest';
import { predictionWorkers } from './usePredictions';

describe('predictionWorkers', () => {
  it('leaves a core to the page and uses at most three', () => {
    expect([1, 2, 3, 4, 8, 64].map((n) => predictionWorkers(n))).toEqual([1, 1, 2, 3, 3, 3]);
  });
});
