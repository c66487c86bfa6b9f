import { describe, expect, it } from 'vitest';
import { planPrediction } from '../content/benchmarks';
import { measurement } from '../content/measurementFixture';
import type { Measurement } from '../content/datasets';
import {
  describeVerdict,
  judge,
  MODEL_SOURCE,
  NOISE_SIGMAS,
  toOverlayCharts,
  type PredictionState,
} from './overlay';

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

  it('calls a rate the model overestimates faster, and a percentage off by points', () => {
    expect(describeVerdict(judge(700_000, 614_363, null), 'per_s')).toMatch(
      /^off by 85,637 \/s \(the model is faster\)/,
    );
    expect(describeVerdict(judge(101.4, 125, null), 'percent')).toMatch(
      /^off by 23\.6 points \(the model is faster\)/,
    );
  });

  it('says which way and by how much the model is off', () => {
    expect(describeVerdict(judge(2.3, 2.5, 0.01), 'us')).toMatch(
      /^outside measurement noise: the model is faster by 0\.2 µs \(20\.0 σ\)/,
    );
  });
});

describe('toOverlayCharts', () => {
  it("charts a derived metric in the source's own unit, the model's number converted to it", () => {
    const wis = (variant: string, value: number) =>
      m({
        benchmark: 'wis-tlb-flush1',
        machine: 'thunderx2-2s',
        metric: 'total_throughput',
        unit: 'per_s',
        stddev: null,
        variant,
        value,
      });
    const rows = [wis('threads=10', 479110), wis('threads=55', 614363), wis('processes=off', 1)];
    const charts = toOverlayCharts(rows, (x) => {
      // The plan refuses a total without a thread count, as the page asks it first.
      const plan = planPrediction(x);
      if (plan.status === 'none') return plan;
      return {
        status: 'done',
        ns: 0,
        scenario: 'x86-wis-tlb-flush1',
        preset: x.machine,
        ignored: [],
        aliased: [],
        perIteration: {},
        derived: { total_throughput: 500_000 },
      };
    });
    expect(charts.map((c) => [c.id, c.unit])).toEqual([
      ['wis-tlb-flush1 · total_throughput', 'per_s'],
    ]);
    const [ten, fiftyFive, none] = charts[0].points;
    expect([ten.value, ten.predicted, ten.verdict]).toEqual([
      479110,
      500_000,
      { kind: 'noise-unknown', diff: 20890 },
    ]);
    expect(fiftyFive.verdict).toEqual({ kind: 'noise-unknown', diff: 500_000 - 614363 });
    expect(none.predicted).toBeNull();
    expect(describeVerdict(none.verdict, 'per_s')).toMatch(/names no threads= to total over/);
    expect(charts[0].notes[0]).toMatch(/threads × 10\^9 \/ op_latency_ns/);
    // A row of the same metric in another unit is not converted.
    expect(
      toOverlayCharts([{ ...wis('threads=1', 1), unit: 'x' }], () => ({ status: 'pending' })),
    ).toEqual([]);
  });

  it('gives each prediction the band its two end runs span, in the chart’s unit', () => {
    const read = (ns: number, total: number) => ({
      ns,
      perIteration: {},
      derived: { total_throughput: total },
    });
    const done = (band?: { low: ReturnType<typeof read>; high: ReturnType<typeof read> } | null) =>
      ({
        status: 'done',
        ...read(2000, 500_000),
        scenario: 's',
        preset: 'generic-x86',
        ignored: [],
        aliased: [],
        band,
      }) as PredictionState;
    // A time in µs: cheaper costs (the low end) make it shorter.
    const [time] = toOverlayCharts([m({ value: 2.5, unit: 'us', stddev: null })], () =>
      done({ low: read(1000, 900_000), high: read(4500, 250_000) }),
    );
    expect(time.points[0].band).toEqual([1, 4.5]);
    // A rate: the low end gives the higher figure; the band is still bottom to top.
    const wis = m({
      benchmark: 'wis-tlb-flush1',
      metric: 'total_throughput',
      unit: 'per_s',
      variant: 'threads=10',
      value: 479110,
      stddev: null,
    });
    const [rate] = toOverlayCharts([wis], () =>
      done({ low: read(1000, 900_000), high: read(4500, 250_000) }),
    );
    expect(rate.points[0].band).toEqual([250_000, 900_000]);
    // Still running, or an end without a figure: no band.
    expect(toOverlayCharts([wis], () => done(undefined))[0].points[0].band).toBeNull();
    expect(toOverlayCharts([wis], () => done(null))[0].points[0].band).toBeNull();
  });

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
        perIteration: {},
      }),
    );
    expect(charts.map((c) => c.id)).toEqual(['madvise-touch · op_latency']);
    const c = charts[0];
    expect(c.unit).toBe('us');
    expect(c.series.map((s) => s.label)).toEqual([
      'icelake-8336c-128 (zhou-2026-flush-tlb-info-stack)',
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
        perIteration: {},
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

  describe('counts given as totals over an unstated number of iterations', () => {
    const row = (variant: string, value: number, over: Partial<Measurement> = {}) =>
      m({
        machine: 'skylake-laptop-kvm',
        source: 'lutomirski-2017-x86-pcid',
        benchmark: 'pcid-pingpong-512',
        metric: 'dtlb_misses',
        unit: 'million',
        stddev: null,
        runs: null,
        variant,
        value,
        ...over,
      });
    // Per round trip, as the simulator's summary gives them: pcid=before runs as pcid=off.
    const perRoundTrip: Record<string, number> = {
      'pcid=on': 0,
      'pcid=off': 1030,
      'pcid=before': 1030,
    };
    const done = (x: Measurement): PredictionState => ({
      status: 'done',
      ns: 0,
      scenario: 'x86-pcid-pingpong-512',
      preset: x.machine,
      ignored: [],
      aliased: [],
      perIteration: { dtlb_misses: perRoundTrip[x.variant] },
    });

    it('charts them as fractions of the reference variant, measured and predicted alike', () => {
      const charts = toOverlayCharts(
        [row('pcid=on', 11), row('pcid=off', 207), row('pcid=before', 190)],
        done,
      );
      expect(charts.map((c) => c.id)).toEqual(['pcid-pingpong-512 · dtlb_misses']);
      const [c] = charts;
      expect(c.unit).toBe('× pcid=off');
      const by = Object.fromEntries(c.points.map((p) => [p.measurement.variant, p]));
      expect(by['pcid=on'].value).toBeCloseTo(11 / 207);
      expect(by['pcid=on'].predicted).toBe(0);
      expect(by['pcid=on'].verdict).toEqual({ kind: 'noise-unknown', diff: -11 / 207 });
      expect(by['pcid=before'].value).toBeCloseTo(190 / 207);
      expect(by['pcid=before'].predicted).toBe(1);
      expect(by['pcid=off'].verdict).toEqual({ kind: 'reference' });
      expect(c.notes[0]).toMatch(/same number of round trips/);
      expect(describeVerdict(by['pcid=on'].verdict, c.unit)).toBe(
        'off by 0.0531 × pcid=off; no stddev stated, so whether that is noise is unknown',
      );
    });

    it("carries the runs' stddev through the division", () => {
      const [c] = toOverlayCharts(
        [row('pcid=on', 10, { stddev: 1 }), row('pcid=off', 200, { stddev: 20 })],
        done,
      );
      const on = c.points.find((p) => p.measurement.variant === 'pcid=on')!;
      expect(on.hi! - on.value).toBeCloseTo(0.05 * Math.hypot(0.1, 0.1));
    });

    it('lists rows it cannot divide instead of charting a made-up ratio', () => {
      const charts = toOverlayCharts(
        [
          row('pcid=on', 11),
          row('pcid=off', 207, { source: 'other' }),
          row('pcid=on', 9, { unit: 'count' }),
        ],
        done,
      );
      const [c] = charts;
      expect(c.points.map((p) => `${p.measurement.source} ${p.measurement.variant}`)).toEqual([
        'other pcid=off',
      ]);
      expect(c.notes.slice(1)).toEqual([
        'Not charted: pcid=on on skylake-laptop-kvm (lutomirski-2017-x86-pcid), no pcid=off row in million to divide by.',
        'Not charted: pcid=on on skylake-laptop-kvm (lutomirski-2017-x86-pcid), no pcid=off row in count to divide by.',
      ]);
    });

    it('says so when the model predicts none of the reference count', () => {
      const [c] = toOverlayCharts([row('pcid=on', 11), row('pcid=off', 207)], (x) => ({
        ...(done(x) as Extract<PredictionState, { status: 'done' }>),
        perIteration: { dtlb_misses: 0 },
      }));
      const on = c.points.find((p) => p.measurement.variant === 'pcid=on')!;
      expect(describeVerdict(on.verdict, c.unit)).toBe(
        'no model prediction yet for pcid-pingpong-512: the model predicts no dtlb_misses for pcid=off',
      );
    });
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
