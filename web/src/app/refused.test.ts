import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { repairOverrides } from './refused';

/** The simulator's own refusal of `overrides`. */
function refusal(overrides: string[]): string {
  try {
    runScenario(readScenario('x86-munmap-shootdown'), { overrides });
  } catch (e) {
    return String(e);
  }
  throw new Error(`${overrides.join(' ')} was accepted`);
}

beforeAll(() => initSimulatorForNode());

describe('repairOverrides', () => {
  it('clamps a number out of range to the nearest value allowed, and the result runs', () => {
    const set = ['cpus=0', 'flushes=3'];
    const low = repairOverrides(set, refusal(set));
    expect(low).toEqual({
      overrides: ['cpus=1', 'flushes=3'],
      said: 'cpus=1 instead of cpus=0 (the nearest value allowed)',
    });
    const high = repairOverrides(['flushes=99999999'], refusal(['flushes=99999999']));
    expect(high?.overrides).toEqual(['flushes=10000000']);
    const budget = repairOverrides(['max_events=0'], refusal(['max_events=0']));
    expect(budget?.overrides).toEqual(['max_events=1']);
    expect(() => runScenario(readScenario('x86-munmap-shootdown'), budget!)).not.toThrow();
  });

  it('leaves out a setting that is not a number out of range', () => {
    for (const bad of ['pcid=maybe', 'bogus=1', 'cpus=abc']) {
      const fix = repairOverrides(['flushes=3', bad], refusal(['flushes=3', bad]));
      expect(fix, bad).toEqual({ overrides: ['flushes=3'], said: `without ${bad}` });
    }
  });

  it('offers nothing when the refusal is not about these settings', () => {
    expect(repairOverrides(['cpus=2'], 'scenario.toml:3: expected a table')).toBeNull();
    expect(repairOverrides(['cpus=2'], '--set design.pcid: expected on or off')).toBeNull();
  });
});
