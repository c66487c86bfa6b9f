import { describe, expect, it } from 'vitest';
import { cliFlags } from './cliFlags';
import { DETECT } from './csvPrepare';

describe('cliFlags', () => {
  it('names only what the CLI would not find or detect itself', () => {
    expect(cliFlags({ mapping: { machine: 'machine', value: 'value' }, options: DETECT })).toBe('');
    expect(
      cliFlags({
        mapping: { machine: 'Host', value: 'Mean (us)' },
        options: {
          separator: '\t',
          decimal: ',',
          headerRow: 3,
          fixed: { benchmark: 'wis-tlb-flush1', variant: '' },
        },
      }),
    ).toBe(
      "--map machine=Host --map 'value=Mean (us)' --fix benchmark=wis-tlb-flush1 --separator tab --decimal , --header-row 3",
    );
  });

  it('quotes what a shell would split or expand', () => {
    expect(
      cliFlags({ mapping: {}, options: { ...DETECT, fixed: { machine: "bob's $HOME" } } }),
    ).toBe(`--fix 'machine=bob'\\''s $HOME'`);
  });
});
