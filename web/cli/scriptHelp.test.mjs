import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usageOf } from '../scripts/scriptHelp.mjs';

const scripts = ['bench', 'web/scripts'].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.mjs') && !f.endsWith('.test.mjs') && f !== 'scriptHelp.mjs')
    .map((f) => join(dir, f)),
);

describe('bench and web/scripts scripts', () => {
  it('are all found', () => {
    expect(scripts).toContain('bench/fuzz-wasm.mjs');
    expect(scripts.length).toBeGreaterThanOrEqual(10);
  });

  it.each(scripts)('%s answers --help with its usage and does no work', (script) => {
    for (const flag of ['--help', '-h']) {
      // A script that starts its work (a 20,000-case fuzz, a browser) does not end in 15 s.
      const r = spawnSync('node', [script, flag], { encoding: 'utf8', timeout: 15_000 });
      expect(r.signal, `${script} ${flag} was still running`).toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(usageOf(readFileSync(script, 'utf8')));
      expect(r.stdout.split('\n').length).toBeGreaterThan(2);
    }
  });

  it.each(['bench/kit/run.sh', 'bench/kit/trace.sh'])(
    '%s answers --help with its usage',
    (script) => {
      for (const flag of ['--help', '-h']) {
        const r = spawnSync('bash', [script, flag], { encoding: 'utf8', timeout: 15_000 });
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toMatch(new RegExp(`^usage: bash ${script} `));
      }
    },
  );

  it('reads the usage from the leading comment only', () => {
    const text =
      '#!/usr/bin/env node\n// @ts-check\n// Does a thing.\n//\n//   node x.mjs\nconst a = 1; // not usage\n';
    expect(usageOf(text)).toBe('Does a thing.\n\n  node x.mjs\n');
  });
});
