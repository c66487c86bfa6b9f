import { describe, expect, it } from 'vitest';
import { readUrl, writeUrl } from './url';

describe('url state', () => {
  it('round-trips scenario, seed and overrides', () => {
    const s = {
      scenario: 'x86-munmap-shootdown',
      seed: 42,
      overrides: ['cpus=8', 'flush_info=stack'],
    };
    expect(readUrl(writeUrl(s))).toEqual(s);
  });

  it('falls back to seed 1 for a seed that is not a u32', () => {
    expect(readUrl('?seed=-3').seed).toBe(1);
    expect(readUrl('?seed=abc').seed).toBe(1);
    expect(readUrl('?seed=4294967296').seed).toBe(1);
  });
});
