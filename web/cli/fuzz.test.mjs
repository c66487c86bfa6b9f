// A quick slice of the WASM fuzzer (bench/fuzz-wasm.mjs, `npm run fuzz` for long runs): a few
// hundred generated cases through the CLI's own loading path, with no trap, hang or unlocated
// error, and a mix that really exercises runs, budget stops and refusals.
import { describe, expect, it } from 'vitest';
import { formatStats, fuzz, makeCase } from '../../bench/fuzz-wasm.mjs';

describe('the WASM build under generated input', () => {
  it('never traps, hangs or gives an unlocated error', async () => {
    const s = await fuzz({ cases: 300, seed: 20, hangMs: 30_000 });
    const report = formatStats(s);
    expect(s.cases).toBe(300);
    expect(s.traps, report).toEqual([]);
    expect(s.hangs, report).toEqual([]);
    expect(s.failures, report).toEqual([]);
    expect(s.outcomes.ok, report).toBeGreaterThan(50);
    expect(s.outcomes['scenario-error'], report).toBeGreaterThan(50);
    expect(s.outcomes['budget-stop'], report).toBeGreaterThan(3);
  }, 120_000);

  it('replays a case from its seed and index', () => {
    expect(makeCase(7, 42)).toEqual(makeCase(7, 42));
    expect(makeCase(7, 42)).not.toEqual(makeCase(7, 43));
    expect(makeCase(7, 499).kind).toBe('big');
  });
});
