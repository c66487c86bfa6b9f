// A quick slice of the WASM fuzzer (bench/fuzz-wasm.mjs, `npm run fuzz` for long runs): a few
// hundred generated cases through the CLI's own loading path, with no trap, hang or unlocated
// error, and a mix that really exercises runs, budget stops and refusals.
import { describe, expect, it } from 'vitest';
import { formatStats, fuzz, makeCase } from '../../bench/fuzz-wasm.mjs';
import { restamp } from '../../bench/fuzz/recordings.mjs';

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

  it('reads damaged recordings and wild links without a throw, hang or changing link', async () => {
    const rec = await fuzz({ cases: 120, seed: 3, cls: 'recordings', hangMs: 30_000 });
    const recReport = formatStats(rec);
    expect(rec.hangs, recReport).toEqual([]);
    expect(rec.failures, recReport).toEqual([]);
    expect(rec.outcomes.ok, recReport).toBeGreaterThan(50);
    const links = await fuzz({ cases: 400, seed: 3, cls: 'links', hangMs: 30_000 });
    const linkReport = formatStats(links);
    expect(links.hangs, linkReport).toEqual([]);
    expect(links.failures, linkReport).toEqual([]);
    expect(links.outcomes.ok, linkReport).toBeGreaterThan(20);
    expect(links.outcomes['link-ignored'], linkReport).toBeGreaterThan(20);
  }, 120_000);

  it('reads dropped pictures and host messages without a throw, hang or lost link', async () => {
    for (const [cls, cases, seen] of [
      ['png', 150, ['opened', 'no-link']],
      ['svg', 60, ['opened', 'no-link']],
      ['host', 150, ['command-next', 'error', 'ignore', 'untrusted']],
    ]) {
      const s = await fuzz({ cases, seed: 3, cls, hangMs: 30_000 });
      const report = formatStats(s);
      expect(s.hangs, report).toEqual([]);
      expect(s.failures, report).toEqual([]);
      for (const o of seen) expect(s.outcomes[o], `${o}\n${report}`).toBeGreaterThan(0);
    }
  }, 180_000);

  it('damages the timestamp of a line grown huge in one pass', () => {
    // /\d+\.\d+/ retried at each of these million digits, scanning the rest of them each time.
    const nines = '9'.repeat(1e6);
    expect(restamp(`${nines} 12.5: x 3.25`, 'nan')).toBe(`${nines} nan: x 3.25`);
    expect(restamp(`a-1 [000] 12.50: ${nines}`, '7')).toBe(`a-1 [000] 7: ${nines}`);
    expect(restamp(nines, '7')).toBe(nines);
    expect(restamp('1.', '7')).toBe('1.');
  });

  it('replays a case from its seed and index', () => {
    expect(makeCase(7, 42)).toEqual(makeCase(7, 42));
    expect(makeCase(7, 42)).not.toEqual(makeCase(7, 43));
    expect(makeCase(7, 499).kind).toBe('big');
    expect(makeCase(7, 42, 'links')).toEqual(makeCase(7, 42, 'links'));
    expect(makeCase(7, 42, 'recordings').kind).toBe('recording');
    expect(makeCase(7, 42, 'png')).toEqual(makeCase(7, 42, 'png'));
    expect(makeCase(7, 42, 'host').origin).toBe(makeCase(7, 42, 'host').origin);
    expect([0, 1, 2, 3, 4, 5].map((i) => makeCase(7, i, 'all').kind)).toEqual([
      makeCase(7, 0).kind,
      'recording',
      'link',
      'png',
      'svg',
      'host',
    ]);
  });
});
