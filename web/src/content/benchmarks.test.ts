import { describe, expect, it } from 'vitest';
import { BENCHMARK_MODELS, planPrediction, readSummaryPath } from './benchmarks';
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
      overrides: ['flush_info=stack', 'machine=icelake-8336c-128'],
      preset: 'icelake-8336c-128',
    });
  });

  it('never predicts what the model cannot set, cannot run or does not report', () => {
    expect(planPrediction(m({ benchmark: 'sort-compute' }))).toMatchObject({
      status: 'none',
      reason: 'no scenario models sort-compute yet',
    });
    expect(planPrediction(m({ metric: 'op_latency_best' })).status).toBe('none');
    expect(planPrediction(m({ variant: 'flush_info=stack->percpu' })).status).toBe('none');
    const before = planPrediction(m({ benchmark: 'pcid-pingpong', variant: 'pcid=before' }));
    expect(before.status).toBe('none');
  });

  it('leaves descriptive keys such as kernel= to the scenario', () => {
    const p = planPrediction(m({ machine: 'local-x', variant: 'kernel=6.18;busy_threads=1' }));
    if (p.status === 'run') {
      expect(p.overrides).toEqual(['busy_threads=1']);
      expect(p.ignored).toEqual(['kernel=6.18']);
    }
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
