import { describe, expect, it } from 'vitest';
import { checkAgainstRun } from './linkCheck';
import { NO_VIEW, parseUrl, writeUrl } from './url';

const compareLink = '?scenario=x86-flush-info-story&compare=1&setB=preempt%3Dpinned';

describe('evB: the selected event of run B', () => {
  it('round-trips with a comparison', () => {
    const p = parseUrl(`${compareLink}&evB=33`);
    expect(p.ignored).toEqual([]);
    expect(p.view.selectedB).toBe(33);
    expect(p.view.selected).toBeNull();
    expect(writeUrl(p.url, p.view)).toBe(`${compareLink}&evB=33`);
  });

  it('is ignored, with why, without compare=1, when damaged, or next to ev=', () => {
    const alone = parseUrl('?scenario=x86-flush-info-story&evB=3');
    expect(alone.view.selectedB ?? null).toBeNull();
    expect(alone.ignored.join(' ')).toMatch(/evB.*needs compare=1/);
    const bad = parseUrl(`${compareLink}&evB=-2`);
    expect(bad.view.selectedB ?? null).toBeNull();
    expect(bad.ignored.join(' ')).toMatch(/evB.*numbered from 0/);
    const both = parseUrl(`${compareLink}&ev=1&evB=3`);
    expect(both.view.selected).toBe(1);
    expect(both.view.selectedB ?? null).toBeNull();
    expect(both.ignored.join(' ')).toMatch(/evB.*one event is selected at a time/);
  });

  it('is not written for a view without a comparison', () => {
    const p = parseUrl('?scenario=x86-flush-info-story');
    expect(writeUrl(p.url, { ...NO_VIEW, selectedB: 4 })).toBe('?scenario=x86-flush-info-story');
  });

  it('is checked against B’s run once it is done', () => {
    const view = { ...NO_VIEW, selectedB: 50 };
    const facts = { steps: 0, events: 100, extent: [0, 1000] as [number, number] };
    const short = checkAgainstRun(null, view, { ...facts, eventsB: 40 });
    expect(short.value.view.selectedB ?? null).toBeNull();
    expect(short.ignored).toEqual(['evB=50: run B has 40 events (0 to 39)']);
    const ok = checkAgainstRun(null, view, { ...facts, eventsB: 60 });
    expect(ok.value.view.selectedB).toBe(50);
    expect(ok.ignored).toEqual([]);
  });
});
