import { describe, expect, it } from 'vitest';
import { talkKeys } from './talk';
import { readUrl, writeUrl } from './url';

describe('talk mode in the URL', () => {
  it('reads ?talk, ?talk=1 and the like as on, and its absence or talk=0 as off', () => {
    expect(readUrl('?talk').talk).toBe(true);
    expect(readUrl('?scenario=x&talk=1').talk).toBe(true);
    expect(readUrl('?talk=true').talk).toBe(true);
    expect(readUrl('?talk=0').talk).toBe(false);
    expect(readUrl('?scenario=x').talk).toBe(false);
  });

  it('is written with the rest of the view, which it leaves as it was', () => {
    const search = '?scenario=x86-lazy-tlb&step=2&set=pcid%3Don&set=cpus%3D8&seed=4';
    const on = readUrl(`${search}&talk=1`);
    const q = new URLSearchParams(writeUrl(on));
    expect(q.get('talk')).toBe('1');
    expect(q.getAll('set')).toEqual(['pcid=on', 'cpus=8']);
    expect(q.get('scenario')).toBe('x86-lazy-tlb');
    expect(q.get('step')).toBe('2');
    expect(q.get('seed')).toBe('4');
    const off = new URLSearchParams(writeUrl({ ...on, talk: false }));
    expect(off.has('talk')).toBe(false);
    expect(off.getAll('set')).toEqual(['pcid=on', 'cpus=8']);
  });
});

describe("a clicker's keys", () => {
  const walk = (steps: number, index: number | null, key: string) => {
    let went: number | null = null;
    talkKeys(steps, index, (i) => (went = i))[key]?.();
    return went;
  };

  it('start the steps, then go forward with Space, PageDown and →', () => {
    expect(walk(5, null, 'Space')).toBe(0);
    expect(walk(5, 0, 'Space')).toBe(1);
    expect(walk(5, 1, 'PageDown')).toBe(2);
    expect(walk(5, 2, 'ArrowRight')).toBe(3);
  });

  it('go back with PageUp and ←, and stop at either end', () => {
    expect(walk(5, 3, 'PageUp')).toBe(2);
    expect(walk(5, 1, 'ArrowLeft')).toBe(0);
    expect(walk(5, 0, 'PageUp')).toBe(null);
    expect(walk(5, 4, 'PageDown')).toBe(null);
    expect(walk(0, null, 'Space')).toBe(null);
  });
});
