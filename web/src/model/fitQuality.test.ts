import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the CLI's plain JavaScript has no declarations; the test reads it as the CLI does.
import { costsFileOverrides as readCosts } from '../../cli/fit.mjs';
import type { FitResult } from './fitCore.mjs';
import { fittedOverrides } from './fitted';
import { boundFlags, fittedToml } from './fitQuality';

const residual = (line: number) => ({
  line,
  benchmark: 'pcid-pingpong',
  variant: 'pcid=on',
  modelled_as: [],
  metric: 'op_latency',
  measured_ns: 1000,
  predicted_ns: 1010,
  residual_ns: 10,
  residual_pct: 1,
});
const param = (name: string, value: number, identifiable = true) => ({
  name,
  start: 100,
  value,
  bounds: [1, 2000] as [number, number],
  identifiable,
});
const result = (params: FitResult['params'], rows: number): FitResult => ({
  preset: 'icelake-8336c-128',
  runs: 40,
  iterations: 3,
  params,
  residuals: Array.from({ length: rows }, (_, i) => residual(i + 2)),
  rms_pct: 1,
});

describe('boundFlags', () => {
  it('flags a cost at the 1 ns floor: too few rows when rows do not outnumber costs', () => {
    const [f, ...rest] = boundFlags(result([param('ipi_ns', 1), param('flush_ns', 300)], 2));
    expect(rest).toEqual([]);
    expect([f.name, f.bound]).toEqual(['ipi_ns', 'floor']);
    expect(f.reason).toContain('too few rows: 2 rows for 2 free costs');
  });

  it('says which costs the data cannot separate it from when rows are plenty', () => {
    const [f] = boundFlags(result([param('ipi_ns', 2000), param('flush_ns', 300)], 6));
    expect(f.bound).toBe('ceiling');
    expect(f.reason).toContain('the data cannot separate ipi_ns from flush_ns');
  });

  it('leaves costs inside their range, and costs the rows do not move, alone', () => {
    expect(boundFlags(result([param('a', 50), param('b', 1, false)], 6))).toEqual([]);
  });
});

describe('fittedToml', () => {
  it('is a costs file the CLI reads back as the same overrides', () => {
    const r = result([param('ipi_ns', 812), param('flush_ns', 300)], 3);
    const text = fittedToml(r, 'mine.csv');
    const costsFileOverrides = readCosts as (text: string, file: string) => string[];
    expect(costsFileOverrides(text, 'fitted.toml')).toEqual(fittedOverrides(r));
  });
});
