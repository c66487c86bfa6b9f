import { describe, expect, it } from 'vitest';
import { measurement } from '../content/measurementFixture';
import { toOverlayCharts, type PredictionState } from './overlay';
import { panelsOf } from './panels';
import { binPanel, describeBinning, spreadOf } from './bins';

const done = (ns: number): PredictionState => ({
  status: 'done',
  ns,
  scenario: 'x86-madvise-touch',
  preset: 'icelake-8336c-128',
  ignored: [],
  aliased: [],
  perIteration: {},
});

function panelOf(n: number) {
  // Values 1..n µs in file order; the model predicts 2 µs for every second variant.
  const ms = Array.from({ length: n }, (_, i) =>
    measurement({ variant: `kernel=v${i}`, value: i + 1, unit: 'us', stddev: 0.5 }),
  );
  const [chart] = toOverlayCharts(ms, (m) =>
    Number(m.variant.slice(8)) % 2 ? done(2000) : { status: 'none', reason: 'no' },
  );
  return panelsOf(chart, 'values')[0];
}

describe('binPanel', () => {
  it('leaves a panel it can draw point by point alone', () => {
    expect(binPanel(panelOf(200))).toBeNull();
  });

  it('draws 20,000 variants as 200 bins of 100 with their min, median and max', () => {
    const b = binPanel(panelOf(20_000))!;
    expect(b.bins).toHaveLength(200);
    expect(b.perBin).toBe(100);
    const first = b.bins[0];
    expect([first.from, first.to, first.count]).toEqual([1, 100, 100]);
    expect([first.firstVariant, first.lastVariant]).toEqual(['kernel=v0', 'kernel=v99']);
    // The unit is picked for the largest value (20 ms), so 1..100 µs are 0.001..0.1 ms.
    expect(first.measured.min).toBeCloseTo(0.001, 9);
    expect(first.measured.median).toBeCloseTo(0.0505, 9);
    expect(first.measured.max).toBeCloseTo(0.1, 9);
    expect(first.predicted).toEqual({ min: 0.002, median: 0.002, max: 0.002 });
    expect(first.verdicts['no-prediction']).toBe(50);
    expect(b.bins.at(-1)!.to).toBe(20_000);
    expect(describeBinning(b)).toContain('20,000 variants drawn as 200 bins of 100');
  });

  it('keeps the last, shorter bin and never exceeds the bin limit', () => {
    const b = binPanel(panelOf(1_001), 200)!;
    expect(b.perBin).toBe(6);
    expect(b.bins.length).toBeLessThanOrEqual(200);
    const last = b.bins.at(-1)!;
    expect([last.from, last.to, last.count]).toEqual([997, 1001, 5]);
  });

  it('takes the median of an even count as the mean of the middle two', () => {
    expect(spreadOf([4, 1, 3, 2])).toEqual({ min: 1, median: 2.5, max: 4 });
    expect(spreadOf([7])).toEqual({ min: 7, median: 7, max: 7 });
  });
});
