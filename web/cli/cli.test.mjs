import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from './args.mjs';
import { COLUMNS, csvCell, toCsv, toRows } from './csv.mjs';
import { expandSweep } from './run.mjs';

const cli = (...args) => spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8' });

describe('parseArgs', () => {
  it('collects repeated --set and --vary options', () => {
    const a = parseArgs(['sweep', 'x', '--vary', 'cpus=4,8', '--set', 'pcid=off', '--seed', '7']);
    expect(a).toMatchObject({
      command: 'sweep',
      scenario: 'x',
      seed: 7,
      format: 'csv',
      set: ['pcid=off'],
    });
    expect(a.vary).toEqual([{ key: 'cpus', values: ['4', '8'] }]);
  });

  it('names the argument that is wrong', () => {
    expect(() => parseArgs(['run', 'x', '--format', 'xml'])).toThrow(/--format xml/);
    expect(() => parseArgs(['run', 'x', '--set', 'cpus'])).toThrow(
      /--set cpus: expected key=value/,
    );
    expect(() => parseArgs(['frobnicate'])).toThrow(UsageError);
    expect(() => parseArgs(['sweep', 'x'])).toThrow(/--vary/);
  });
});

describe('expandSweep', () => {
  it('runs every combination in a stable order', () => {
    const combos = expandSweep([
      { key: 'a', values: ['1', '2'] },
      { key: 'b', values: ['x', 'y'] },
    ]);
    expect(combos).toEqual([
      ['a=1', 'b=x'],
      ['a=1', 'b=y'],
      ['a=2', 'b=x'],
      ['a=2', 'b=y'],
    ]);
  });
});

describe('csv output', () => {
  it('writes the dataset schema with stats expanded and model provenance', () => {
    const rows = toRows('s', {
      overrides: ['flush_info=stack'],
      cpus: 4,
      arch: 'x86',
      summary: {
        ipis: 3,
        flush_latency_ns: { count: 1, mean: 10, p50: 10, p99: 10, max: 10 },
        violations: [],
      },
    });
    const csv = toCsv(rows).trim().split('\n');
    expect(csv[0]).toBe(COLUMNS.join(','));
    expect(csv).toContain('x86,,4,s,flush_info=stack,flush_latency,10,ns,,1,tlbscope-model');
    expect(csv).toContain('x86,,4,s,flush_info=stack,flush_latency_p99,10,ns,,1,tlbscope-model');
    expect(csv).toContain('x86,,4,s,flush_info=stack,ipis,3,count,,1,tlbscope-model');
  });
});

describe('csv cells', () => {
  it('keep text that a spreadsheet would run as a formula as text', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+cmd')).toBe("'+cmd");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
  });

  it('leave numbers, negative ones included, and ordinary text alone', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('-1.5e3')).toBe('-1.5e3');
    expect(csvCell('+7')).toBe('+7');
    expect(csvCell('cpus=4')).toBe('cpus=4');
    expect(csvCell('a;b')).toBe('"a;b"');
  });

  it('are neutralised in a sweep whose variant or scenario name starts with =', () => {
    const rows = toRows('=cmd', { overrides: ['title==1+1'], cpus: 4, summary: { ipis: 3 } });
    const line = toCsv(rows).trim().split('\n')[1];
    expect(line.split(',')[3]).toBe("'=cmd");
  });
});

describe('the tlbscope command on the real WASM build', () => {
  it('prints the run summary as JSON', () => {
    const out = JSON.parse(
      execFileSync('node', ['web/cli/tlbscope.mjs', 'run', 'x86-munmap-shootdown'], {
        encoding: 'utf8',
      }),
    );
    expect(out.ipis).toBe(3);
    expect(out.violations).toEqual([]);
    expect(out.flush_latency_ns.count).toBe(1);
  });

  it('reports a bad setting with the field and exits non-zero', () => {
    const r = cli('run', 'x86-munmap-shootdown', '--set', 'flush_info=heap');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/design\.flush_info: unknown value `heap`/);
  });

  it('lists the scenarios with their architecture', () => {
    const r = cli('list');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^x86-munmap-shootdown\s+x86\s+What a TLB shootdown is/m);
  });

  it('sweeps into one CSV row set per combination', () => {
    const r = cli('sweep', 'x86-munmap-shootdown', '--vary', 'cpus=4,8');
    const ipis = r.stdout.split('\n').filter((l) => l.includes(',ipis,'));
    expect(ipis).toHaveLength(2);
    expect(ipis[0]).toContain('cpus=4');
    expect(ipis[1]).toContain('cpus=8');
  });
});

describe('the dataset schema', () => {
  it('is the same header in the CLI and in the web importer', async () => {
    const { SCHEMA } = await import('../src/content/datasets');
    expect(COLUMNS).toEqual([...SCHEMA]);
  });
});

describe('tlbscope settings', () => {
  it("lists every setting and cost parameter the simulator declares, with the simulator's bounds", () => {
    const json = cli('settings', '--format', 'json');
    expect(json.status).toBe(0);
    const vocab = JSON.parse(json.stdout);
    const text = cli('settings');
    expect(text.status).toBe(0);
    const entry = (key) => text.stdout.split('\n').find((l) => l.startsWith(`  ${key}  [`));
    for (const s of vocab.settings) {
      expect(entry(s.key), s.key).toContain(`[${s.path}]`);
      if (s.choices) expect(entry(s.key)).toContain(s.choices.join('|'));
      if (s.type === 'int' && s.max !== null && !s.maxOf) {
        expect(entry(s.key)).toContain(`${s.min}..${s.max}`);
      }
    }
    for (const c of vocab.costs) expect(text.stdout).toContain(`  costs.${c.name}  (${c.unit})`);
    expect(vocab.settings.length).toBeGreaterThan(30);
  });

  it('takes no file', () => {
    const r = cli('settings', 'x86-munmap-shootdown');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unexpected argument `x86-munmap-shootdown`');
  });
});
