import { beforeAll, describe, expect, it } from 'vitest';
import { CHECK_BUDGET, finishCheck, fixesOf, openChecker, parseReport, races } from './check';
import { openSimulator, ScenarioLoadError, thisBuild, traceOf } from './run';
import { initSimulatorForNode, readScenario } from './testing';

beforeAll(() => initSimulatorForNode());

const check = (id: string, set: string[] = []) => {
  const progress: number[] = [];
  const out = finishCheck(
    openChecker(readScenario(id), set),
    (states) => progress.push(states),
    () => 0,
  );
  return { ...out, progress };
};

describe('the checker in the WASM build', () => {
  it('finds R16’s counterexample and returns it as a run to draw, ending in the violation', () => {
    const { report, counterexample } = check('arm64-r16-dsb-before-dec');
    expect(report.verdict).toBe('violated');
    expect(report.counterexample?.invariant).toBe('I18');
    expect(counterexample).not.toBeNull();
    const trace = traceOf(counterexample!);
    const last = report.counterexample!.steps.at(-1)!;
    // The steps' rows are the trace's: the last step wrote the violation.
    expect(last.rows[1]).toBe(trace.n);
    expect(trace.kind.slice(last.rows[0], last.rows[1])).toContain(trace.kind[trace.n - 1]);
    counterexample!.free();
  });

  it('reports progress between budgets, each at least as far as the last', () => {
    const { report, progress, counterexample } = check('x86-r1-percpu-descriptor-race');
    counterexample?.free();
    expect(report.transitions).toBeGreaterThan(3 * CHECK_BUDGET);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.every((n, i) => i === 0 || n >= progress[i - 1])).toBe(true);
    expect(progress.at(-1)).toBeLessThanOrEqual(report.states);
  });

  it('proves the fixed design, with no counterexample to draw', () => {
    const { report, counterexample } = check('arm64-r16-dsb-before-dec', ['dsb_before_dec=on']);
    expect(report.verdict).toBe('holds');
    expect(report.counterexample).toBeNull();
    expect(counterexample).toBeNull();
    expect(report.states).toBeGreaterThan(100);
  });

  it('refuses a broken scenario with its field and line', () => {
    expect(() => openChecker('title = "x"\n[machine]\ncpus = 0\n', [])).toThrow(ScenarioLoadError);
  });

  it('reads the fixed designs a race scenario promises hold', () => {
    const sim = openSimulator(thisBuild, readScenario('x86-r1-percpu-descriptor-race'), [], 1);
    expect(fixesOf(sim)).toEqual([['flush_info=stack'], ['preempt=pinned']]);
    sim.free();
    expect(races().find((r) => r.id === 'R1')?.scenario).toBe('x86-r1-percpu-descriptor-race');
  });

  it('names what a damaged report lacks', () => {
    expect(() => parseReport('{"states":1}', 0)).toThrow(/no verdict/);
    expect(() => parseReport('{"verdict":"holds","states":1,"transitions":1}', 0)).toThrow(
      /no depth/,
    );
    expect(() =>
      parseReport('{"verdict":"violated","states":1,"transitions":1,"depth":1}', 0),
    ).toThrow(/without its counterexample/);
  });
});
