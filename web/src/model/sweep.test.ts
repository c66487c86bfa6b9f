import { describe, expect, it } from 'vitest';
import { measurement } from '../content/measurementFixture';
import type { PredictionState } from './overlay';
import type { PanelPoint } from './panels';
import { sweepOf } from './sweep';

const pending: PredictionState = { status: 'pending' };
const at = (variant: string, value = 1): PanelPoint => ({
  point: {
    measurement: measurement({ variant, value }),
    series: 0,
    value,
    lo: null,
    hi: null,
    predicted: null,
    band: null,
    prediction: pending,
    verdict: { kind: 'pending' },
    fitted: null,
  },
  value,
  lo: null,
  hi: null,
  predicted: null,
  band: null,
  fitted: null,
});

describe('sweepOf', () => {
  it('finds the one numeric setting swept within groups of the others', () => {
    const pts = [55, 1, 10].flatMap((t) => [
      at(`tlb_gen_read=always;threads=${t};processes=off`, t),
      at(`tlb_gen_read=when_needed;threads=${t};processes=off`, t + 1),
    ]);
    const s = sweepOf(pts)!;
    expect(s.key).toBe('threads');
    expect(s.extent).toEqual([1, 55]);
    expect(s.groups.map((g) => [g.label, g.short])).toEqual([
      ['tlb_gen_read=always;processes=off', 'tlb_gen_read=always'],
      ['tlb_gen_read=when_needed;processes=off', 'tlb_gen_read=when_needed'],
    ]);
    expect(s.groups[0].points.map((p) => [p.x, p.point.value])).toEqual([
      [1, 1],
      [10, 10],
      [55, 55],
    ]);
  });

  it('is no sweep for categories, two values, two numeric keys, comparisons or repeats', () => {
    expect(sweepOf(['percpu', 'stack', 'stack_unaligned'].map((v) => at(`flush_info=${v}`)))).toBe(
      null,
    );
    expect(sweepOf([at('threads=1'), at('threads=2')])).toBeNull();
    expect(sweepOf([at('a=1;b=1'), at('a=2;b=2'), at('a=3;b=3')])).toBeNull();
    expect(sweepOf([at('threads=1'), at('threads=2'), at('pcid=off->on')])).toBeNull();
    expect(
      sweepOf([at('threads=1'), at('threads=2'), at('threads=3'), at('threads=3')]),
    ).toBeNull();
    // Keys that differ between rows are not one sweep either.
    expect(sweepOf([at('threads=1'), at('threads=2'), at('threads=3;pcid=on')])).toBeNull();
  });
});
