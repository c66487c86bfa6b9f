// `tlbscope import` and `--format perfetto` end to end: the real CLI process on the recorded
// fixtures, on broken copies of them, and on a model run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const cli = (...args) =>
  spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const FIX = 'tests/fixtures/recordings';
const count = (text, re) => text.split('\n').filter((l) => re.test(l)).length;

// Each case spawns the CLI, which loads the TypeScript compiler: seconds on a busy machine.
describe('tlbscope import', { timeout: 60_000 }, () => {
  it.each([
    'tracefs.trace',
    'tracefs-latency.trace',
    'trace-pipe.txt',
    'trace-cmd-report.txt',
    'perf-script.txt',
  ])('prints the summary of %s with its tlb_flush and IPI send totals', (f) => {
    const text = readFileSync(join(FIX, f), 'utf8');
    const r = cli('import', join(FIX, f));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`tlb_flush events: ${count(text, /\btlb_flush:\s/)}\n`);
    expect(r.stdout).toContain(`IPI sends: ${count(text, /\bipi_send_cpu:\s/)} `);
    expect(r.stdout).toMatch(/remote IPI send\s+\d+/);
  });

  it('names unreadable lines by number and still exits 0 when something was read', () => {
    const lines = readFileSync(join(FIX, 'tracefs.trace'), 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes('ipi_send_cpu:'));
    lines[i] = lines[i].slice(0, 30);
    const dir = mkdtempSync(join(tmpdir(), 'tlbscope-'));
    writeFileSync(join(dir, 'cut.trace'), lines.join('\n'));
    const r = cli('import', join(dir, 'cut.trace'));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`problems, each at the line where it begins: 1\n  line ${i + 1}: `);
    const j = cli('import', join(dir, 'cut.trace'), '--format', 'json');
    expect(j.status).toBe(0);
    expect(JSON.parse(j.stdout).issues[0].line).toBe(i + 1);
    expect(j.stderr).toContain(`line ${i + 1}:`);
  });

  it('reports a recording appended to itself and a 10 MB line, clipped, without counting twice', () => {
    const text = readFileSync(join(FIX, 'tracefs.trace'), 'utf8');
    const lines = text.split('\n');
    const i = lines.findIndex((l) => l.includes('tlb_flush:'));
    lines.splice(i, 0, `\x1b[31m${'q'.repeat(10e6)}`);
    const dir = mkdtempSync(join(tmpdir(), 'tlbscope-'));
    writeFileSync(join(dir, 'x3.trace'), `${lines.join('\n')}\n`.repeat(3));
    const once = JSON.parse(cli('import', join(FIX, 'tracefs.trace'), '--format', 'json').stdout);
    const r = cli('import', join(dir, 'x3.trace'));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      `shootdowns (tlb_flush "remote IPI send"): ${once.summary.shootdowns},`,
    );
    const first = lines.findIndex((l, n) => n !== i && l && !l.startsWith('#'));
    expect(r.stdout).toMatch(
      new RegExp(`line ${lines.length + first + 1}: timestamp .* time goes back`),
    );
    expect(r.stdout).toContain(`line ${i + 1}: line longer than 4096 characters`);
    // Clipped and escaped: no line of the report is long, none carries the terminal escape.
    expect(Math.max(...r.stdout.split('\n').map((l) => l.length))).toBeLessThan(400);
    expect(r.stdout).not.toContain('\x1b');
    const j = cli('import', join(dir, 'x3.trace'), '--format', 'json');
    expect(j.stderr).toMatch(/time goes back/);
    expect(Math.max(...j.stderr.split('\n').map((l) => l.length))).toBeLessThan(400);
  });

  it('exits 1 with a message when nothing could be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tlbscope-'));
    writeFileSync(join(dir, 'x.csv'), 'a,b\n1,2\n');
    const r = cli('import', join(dir, 'x.csv'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/x\.csv: not a trace this importer reads.*line 1/);
    expect(cli('import', join(dir, 'missing.trace')).stderr).toMatch(/no such recording file/);
    expect(cli('import').status).toBe(2);
  });

  it('--format json carries the counts and reasons', () => {
    const r = cli('import', join(FIX, 'trace-cmd-report.txt'), '--format', 'json');
    const s = JSON.parse(r.stdout).summary;
    expect(s.format).toBe('trace-cmd report');
    expect(Object.keys(s.flushes_by_reason)).toContain('remote IPI send');
    expect(s.tlb_flush).toBeGreaterThan(0);
  });
});

describe('--format perfetto', { timeout: 60_000 }, () => {
  it('writes a recording as a Chrome trace with one slice per row', () => {
    const r = cli('import', join(FIX, 'tracefs.trace'), '--format', 'perfetto');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    const json = JSON.parse(cli('import', join(FIX, 'tracefs.trace'), '--format', 'json').stdout);
    expect(doc.traceEvents.filter((e) => e.ph === 'X').length).toBe(json.summary.trace_rows);
    expect(doc.traceEvents.some((e) => e.args?.reason === 'remote IPI send')).toBe(true);
  });

  it('writes a model run with its flows and generations', () => {
    const r = cli('run', 'x86-munmap-shootdown', '--format', 'perfetto');
    expect(r.status).toBe(0);
    const ev = JSON.parse(r.stdout).traceEvents;
    const summary = JSON.parse(cli('run', 'x86-munmap-shootdown').stdout);
    expect(ev.filter((e) => e.ph === 'X').length).toBe(summary.trace_rows);
    expect(ev.filter((e) => e.ph === 's').length).toBeGreaterThan(0);
    expect(ev.some((e) => e.args?.gen > 0)).toBe(true);
  });
});
