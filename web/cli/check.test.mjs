// tlbscope check through the real CLI and WASM build: verdicts, exit codes, JSON shape.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.mjs';

const cli = (...args) => spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8' });

describe('tlbscope check', () => {
  it('parses a scenario or a race, not both', () => {
    expect(parseArgs(['check', 'x', '--max-steps', '20'])).toMatchObject({
      command: 'check',
      scenario: 'x',
      maxSteps: 20,
      format: 'text',
    });
    expect(parseArgs(['check', '--race', 'R1']).race).toBe('R1');
    expect(() => parseArgs(['check', 'x', '--race', 'R1'])).toThrow(/not both/);
    expect(() => parseArgs(['check'])).toThrow(/needs a scenario/);
    expect(() => parseArgs(['run', 'x', '--race', 'R1'])).toThrow(/does not apply/);
  });

  it('finds the shortest counterexample of R6 and exits 1, and proves the fix and exits 0', () => {
    const bad = cli('check', 'x86-r6-lazy-freed-tables', '--format', 'json');
    expect(bad.status).toBe(1);
    const r = JSON.parse(bad.stdout);
    expect(r.verdict).toBe('violated');
    expect(r.counterexample.invariant).toBe('I4');
    expect(r.counterexample.steps).toHaveLength(r.counterexample.violation_step);
    expect(r.counterexample.narration).toMatch(/^I4 breaks at step \d+/);
    const good = cli('check', 'x86-r6-lazy-freed-tables', '--set', 'lazy_freed_tables=ipi');
    expect(good.status).toBe(0);
    expect(good.stdout).toMatch(/^holds in every interleaving \(\d+ states/);
  });

  it('checks a race faulty and fixed and prints both verdicts with state counts', () => {
    const out = cli('check', '--race', 'r16', '--format', 'json');
    expect(out.status).toBe(0);
    const r = JSON.parse(out.stdout);
    expect(r.race).toBe('R16');
    expect(r.runs.map((x) => [x.design, x.settings, x.verdict])).toEqual([
      ['faulty', [], 'violated'],
      ['fixed', ['dsb_before_dec=on'], 'holds'],
      ['fixed', ['broadcast_skip=off'], 'holds'],
    ]);
    for (const x of r.runs) expect(x.states).toBeGreaterThan(10);
  });

  it('prints R7 as the missing barrier violating with its counterexample and the kernel holding', () => {
    const out = cli('check', '--race', 'R7');
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(
      /faulty \(switch_mm_barrier=none\) \[as expected\]:\nVIOLATED: I3 in (\d+) steps \((\d+) states/,
    );
    expect(out.stdout).toMatch(/CPU 1's switch_mm's buffered stores .* become visible/);
    // Each id points at its explanation in the model's documentation.
    expect(out.stdout).toMatch(/^R7: .*; docs\/model\.md#r7\)$/m);
    expect(out.stdout).toMatch(/^VIOLATED: I3 in .*; I3: docs\/model\.md#i3$/m);
    expect(out.stdout).toMatch(
      /fixed \(switch_mm_barrier=full\) \[as expected\]:\nholds in every interleaving \(\d+ states/,
    );
  });

  it('exits 4 at a bound and 2 on bad input, naming what is wrong', () => {
    const cut = cli(
      'check',
      'x86-r6-lazy-freed-tables',
      '--set',
      'lazy_freed_tables=ipi',
      '--max-states',
      '50',
    );
    expect(cut.status).toBe(4);
    expect(cut.stdout).toMatch(/bound reached: states \(50 states/);
    const bad = cli('check', 'x86-r6-lazy-freed-tables', '--set', 'flush_info=bogus');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /x86-r6-lazy-freed-tables\.toml: --set design\.flush_info: unknown value `bogus`/,
    );
    const race = cli('check', '--race', 'R99');
    expect(race.status).toBe(2);
    expect(race.stderr).toMatch(
      /--race R99: the checker answers R1, R2, R6, R7, R8, R11, R12, R13, R15, R16/,
    );
    const r9 = cli('check', '--race', 'r9');
    expect(r9.status).toBe(2);
    expect(r9.stderr).toMatch(
      /--race r9: R9 is not checked: a lazy CPU's catch-up .*\. The checker answers R1,/,
    );
  });

  it('--reduce none and por give the same proof, por firing fewer transitions', () => {
    expect(parseArgs(['check', 'x', '--reduce', 'none']).reduce).toBe('none');
    expect(() => parseArgs(['check', 'x', '--reduce', 'fast'])).toThrow(
      /--reduce fast: expected none, por, sym or all/,
    );
    const run = (/** @type {string} */ reduce) => {
      const out = cli(
        'check',
        'x86-r6-lazy-freed-tables',
        '--set',
        'lazy_freed_tables=ipi',
        '--reduce',
        reduce,
        '--format',
        'json',
      );
      return JSON.parse(out.stdout);
    };
    const [none, por] = [run('none'), run('por')];
    expect([none.reductions, por.reductions]).toEqual(['none', 'por']);
    expect([none.verdict, por.verdict]).toEqual(['holds', 'holds']);
    expect(por.states).toBe(none.states);
    expect(por.transitions).toBeLessThan(none.transitions);
    expect(run('all').reductions).toBe('por');
  });

  it('merges interchangeable CPUs with --reduce all and says which', () => {
    const run = (/** @type {string} */ reduce) =>
      cli('check', 'x86-check-bystanders', '--set', 'switch_mm_barrier=none', '--reduce', reduce);
    const por = run('por');
    const all = run('all');
    expect(por.status).toBe(1);
    expect(all.status).toBe(1);
    expect(all.stdout).toMatch(/reductions: por\+sym \(CPUs 2=3\)/);
    expect(por.stdout).toMatch(/reductions: por\)/);
    const count = (/** @type {string} */ out) => {
      const m = /VIOLATED: I3 in (\d+) steps \((\d+) states/.exec(out);
      return m ? [Number(m[1]), Number(m[2])] : [];
    };
    const [[stepsPor, statesPor], [stepsAll, statesAll]] = [count(por.stdout), count(all.stdout)];
    expect(stepsAll).toBe(stepsPor);
    expect(statesAll).toBeLessThan(statesPor);
  });
});
