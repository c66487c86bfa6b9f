import { describe, expect, it } from 'vitest';
import {
  BENCHMARK_MODELS,
  countPerIteration,
  derivedValue,
  planPrediction,
  readSummaryPath,
} from './benchmarks';
import { measurement } from './measurementFixture';
import { findScenario } from './scenarios';

const m = measurement;

describe('planPrediction', () => {
  it('turns a variant into overrides and a known machine into its preset', () => {
    const p = planPrediction(m({}));
    if (!findScenario(BENCHMARK_MODELS['madvise-touch'].scenario)) {
      expect(p).toMatchObject({ status: 'none', reason: expect.stringMatching(/not written yet/) });
      return;
    }
    expect(p).toMatchObject({
      status: 'run',
      overrides: ['flush_info=stack', 'machine=icelake-8336c-128', 'cpus=128'],
      preset: 'icelake-8336c-128',
    });
  });

  it('never predicts what the model cannot set, cannot run or does not report', () => {
    expect(planPrediction(m({ benchmark: 'sort-compute' }))).toMatchObject({
      status: 'none',
      reason: 'no scenario models sort-compute yet',
    });
    // madvise-touch has run-to-run noise the model lacks: its best run is not predicted.
    expect(planPrediction(m({ metric: 'op_latency_best' })).status).toBe('none');
    expect(planPrediction(m({ variant: 'flush_info=stack->percpu' })).status).toBe('none');
    expect(
      planPrediction(m({ benchmark: 'pcid-pingpong', variant: 'pcid=sometimes' })),
    ).toMatchObject({ status: 'none', reason: 'pcid=sometimes is not a setting of the model' });
  });

  it("runs the seed's unpatched kernel as pcid=off and says so", () => {
    const before = planPrediction(
      m({
        benchmark: 'pcid-pingpong',
        machine: 'skylake-laptop-kvm',
        metric: 'op_latency_best',
        variant: 'pcid=before',
        cpus: null,
      }),
    );
    expect(before).toMatchObject({
      status: 'run',
      scenario: 'x86-pcid-pingpong-bench',
      overrides: ['pcid=off', 'machine=skylake-laptop-kvm'],
      aliased: [{ from: 'pcid=before', to: 'pcid=off' }],
    });
  });

  it('predicts dTLB miss totals from the same run, read per round trip', () => {
    const p = planPrediction(
      m({
        benchmark: 'pcid-pingpong-512',
        machine: 'skylake-laptop-kvm',
        metric: 'dtlb_misses',
        unit: 'million',
        variant: 'pcid=on',
      }),
    );
    expect(p).toMatchObject({ status: 'run', scenario: 'x86-pcid-pingpong-512' });
    // The time row of the same variant shares the run.
    const time = planPrediction(
      m({ benchmark: 'pcid-pingpong-512', machine: 'skylake-laptop-kvm', variant: 'pcid=on' }),
    );
    expect(time.key).toBe(p.key);
    if (p.status !== 'run') return;
    const summary = { tlb_misses_measured: 3090, op_latency_ns: { count: 3 } };
    expect(countPerIteration(summary, p.counts.dtlb_misses)).toBe(1030);
    expect(countPerIteration({ tlb_misses_measured: 5 }, p.counts.dtlb_misses)).toBeNull();
    expect(
      planPrediction(m({ benchmark: 'pcid-pingpong', metric: 'dtlb_misses', variant: 'pcid=on' })),
    ).toMatchObject({
      status: 'none',
      reason: 'only op_latency, op_latency_best are predicted, not dtlb_misses',
    });
  });

  it('predicts the raw_smp_processor_id benchmark with the arm64 per-CPU scenario', () => {
    const p = planPrediction(
      m({
        arch: 'arm64',
        benchmark: 'raw-smp-processor-id',
        machine: 'arm64-unknown',
        metric: 'total_time',
        variant: 'cpu_id=percpu',
        cpus: null,
      }),
    );
    expect(p).toMatchObject({
      status: 'run',
      scenario: 'arm64-percpu-cpu-id',
      overrides: ['cpu_id=percpu'],
    });
  });

  /** will-it-scale's 55-thread row of the tlb_gen dataset, measured on `machine`. */
  const wis55 = (machine: string) =>
    planPrediction(
      m({
        benchmark: 'wis-tlb-flush1',
        machine,
        cpus: 56,
        metric: 'total_throughput',
        unit: 'per_s',
        variant: 'tlb_gen_read=always;threads=55;processes=off',
      }),
    );
  const variant = ['flushes=100', 'tlb_gen_read=always', 'threads=55', 'processes=off'];

  it("runs a machine without a preset at the measured CPU count, on the scenario's machine", () => {
    expect(wis55('skylake-56')).toMatchObject({
      status: 'run',
      scenario: 'x86-wis-tlb-flush1',
      overrides: [...variant, 'cpus=56'],
      preset: 'generic-x86',
    });
  });

  it("runs a preset's machine at the measured CPU count, over the scenario's own", () => {
    // x86-wis-tlb-flush1 sets 16 CPUs: the preset's 56 alone would leave 55 threads no room.
    expect(wis55('skylake-sp-56')).toMatchObject({
      status: 'run',
      overrides: [...variant, 'machine=skylake-sp-56', 'cpus=56'],
      preset: 'skylake-sp-56',
    });
  });

  it('leaves descriptive keys such as kernel= to the scenario', () => {
    const p = planPrediction(m({ machine: 'local-x', variant: 'kernel=6.18;busy_threads=1' }));
    if (p.status === 'run') {
      expect(p.overrides).toEqual(['busy_threads=1', 'cpus=128']);
      expect(p.ignored).toEqual(['kernel=6.18']);
    }
  });
});

describe('derivedValue', () => {
  const wis = BENCHMARK_MODELS['wis-tlb-flush1'].derived.total_throughput;
  const victim = BENCHMARK_MODELS['victim-compute'].derived.victim_time;

  it("totals one thread's iterations over the variant's threads", () => {
    const s = { op_latency_ns: { mean: 20_000 } };
    // 55 threads, each 50,000 iterations a second.
    expect(derivedValue(s, wis, ['threads=55', 'cpus=56'])).toBeCloseTo(2_750_000);
    expect(derivedValue(s, wis, ['cpus=56'])).toBeNull();
    expect(derivedValue({}, wis, ['threads=55'])).toBeNull();
  });

  it("turns the victims' throughput into their time relative to running alone", () => {
    expect(derivedValue({ victim_throughput: 0.8 }, victim, [])).toBeCloseTo(125);
    expect(derivedValue({ victim_throughput: 0 }, victim, [])).toBeNull();
  });
});

describe('readSummaryPath', () => {
  it('reads a dotted number and answers null for anything else', () => {
    const s = { op_latency_ns: { mean: 890.1 }, ipis: 3, name: 'x' };
    expect(readSummaryPath(s, 'op_latency_ns.mean')).toBe(890.1);
    expect(readSummaryPath(s, 'ipis')).toBe(3);
    expect(readSummaryPath(s, 'name')).toBeNull();
    expect(readSummaryPath(s, 'flush_latency_ns.mean')).toBeNull();
  });
});
