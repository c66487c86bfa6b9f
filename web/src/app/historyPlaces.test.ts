import { describe, expect, it } from 'vitest';
import { HistoryPlaces } from './historyPlaces';
import { parseUrl } from './url';

const at = (step: number) => parseUrl(`?scenario=x86-flush-info-story&step=${step}`).url;

describe('HistoryPlaces', () => {
  it('pushes a new step, not a rewrite of the same one or a replacing change', () => {
    const h = new HistoryPlaces(at(1));
    expect(h.push(at(1), false)).toBe(false);
    expect(h.push(at(2), false)).toBe(true);
    expect(h.push(at(3), true)).toBe(false);
  });

  it('pushes nothing for popped states whose effects run late and out of step', () => {
    // Steps 1 → 2 → 3, then back, back: both pops arrive before the effect of the first has
    // run. Comparing each with the state seen last would push step 2 over the forward entries.
    const h = new HistoryPlaces(at(1));
    h.push(at(2), false);
    h.push(at(3), false);
    const two = at(2);
    const one = at(1);
    h.fromHistory(two);
    h.fromHistory(one);
    expect(h.push(two, false)).toBe(false);
    expect(h.push(one, false)).toBe(false);
    // A step chosen after that is a new place again.
    expect(h.push(at(4), false)).toBe(true);
  });
});
