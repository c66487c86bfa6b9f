import { describe, expect, it } from 'vitest';
import { VOCABULARY } from '../sim/vocabulary.generated';
import { bandOf, bandWidth, boundOverrides, formatBand } from './band';

describe('boundOverrides', () => {
  const ranges = [
    { name: 'ipi_send_ns', low: 0.5, high: 1.5, max: 1e12 },
    { name: 'syscall_ns', low: 0.5, high: 2, max: 1e12 },
    { name: 'pcp_batch', low: null, high: null, max: 65536 },
  ];
  it('puts each ranged cost at its factors of the run’s value', () => {
    const b = boundOverrides({ ipi_send_ns: 200, syscall_ns: 333, pcp_batch: 63 }, [], ranges);
    expect(b.low).toEqual(['costs.ipi_send_ns=100', 'costs.syscall_ns=167']);
    expect(b.high).toEqual(['costs.ipi_send_ns=300', 'costs.syscall_ns=666']);
  });
  it('holds a high end at the largest value the simulator accepts', () => {
    const b = boundOverrides({ ipi_send_ns: 200, syscall_ns: 9e11 }, [], ranges);
    expect(b.high).toEqual(['costs.ipi_send_ns=300', 'costs.syscall_ns=1000000000000']);
  });
  it('leaves a cost the user set, a count and a zero as they are', () => {
    const b = boundOverrides(
      { ipi_send_ns: 200, syscall_ns: 0, pcp_batch: 63 },
      ['costs.ipi_send_ns=250', 'threads=4'],
      ranges,
    );
    expect(b).toEqual({ low: [], high: [] });
  });
  it('knows a range for every time the simulator estimates', () => {
    const ranged = VOCABULARY.costs.filter((c) => c.low !== null).map((c) => c.name);
    expect(ranged).toContain('ipi_delivery_ns');
    expect(ranged).not.toContain('pcp_batch');
  });
});

describe('bandOf', () => {
  it('spans the three runs whichever end is lower', () => {
    // A throughput: cheaper costs (the low end) give the higher figure.
    const b = bandOf(100, 180, 60);
    expect(b).toEqual({ low: 60, central: 100, high: 180 });
    expect(bandWidth(b!)).toBe(3);
    expect(formatBand(b!)).toBe('−40 % / +80 %');
  });
  it('has no band for a figure a run could not give', () => {
    expect(bandOf(100, NaN, 60)).toBeNull();
  });
});
