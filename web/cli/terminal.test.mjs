import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeControls, quote } from './terminal.mjs';

const cli = (/** @type {string[]} */ ...args) =>
  spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8' });

describe('terminal escaping', () => {
  it('makes escape, C1, DEL and bidi characters visible and keeps tabs and newlines', () => {
    const s = escapeControls('a\u001b]0;title\u0007b\u009bc\u007fd\u202ee\u2066f\r\n\tg');
    expect(s).toBe('a\\u001b]0;title\\u0007b\\u009bc\\u007fd\\u202ee\\u2066f\\u000d\n\tg');
  });

  it('escapes newlines too in a value quoted on one line', () => {
    expect(quote('a\nb\tc')).toBe('a\\u000ab\\u0009c');
  });

  it('keeps JSON valid and equal to the original once parsed', () => {
    const text = JSON.stringify({ title: 'x\u202e\u007f\u0085y' });
    expect(JSON.parse(escapeControls(text))).toEqual({ title: 'x\u202e\u007f\u0085y' });
  });
});

// A raw escape, bell or bidi override in what the CLI printed.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW = /[\u001b\u0007\u202e]/;

describe('CLI output', () => {
  it('goes through terminal.mjs only', () => {
    const direct = /process\.(stdout|stderr)|console\./;
    const offenders = readdirSync('web/cli')
      .filter((f) => f.endsWith('.mjs') && !f.endsWith('.test.mjs') && !f.endsWith('.bundle.mjs'))
      .filter((f) => f !== 'terminal.mjs')
      .filter((f) => direct.test(readFileSync(join('web/cli', f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('never writes a file name’s escape sequences to the terminal', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tlbscope-esc-'));
    const file = join(dir, 'x\u001b]0;pwned\u0007\u001b[31m\u202e.toml');
    writeFileSync(file, 'title = "t"\n[machine]\ncpus = "four"\n');
    const r = cli('run', file);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('machine.cpus');
    expect(r.stderr).toContain('\\u001b]0;pwned\\u0007\\u001b[31m\\u202e.toml');
    expect(r.stderr).not.toMatch(RAW);
    const missing = cli('import', `${file}.absent`);
    expect(missing.stderr).toContain('no such recording file');
    expect(missing.stderr).not.toMatch(RAW);
  });
});
