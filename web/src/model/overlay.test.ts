import { describe, expect, it } from 'vitest';
import { measurement } from '../content/measurementFixture';
import { describeVerdict, judge, MODEL_SOURCE, NOISE_SIGMAS, toOverlayCharts } from './overlay';

const m = measurement;

describe('the noise rule', () => {
  it(`calls a difference up to ${NOISE_SIGMAS} stddev within measurement noise`, () => {
    expect(judge(2.7, 2.5, 0.1).kind).toBe('within-noise');
    expect(judge(2.3, 2.5, 0.1).kind).toBe('within-noise');
    expect(judge(2.71, 2.5, 0.1).kind).toBe('outside-noise');
    expect(judge(2.5, 2.5, 0).kind).toBe('within-noise');
    expect(judge(2.6, 2.5, 0).kind).toBe('outside-noise');
  });

  it('gives no verdict when no stddev is stated', () => {
    expect(judge(3, 2.5, null)).toEqual({ kind: 'noise-unknown', diff: 0.5 });
  });

  it('says which way and by how much the model is off', () => {
    expect(describeVerdict(judge(2.3, 2.5, 0.01), 'us')).toMatch(
      /^outside measurement noise: the model is faster by 0\.2 µs \(20\.0 σ\)/,
    );
  });
});

describe('toOverlayCharts', () => {
  it('groups absolute time metrics per benchmark and metric, one series per machine and source', () => {
    const charts = toOverlayCharts(
      [
        m({}),
        m({ variant: 'flush_info=percpu', value: 2400, unit: 'ns', stddev: 50 }),
        m({ machine: 'local-x', source: 'local-x', variant: 'kernel=6' }),
        m({ metric: 'speedup', unit: 'percent', variant: 'a->b' }),
        m({ source: MODEL_SOURCE }),
      ],
      // As if every machine had a preset of its own.
      (x) => ({
        status: 'done',
        ns: 2600,
        scenario: 'x86-madvise-touch',
        preset: x.machine,
        ignored: [],
        aliased: [],
      }),
    );
    expect(charts.map((c) => c.id)).toEqual(['madvise-touch · op_latency']);
    const c = charts[0];
    expect(c.unit).toBe('us');
    expect(c.series.map((s) => s.label)).toEqual([
      'icelake-8336c-128 (seed-000)',
      'local-x (local-x)',
    ]);
    expect(c.points[1].value).toBeCloseTo(2.4);
    expect(c.points[1].lo).toBeCloseTo(2.35);
    expect(c.points[1].hi).toBeCloseTo(2.45);
    expect(c.points.map((p) => p.verdict.kind)).toEqual([
      'within-noise',
      'outside-noise',
      'within-noise',
    ]);
    expect(c.points[0].predicted).toBeCloseTo(2.6);
  });

  it('gives no noise verdict when the prediction is for another machine than the measurement', () => {
    const [c] = toOverlayCharts(
      [m({ machine: 'local-x', source: 'local-x', value: 2.5, unit: 'us', stddev: 0.5 })],
      () => ({
        status: 'done',
        ns: 2600,
        scenario: 'x86-madvise-touch',
        preset: 'icelake-8336c-128',
        ignored: [],
        aliased: [],
      }),
    );
    expect(c.points[0].verdict).toEqual({
      kind: 'other-machine',
      diff: expect.closeTo(0.1, 9),
      preset: 'icelake-8336c-128',
    });
    expect(describeVerdict(c.points[0].verdict, 'us')).toMatch(
      /^no verdict: the model has no preset for this machine, and the × is its prediction for icelake-8336c-128 \(slower by 0\.1 µs\)/,
    );
  });

  it('passes on why there is no prediction instead of inventing one', () => {
    const [c] = toOverlayCharts([m({})], () => ({
      status: 'none',
      reason: 'scenario x is not written yet',
    }));
    expect(c.points[0].predicted).toBeNull();
    expect(describeVerdict(c.points[0].verdict, c.unit)).toBe(
      'no model prediction yet for madvise-touch: scenario x is not written yet',
    );
  });
});
