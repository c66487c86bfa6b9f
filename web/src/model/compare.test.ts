import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { diffSummaries, ecdf } from './compare';

beforeAll(() => initSimulatorForNode());

describe('diffSummaries', () => {
  it('shows that preemptible_wait shortens preemption-off time on the same workload', () => {
    const text = readScenario('x86-munmap-shootdown');
    const a = runScenario(text, { overrides: ['preempt=pinned'] }).summary;
    const b = runScenario(text, { overrides: ['preempt=preemptible_wait'] }).summary;
    const rows = diffSummaries(a, b);
    const off = rows.find((r) => r.metric === 'Preemption off, max');
    expect(off).toBeDefined();
    expect(off!.delta).toBeLessThan(0);
    expect(off!.a).toBe(a.preempt_off_ns.max);
    const ipis = rows.find((r) => r.metric === 'IPIs sent');
    expect(ipis).toMatchObject({ a: a.ipis, b: b.ipis, delta: 0, ratio: 0 });
  });
});

describe('ecdf', () => {
  it('sorts the sample and climbs to 1', () => {
    const { x, p } = ecdf([3, 1, 2, 2]);
    expect(Array.from(x)).toEqual([1, 2, 2, 3]);
    expect(Array.from(p)).toEqual([0.25, 0.5, 0.75, 1]);
  });
});

describe('a statistic with no samples', () => {
  it('is left out of the comparison rather than shown as zero', () => {
    const empty = { count: 0, mean: 0, p50: 0, p99: 0, max: 0 };
    const base = runScenario(readScenario('x86-munmap-shootdown')).summary;
    const rows = diffSummaries(
      { ...base, op_latency_ns: empty },
      { ...base, op_latency_ns: empty },
    );
    expect(rows.map((r) => r.metric)).not.toContain('Operation latency, mean');
  });

  it('is null on the side without samples, never 0, and has no difference', () => {
    const empty = { count: 0, mean: 0, p50: 0, p99: 0, max: 0 };
    const base = runScenario(readScenario('x86-munmap-shootdown')).summary;
    const rows = diffSummaries(base, { ...base, flush_latency_ns: empty });
    const mean = rows.find((r) => r.metric === 'Flush latency, mean');
    expect(mean).toMatchObject({ a: base.flush_latency_ns.mean, b: null, delta: null });
  });
});

describe('arm64 metrics', () => {
  it('compare TLBI broadcasts and rollovers of two ASID widths, and are absent on x86', () => {
    const text = readScenario('arm64-asid-rollover');
    const a = runScenario(text).summary;
    const b = runScenario(text, { overrides: ['asid_bits=16'] }).summary;
    const rows = diffSummaries(a, b);
    const roll = rows.find((r) => r.metric === 'ASID rollovers');
    expect(roll).toMatchObject({ a: a.asid_rollovers, b: 0 });
    expect(roll!.a).toBeGreaterThan(0);
    expect(rows.find((r) => r.metric === 'TLBI broadcasts')?.a).toBe(a.broadcasts);
    const x86 = runScenario(readScenario('x86-munmap-shootdown')).summary;
    expect(diffSummaries(x86, x86).map((r) => r.metric)).not.toContain('TLBI broadcasts');
  });
});

describe('x86 instruction counts', () => {
  it('compare INVLPG, INVPCID and CR3 writes of PTI off and on, and are absent on arm64', () => {
    const text = readScenario('x86-pti-r11');
    const a = runScenario(text, { overrides: ['pti=off'] }).summary;
    const b = runScenario(text).summary;
    const rows = diffSummaries(a, b);
    const invpcid = rows.find((r) => r.metric === 'INVPCID (PTI)');
    expect(invpcid).toMatchObject({ a: 0, b: (b.x86_ops as { invpcid: number }).invpcid });
    expect(invpcid!.b).toBeGreaterThan(0);
    const cr3 = rows.find((r) => r.metric === 'CR3 writes');
    expect(cr3!.delta).toBeGreaterThan(0);
    const arm = runScenario(readScenario('arm64-asid-rollover')).summary;
    expect(diffSummaries(arm, arm).map((r) => r.metric)).not.toContain('INVLPG');
  });
});

describe('cache lines a flush moves', () => {
  it('show what skipping the tlb_gen read saves, and the cross-call lines every request moves', () => {
    const text = readScenario('x86-wis-tlb-flush1');
    const set = ['threads=8', 'cpus=8', 'flushes=50'];
    const a = runScenario(text, { overrides: [...set, 'tlb_gen_read=always'] }).summary;
    const b = runScenario(text, { overrides: [...set, 'tlb_gen_read=when_needed'] }).summary;
    const rows = diffSummaries(a, b);
    const gen = rows.find((r) => r.metric === 'tlb_gen line fetched from another CPU');
    expect(gen!.a).toBeGreaterThan(0);
    expect(gen!.delta).toBeLessThan(0);
    // Every request moves its csd and the target's queue head, whichever kernel: at least
    // one transfer per IPI, since each IPI announces at least one request.
    const lines = rows.find((r) => r.metric === 'Cross-call lines fetched (csd, queue head)');
    expect(lines!.a).toBeGreaterThan(a.ipis);
    expect(lines!.b).toBeGreaterThan(b.ipis);
  });
});

describe('victims of broadcast TLBI', () => {
  it('compare the DVM messages and the victims’ chunk time with and without skipping the broadcast', () => {
    const text = readScenario('arm64-victim-compute');
    const a = runScenario(text, { overrides: ['flushes=50'] }).summary;
    const b = runScenario(text, { overrides: ['flushes=50', 'broadcast_skip=on'] }).summary;
    const rows = diffSummaries(a, b);
    const dvm = rows.find((r) => r.metric === 'DVM messages (broadcast TLBI ops)');
    expect(dvm).toMatchObject({ a: 50, b: 0 });
    const chunk = rows.find((r) => r.metric === 'Victim compute chunk, mean');
    // Undisturbed, a chunk takes exactly its work; stalled by broadcasts, longer.
    expect(chunk!.b).toBe(2000);
    expect(chunk!.delta).toBeLessThan(0);
    expect(b.victim_throughput).toBe(1);
  });

  it('leave the victim row out of a run without victims', () => {
    const base = runScenario(readScenario('arm64-asid-rollover')).summary;
    expect(base.victim_throughput).toBeNull();
    const rows = diffSummaries(base, base);
    expect(rows.map((r) => r.metric)).not.toContain('Victim compute chunk, mean');
  });
});
