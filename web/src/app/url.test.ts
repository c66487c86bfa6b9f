import { describe, expect, it } from 'vitest';
import { readUrl, writeUrl } from './url';

describe('url state', () => {
  it('round-trips scenario, seed, overrides and the B side of a comparison', () => {
    const s = {
      view: 'explore' as const,
      step: 3,
      scenario: 'x86-munmap-shootdown',
      seed: 42,
      overrides: ['cpus=8', 'flush_info=stack'],
      compare: true,
      overridesB: ['flush_info=percpu'],
    };
    expect(readUrl(writeUrl(s))).toEqual(s);
  });

  it('leaves B out of the URL when not comparing', () => {
    expect(
      writeUrl({
        view: 'explore',
        step: null,
        scenario: 'x',
        seed: 1,
        overrides: [],
        compare: false,
        overridesB: ['pcid=off'],
      }),
    ).toBe('?scenario=x');
  });

  it('falls back to seed 1 for a seed that is not a u32', () => {
    expect(readUrl('?seed=-3').seed).toBe(1);
    expect(readUrl('?seed=abc').seed).toBe(1);
    expect(readUrl('?seed=4294967296').seed).toBe(1);
  });
});

describe('the data view', () => {
  it('is named in the URL and read back', () => {
    const url = writeUrl({
      view: 'data',
      step: null,
      scenario: null,
      seed: 1,
      overrides: [],
      compare: false,
      overridesB: [],
    });
    expect(url).toBe('?view=data');
    expect(readUrl(url).view).toBe('data');
    expect(readUrl('?view=bogus').view).toBe('home');
  });
});

describe('the landing page', () => {
  it('is what an empty URL shows, and a scenario opens the explorer', () => {
    expect(readUrl('').view).toBe('home');
    expect(readUrl('?scenario=x86-lazy-tlb&step=2')).toMatchObject({ view: 'explore', step: 2 });
    expect(readUrl('?scenario=x&step=0').step).toBeNull();
  });
});
