// Test-only: one measured row with every field filled, overridable per test.
import type { Measurement } from './datasets';

export function measurement(over: Partial<Measurement> = {}): Measurement {
  return {
    arch: 'x86',
    machine: 'icelake-8336c-128',
    cpus: 128,
    benchmark: 'madvise-touch',
    variant: 'flush_info=stack',
    metric: 'op_latency',
    value: 2.5,
    unit: 'us',
    stddev: 0.1,
    runs: 5,
    source: 'zhou-2026-flush-tlb-info-stack',
    origin: { kind: 'shipped', file: 'x.csv' },
    rows: [2],
    aggregated: false,
    ...over,
  };
}
