import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { combinationCount, parseArgs, UsageError } from './args.mjs';

const cli = (/** @type {string[]} */ ...args) =>
  spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8', timeout: 60_000 });

const tens = (/** @type {string} */ key) =>
  `${key}=${Array.from({ length: 10 }, (_, i) => i + 1).join(',')}`;

describe('sweep size', () => {
  it('refuses more than 1000 combinations, naming the count and the flag', () => {
    const argv = ['sweep', 'x', '--vary', tens('a'), '--vary', tens('b'), '--vary', tens('c')];
    expect(() => parseArgs([...argv, '--vary', 'd=1,2'])).toThrow(UsageError);
    expect(() => parseArgs([...argv, '--vary', 'd=1,2'])).toThrow(
      /2000 combinations, more than the 1000 .*--max-combinations 2000/,
    );
    expect(parseArgs(argv).vary).toHaveLength(3);
    const allowed = parseArgs([...argv, '--vary', 'd=1,2', '--max-combinations', '2000']);
    expect(combinationCount(allowed.vary)).toBe(2000);
    expect(() => parseArgs(['run', 'x', '--max-combinations', '5'])).toThrow(/does not apply/);
    expect(() => parseArgs(['sweep', 'x', '--vary', 'a=1', '--max-combinations', '0'])).toThrow(
      /--max-combinations 0/,
    );
  });

  it('a million combinations fail at once, before any run', () => {
    const vary = ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((k) => ['--vary', tens(k)]);
    const r = cli('sweep', 'x86-lazy-tlb', ...vary);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('1000000 combinations');
    expect(r.stdout).toBe('');
  });

  it('reports runs done, elapsed time and the estimate with --progress', () => {
    const r = cli('sweep', 'x86-lazy-tlb', '--vary', 'pcid=on,off', '--progress');
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^sweep: 1\/2 runs, [\d.]+ s elapsed, about [\d.]+ s left$/m);
    expect(r.stderr).toMatch(/^sweep: 2\/2 runs, [\d.]+ s elapsed$/m);
    expect(r.stdout.split('\n')[0]).toMatch(/^arch,machine,cpus,/);
    const quiet = cli('sweep', 'x86-lazy-tlb', '--vary', 'pcid=on,off');
    expect(quiet.stderr).toBe('');
  });
});
