import { describe, expect, it } from 'vitest';
import { measurement } from '../content/measurementFixture';
import { fitRowsOf, fittedOverrides, scenarioLink } from './fitted';
import type { FitResult } from './fitCore.mjs';

describe('a fitted machine in the page', () => {
  it('reads imported measurements as the fit’s rows, numbered by their line in the file', () => {
    const [r] = fitRowsOf([measurement({ rows: [7, 8], variant: 'pcid=on', unit: 'us' })]);
    expect(r).toEqual({
      line: 7,
      benchmark: 'madvise-touch',
      variant: 'pcid=on',
      metric: 'op_latency',
      machine: 'icelake-8336c-128',
      value: 2.5,
      unit: 'us',
    });
  });

  it('becomes a preset and costs.* overrides that any scenario link carries', () => {
    const result = {
      preset: 'skylake-laptop-kvm',
      params: [
        {
          name: 'context_switch_ns',
          start: 500,
          value: 610,
          bounds: [1, 10000],
          identifiable: true,
        },
      ],
    } as unknown as FitResult;
    const o = fittedOverrides(result);
    expect(o).toEqual(['machine=skylake-laptop-kvm', 'costs.context_switch_ns=610']);
    expect(scenarioLink('x86-lazy-tlb', o)).toBe(
      '?scenario=x86-lazy-tlb&set=machine%3Dskylake-laptop-kvm&set=costs.context_switch_ns%3D610',
    );
  });
});
