import { describe, expect, it } from 'vitest';
import { parseSummary } from './summary';

const stats = { count: 1, mean: 2, p50: 2, p99: 2, max: 2 };
const good = {
  arch: 'x86',
  events: 29,
  trace_rows: 28,
  sim_time_ns: 4082,
  flush_latency_ns: stats,
  preempt_off_ns: stats,
  ipis: 3,
  violations: [{ invariant: 'stale', cpu: 1, time_ns: 5, detail: 'd' }],
  tlb_misses: 1,
};

describe('parseSummary', () => {
  it('keeps every field in the order the simulator wrote them', () => {
    const s = parseSummary(JSON.stringify(good));
    expect(JSON.stringify(s)).toBe(JSON.stringify(good));
  });

  it('names the field that is missing or of the wrong type', () => {
    expect(() => parseSummary(JSON.stringify({ ...good, ipis: '3' }))).toThrow(
      'simulator summary: ipis is not a number',
    );
    expect(() =>
      parseSummary(JSON.stringify({ ...good, flush_latency_ns: { ...stats, p99: null } })),
    ).toThrow('simulator summary: flush_latency_ns.p99 is not a number');
    expect(() =>
      parseSummary(JSON.stringify({ ...good, violations: [{ invariant: 'x', cpu: 0 }] })),
    ).toThrow('simulator summary: violations[0].time_ns is not a number');
    expect(() => parseSummary('[]')).toThrow('simulator summary: not a JSON object');
  });
});
