import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDataset } from './calibrate.mjs';
import { costsFileOverrides, defaultParams, fit, selectRows, toToml } from './fit.mjs';
import { readMappedCsv } from './mappedCsv.mjs';
import { runOnce } from './run.mjs';
import { parseCsvText } from '../src/content/csv';
import { suggestMapping, toMeasurements } from '../src/content/datasets';
import { loadWasm, readScenarioArg } from './wasm.mjs';

const cli = (...args) => spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8' });
const HEADER = 'arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source';
const LOCAL = 'content/datasets/local-intel-xeon-processor-2.csv';
let wasm;

beforeAll(async () => {
  wasm = await loadWasm();
});

/** A dataset CSV whose rows are the model's own predictions with `truth` as costs. */
function synthetic(truth) {
  const lines = [HEADER];
  for (const [benchmark, scenario] of [
    ['pcid-pingpong', 'x86-pcid-pingpong-bench'],
    ['pcid-pingpong-512', 'x86-pcid-pingpong-512'],
  ]) {
    const { text, file } = readScenarioArg(scenario);
    for (const pcid of ['on', 'off']) {
      const set = Object.entries(truth).map(([k, v]) => `costs.${k}=${v}`);
      const s = runOnce(
        wasm,
        text,
        file,
        ['machine=skylake-laptop-kvm', `pcid=${pcid}`, ...set],
        1,
      );
      const us = (s.summary.op_latency_ns.mean / 1000).toFixed(6);
      lines.push(
        `x86,skylake-laptop-kvm,,${benchmark},pcid=${pcid},op_latency,${us},us,,,synthetic`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

describe('fit', () => {
  it('recovers known cost parameters from data the model generated', () => {
    const truth = { context_switch_ns: 700, full_flush_ns: 60, tlb_refill_ns: 8, tlb_hit_ps: 800 };
    const { selected } = selectRows(parseDataset(synthetic(truth), 'synthetic.csv'));
    expect(selected).toHaveLength(4);
    const r = fit(wasm, selected, { params: Object.keys(truth) });
    for (const p of r.params) {
      expect(p.start).not.toBe(truth[p.name]);
      expect(Math.abs(p.value / truth[p.name] - 1), p.name).toBeLessThan(0.02);
    }
    expect(r.rms_pct).toBeLessThan(0.05);
    expect(r.runs).toBeLessThanOrEqual(400);
    // Many simulator runs (and child processes): slow when the machine is busy.
  }, 60_000);

  it('selects the rows a scenario predicts and says why it leaves the others', () => {
    const rows = parseDataset(readFileSync(LOCAL, 'utf8'), LOCAL);
    const { selected, skipped } = selectRows(rows);
    expect(selected.map((s) => `${s.benchmark} ${s.overrides.join(';')}`)).toEqual([
      'madvise-touch busy_threads=0',
      'madvise-touch busy_threads=1',
      'pcid-pingpong ',
      'pcid-pingpong-512 ',
    ]);
    expect(skipped.every((s) => /mean of the same variant/.test(s.reason))).toBe(true);
    expect(defaultParams(selected)).toEqual([
      'page_fault_ns',
      'context_switch_ns',
      'tlb_hit_ps',
      'ipi_delivery_ns',
    ]);
    const seed = parseDataset(
      readFileSync('content/datasets/lutomirski-2017-x86-pcid.csv', 'utf8'),
    );
    const s4 = selectRows(seed, { benchmark: 'pcid-pingpong' });
    // The unpatched kernel has no PCID: content/benchmarks.json runs it as pcid=off.
    expect(s4.selected.map((s) => [s.variant, s.overrides.join(';')])).toEqual([
      ['pcid=on', 'pcid=on'],
      ['pcid=off', 'pcid=off'],
      ['pcid=before', 'pcid=off'],
    ]);
    expect(s4.selected[2].aliased).toEqual([{ from: 'pcid=before', to: 'pcid=off' }]);
    expect(s4.skipped).toEqual([]);
  });

  it('writes a costs file that --costs turns back into the same overrides', () => {
    const result = {
      preset: 'skylake-laptop-kvm',
      rms_pct: 1,
      residuals: [],
      params: [{ name: 'tlb_refill_ns', value: 7 }],
    };
    expect(costsFileOverrides(toToml(result, 'x.csv'), 'f.toml')).toEqual([
      'machine=skylake-laptop-kvm',
      'costs.tlb_refill_ns=7',
    ]);
    expect(() => costsFileOverrides('[costs]\ntlb_refill_ns = 1.5\n', 'f.toml')).toThrow(
      /f\.toml:2: costs\.tlb_refill_ns: expected a whole number/,
    );
    expect(() => costsFileOverrides('[design]\n', 'f.toml')).toThrow(/f\.toml:1: unknown table/);
  });

  it('names every flag that shaped the fit in the command its comment quotes', () => {
    const result = {
      preset: 'skylake-laptop-kvm',
      rms_pct: 1,
      residuals: [],
      params: [{ name: 'tlb_refill_ns', value: 7 }],
    };
    const flags = {
      fix: ['machine=my box', 'unit=ops/s'],
      separator: ';',
      decimal: ',',
      headerRow: 3,
      params: ['tlb_refill_ns', 'ipi_delivery_ns'],
      out: 'ignored.toml',
    };
    const first = toToml(result, 'sheet.csv', flags).split('\n')[0];
    expect(first).toContain(
      'tlbscope fit "sheet.csv" --fix "machine=my box" --fix "unit=ops/s" --separator ";" --decimal "," --header-row 3 --params "tlb_refill_ns,ipi_delivery_ns"`',
    );
    expect(toToml(result, 'x.csv').split('\n')[0]).toContain('tlbscope fit "x.csv"`');
  });

  it('writes a file name holding a newline and a table as a quoted string in its comment', () => {
    const result = {
      preset: 'skylake-laptop-kvm',
      rms_pct: 1,
      residuals: [],
      params: [{ name: 'tlb_refill_ns', value: 7 }],
    };
    const name = 'evil\n[costs]\ntlb_refill_ns = 999\n\u001b[31m"\\.csv';
    const toml = toToml(result, name);
    expect(costsFileOverrides(toml, 'f.toml')).toEqual([
      'machine=skylake-laptop-kvm',
      'costs.tlb_refill_ns=7',
    ]);
    const first = toml.split('\n')[0];
    expect(first).toContain(
      'tlbscope fit "evil\\u000a[costs]\\u000atlb_refill_ns = 999\\u000a\\u001b[31m\\"\\\\.csv"',
    );
    // eslint-disable-next-line no-control-regex -- no control character may reach the file
    expect(toml).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(toml.split('\n').filter((l) => l.startsWith('['))).toEqual(['[machine]', '[costs]']);
  });
});

describe('tlbscope fit', () => {
  it('fits the local dataset, writes the machine, and run --costs uses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tlbscope-fit-'));
    const out = join(dir, 'fitted.toml');
    const r = cli(
      'fit',
      LOCAL,
      '--benchmark',
      'pcid-pingpong-512',
      '--params',
      'tlb_hit_ps',
      '--out',
      out,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/tlb_hit_ps\s+\d+/);
    expect(r.stdout).toMatch(/line 8\s+pcid-pingpong-512 .* residual [-+]\d+\.\d\d%/);
    expect(r.stderr).toMatch(/fit: iteration 1/);
    const toml = readFileSync(out, 'utf8');
    const hit = /tlb_hit_ps = (\d+)/.exec(toml)[1];
    // The local machine is not a preset: the fit starts from the scenario's own.
    expect(toml).toMatch(/preset = "skylake-laptop-kvm"/);
    const viaFile = JSON.parse(cli('run', 'x86-pcid-pingpong-512', '--costs', out).stdout);
    const viaSet = JSON.parse(
      cli(
        'run',
        'x86-pcid-pingpong-512',
        '--set',
        'machine=skylake-laptop-kvm',
        '--set',
        `costs.tlb_hit_ps=${hit}`,
      ).stdout,
    );
    expect(viaFile.op_latency_ns).toEqual(viaSet.op_latency_ns);
    // Many simulator runs (and child processes): slow when the machine is busy.
  }, 60_000);

  it('names the file, line and column of a bad CSV', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tlbscope-fit-'));
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, `${HEADER}\nx86,m,,pcid-pingpong,pcid=on,op_latency,fast,us,,,s\n`);
    const r = cli('fit', bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bad\.csv:2: column `value`: `fast` is not a number/);
    expect(cli('fit').status).toBe(2);
  });
});

