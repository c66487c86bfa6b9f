import { describe, expect, it } from 'vitest';
import { measurement } from '../content/measurementFixture';
import type { Measurement } from '../content/datasets';
import { chartGroups, chartsOf, toOverlayCharts, type PredictionState } from './overlay';
import { panelsOf } from './panels';

const m = (over: Partial<Measurement>) => measurement({ ...over });
const done = (ns: number): PredictionState => ({
  status: 'done',
  ns,
  scenario: 'x86-madvise-touch',
  preset: 'icelake-8336c-128',
  ignored: [],
  aliased: [],
  perIteration: {},
});

describe('panelsOf', () => {
  const ms = [
    m({ variant: 'flush_info=percpu', value: 2.5278, stddev: 0.0007 }),
    m({ variant: 'flush_info=stack_unaligned', value: 2.5508, stddev: 0.0023 }),
    m({ variant: 'busy_threads=1', value: 14.4632, stddev: 5.377, machine: 'vm', source: 'me' }),
  ];
  const [chart] = toOverlayCharts(ms, (x) =>
    x.variant === 'flush_info=percpu'
      ? done(2520)
      : x.variant.startsWith('flush')
        ? done(2550)
        : { status: 'none', reason: 'no' },
  );

  it('splits a chart into one panel per source and machine, each on its own range', () => {
    const [seed, local] = panelsOf(chart, 'values');
    expect(seed.title).toBe('measured on icelake-8336c-128 (zhou-2026-flush-tlb-info-stack)');
    expect(seed.variants).toEqual(['flush_info=percpu', 'flush_info=stack_unaligned']);
    expect(seed.domain[1] - seed.domain[0]).toBeLessThan(0.1);
    expect(local.variants).toEqual(['busy_threads=1']);
    expect(local.domain[1]).toBeGreaterThan(14.4632 + 5.377);
  });

  it('shows each variant as its percent difference from the first, predictions too', () => {
    const [seed] = panelsOf(chart, 'difference');
    expect(seed.unit).toBe('% vs the first variant');
    expect(seed.reference).toBe('flush_info=percpu');
    const [ref, unaligned] = seed.points;
    expect(ref.value).toBe(0);
    expect(unaligned.value).toBeCloseTo((2.5508 / 2.5278 - 1) * 100, 6);
    expect(unaligned.predicted).toBeCloseTo((2550 / 2520 - 1) * 100, 6);
    expect(seed.domain[0]).toBeLessThanOrEqual(0);
    // A series with one variant has nothing to differ from: it keeps its values.
    expect(panelsOf(chart, 'difference')[1].reference).toBeNull();
  });

  it('carries a fitted machine’s value in the chart’s unit, and keeps it on the axis', () => {
    const [fitted] = chartsOf(
      chartGroups(ms.slice(0, 2)),
      () => done(2520),
      (x) => (x.variant === 'flush_info=percpu' ? 3100 : null),
    );
    const [seed] = panelsOf(fitted, 'values');
    expect(seed.points.map((p) => p.fitted)).toEqual([3.1, null]);
    expect(seed.domain[1]).toBeGreaterThan(3.1);
    // A difference panel has no fitted curve: the fit is in absolute units.
    expect(panelsOf(fitted, 'difference')[0].points.every((p) => p.fitted === null)).toBe(true);
  });
});
