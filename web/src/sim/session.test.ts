import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario, ScenarioLoadError } from './session';
import { initSimulatorForNode, readScenario } from './testing';

beforeAll(() => initSimulatorForNode());

describe('runScenario', () => {
  it('returns the scenario title and a trace with one row per recorded event', () => {
    const r = runScenario(readScenario('x86-munmap-shootdown'));
    expect(r.title).toMatch(/TLB shootdown/);
    expect(r.trace.n).toBe(r.summary.trace_rows);
    expect(r.trace.time.length).toBe(r.trace.n);
  });

  it('throws a ScenarioLoadError naming an unknown field and its line', () => {
    try {
      runScenario('title = "x"\n[machine]\ncpus = 4\nsockets = 2\n');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioLoadError);
      const err = e as ScenarioLoadError;
      expect(err.path).toBe('sockets');
      expect(err.line).toBe(4);
      expect(err.message).toMatch(/unknown field `sockets`/);
    }
  });

  it('rejects zero cpus without trapping, and the module keeps working afterwards', () => {
    expect(() => runScenario('[machine]\ncpus = 0\n')).toThrow(
      /machine\.cpus: must be between 1 and 512/,
    );
    expect(runScenario(readScenario('x86-munmap-shootdown')).trace.n).toBeGreaterThan(0);
  });

  it('rejects an unknown override by name', () => {
    expect(() => runScenario('', { overrides: ['flux_info=stack'] })).toThrow(/--set flux_info/);
  });
});
