import { describe, expect, it } from 'vitest';
import { readTalk, talkKeys, withTalk } from './talk';

describe('talk mode in the URL', () => {
  it('reads ?talk, ?talk=1 and the like as on, and its absence or talk=0 as off', () => {
    expect(readTalk('?talk')).toBe(true);
    expect(readTalk('?scenario=x&talk=1')).toBe(true);
    expect(readTalk('?talk=true')).toBe(true);
    expect(readTalk('?talk=0')).toBe(false);
    expect(readTalk('?scenario=x')).toBe(false);
    expect(readTalk('')).toBe(false);
  });

  it('writes only its own parameter and keeps every other one, repeated ones in order', () => {
    const search = '?scenario=x86-lazy-tlb&step=2&set=pcid%3Don&set=cpus%3D8&seed=4';
    const on = withTalk(search, true);
    const q = new URLSearchParams(on);
    expect(q.get('talk')).toBe('1');
    expect(q.getAll('set')).toEqual(['pcid=on', 'cpus=8']);
    expect(q.get('scenario')).toBe('x86-lazy-tlb');
    expect(q.get('step')).toBe('2');
    expect(q.get('seed')).toBe('4');
    const off = new URLSearchParams(withTalk(on, false));
    expect(off.has('talk')).toBe(false);
    expect([...off]).toEqual([...new URLSearchParams(search)]);
    expect(withTalk('?talk=1', false)).toBe('');
    expect(withTalk('', true)).toBe('?talk=1');
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