describe('tlbscope fit reads the columns the page maps', () => {
  // Other names for every column, in another order, with an extra column: what a benchmark
  // script writes and the page's import maps without help.
  const MAPPED = `Host,Workload,Config,Measure,Mean (us),Units,Std,Samples,Notes
my-vm,pcid-pingpong,pcid=on,op_latency,1.22,µs,0.01,5,first
my-vm,pcid-pingpong,pcid=off,op_latency,1.40,usec,0.01,5,second
`;

  it('maps a file the same way as the page: same rows, values and units', () => {
    const cliRows = readMappedCsv(MAPPED, 'mapped.csv');
    const table = parseCsvText(MAPPED);
    const page = toMeasurements(table, suggestMapping(table.headers), {
      kind: 'imported',
      file: 'mapped.csv',
    }).measurements;
    expect(
      cliRows.map((r) => [r.line, r.machine, r.benchmark, r.variant, r.metric, r.value, r.unit]),
    ).toEqual(
      page.map((m) => [m.rows[0], m.machine, m.benchmark, m.variant, m.metric, m.value, m.unit]),
    );
  });

  it('fits it from the command line, and --map names a column no synonym finds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tlbscope-fit-'));
    const file = join(dir, 'mapped.csv');
    writeFileSync(file, MAPPED);
    const r = cli('fit', file, '--max-runs', '40');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/line 2\s+pcid-pingpong pcid=on op_latency: measured 1\.2200 us/);
    const odd = join(dir, 'odd.csv');
    writeFileSync(odd, MAPPED.replace('Mean (us)', 'latency'));
    const refused = cli('fit', odd);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/odd\.csv:1: no column for `value`.*--map value=<header>/);
    const mapped = cli('fit', odd, '--map', 'value=latency', '--max-runs', '40');
    expect(mapped.status, mapped.stderr).toBe(0);
    expect(mapped.stdout).toMatch(
      /line 3\s+pcid-pingpong pcid=off op_latency: measured 1\.4000 us/,
    );
    // Many simulator runs (and child processes): slow when the machine is busy.
  }, 60_000);
});
