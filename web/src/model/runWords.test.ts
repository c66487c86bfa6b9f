import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import type { Stats } from '../trace/trace';
import { formatNs } from '../viz/scales';
import { meanAboveP99, sampled, titleForRun } from './runWords';

beforeAll(() => initSimulatorForNode());

describe('titleForRun', () => {
  it("states the run's CPU count, not the scenario's, once the reader resizes the machine", () => {
    const text = readScenario('x86-munmap-shootdown');
    const run = runScenario(text, { overrides: ['cpus=64'] });
    expect(run.title).toContain('4-CPU machine');
    expect(titleForRun(run.title, run.trace.cpus)).toBe(
      'What a TLB shootdown is: munmap on a 64-CPU machine',
    );
  });

  it('leaves a title alone when the count is the run’s, and rewrites "N CPUs" too', () => {
    expect(titleForRun('munmap on a 4-CPU machine', 4)).toBe('munmap on a 4-CPU machine');
    expect(titleForRun('mprotect benchmark, 32 CPUs', 1)).toBe('mprotect benchmark, 1 CPU');
    expect(titleForRun('100,000 shootdowns on a 128-CPU machine', 512)).toBe(
      '100,000 shootdowns on a 512-CPU machine',
    );
  });
});

describe('statistics that could mislead', () => {
  it('treat a statistic over no samples as absent, not as 0 ns', () => {
    const s = runScenario(readScenario('arm64-asid-rollover')).summary;
    expect(s.preempt_off_ns.count).toBe(0);
    expect(sampled(s.preempt_off_ns)).toBeNull();
    expect(sampled(s.flush_latency_ns)).not.toBeNull();
  });

  it('explain a mean above p99 by the few slow samples past p99 (the PCID ping-pong)', () => {
    const op = runScenario(readScenario('x86-pcid-pingpong')).summary.op_latency_ns as Stats;
    // The first round trip page-faults every page: one sample far out in the tail.
    expect(op.mean).toBeGreaterThan(op.p99);
    expect(op.max).toBeGreaterThan(op.mean * 10);
    const note = meanAboveP99(op, formatNs);
    expect(note).toContain(`at most 4 of the 400 samples`);
    expect(note).toContain(formatNs(op.max));
    expect(meanAboveP99({ ...op, mean: op.p99 }, formatNs)).toBeNull();
  });
});
