// `tlbscope fit` reads files as the page's import reads them: the text-import fixtures the page's
// tests load (a spreadsheet export, will-it-scale's table, `perf stat -x,`) give the same rows,
// values and units through the CLI's reader as through the page's import pipeline.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importOptions, readMappedCsv } from './mappedCsv.mjs';
import { parseCsvText } from '../src/content/csv';
import { DETECT, prepareCsv } from '../src/content/csvPrepare';
import { datasetToCsv } from '../src/content/csvExport';
import { suggestMapping, toMeasurements } from '../src/content/datasets';

const cli = (...args) => spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8' });
const fixture = (name) => `tests/fixtures/${name}`;

/** What the page's import worker does with a file and its text-import options. */
function pageRows(text, options) {
  const table = parseCsvText(prepareCsv(text, options).text);
  const { measurements } = toMeasurements(table, suggestMapping(table.headers), {
    kind: 'imported',
    file: 'x.csv',
  });
  return measurements.map((m) => [
    m.rows[0],
    m.machine,
    m.benchmark,
    m.variant,
    m.metric,
    m.value,
    m.unit,
  ]);
}

const cliRows = (rows) =>
  rows.map((r) => [r.line, r.machine, r.benchmark, r.variant, r.metric, r.value, r.unit]);

describe('the CLI reads the text-import fixtures as the page does', () => {
  it.each([
    ['spreadsheet-export.csv', [], 3],
    ['will-it-scale.csv', ['machine=icelake-8336c-128', 'benchmark=page_fault1'], 6],
    ['perf-stat.csv', ['machine=my-vm'], 3],
  ])('%s with --fix %j: the same %i rows', (name, fix, n) => {
    const text = readFileSync(fixture(name), 'utf8');
    const options = importOptions({ fix }, name);
    const cli = cliRows(readMappedCsv(text, name, {}, options));
    expect(cli).toHaveLength(n);
    expect(cli).toEqual(pageRows(text, options));
  });

  it('reads decimal commas, fixed values and throughput as the page shows them', () => {
    const sheet = readMappedCsv(readFileSync(fixture('spreadsheet-export.csv'), 'utf8'));
    expect(sheet.map((r) => `${r.value} ${r.unit}`)).toEqual(['2.412 us', '2.395 us', '1234.5 us']);
    const wis = readMappedCsv(
      readFileSync(fixture('will-it-scale.csv'), 'utf8'),
      'wis.csv',
      {},
      importOptions({ fix: ['machine=icelake-8336c-128'] }, 'wis.csv'),
    );
    // 2 threads at 2,870,112 ops/s: 696.837 ns an operation, as the page's table says.
    const two = wis.find((r) => r.variant === 'threads=2;processes=off');
    expect([two?.machine, two?.value, two?.unit]).toEqual(['icelake-8336c-128', 696.837, 'ns']);
    const perf = readMappedCsv(readFileSync(fixture('perf-stat.csv'), 'utf8'), 'perf.csv');
    expect(perf.map((r) => `${r.metric} ${r.value} ${r.unit}`)).toEqual([
      'task-clock 1523.41 ms',
      'dTLB-load-misses 48213 count',
      'tlb_flush_remote 3120 count',
    ]);
  });

  it('forced options read the file otherwise, as the page’s fields do', () => {
    const text = readFileSync(fixture('spreadsheet-export.csv'), 'utf8');
    // With a decimal point, 2,412 is not a number: the CLI refuses the row and names it.
    expect(() =>
      readMappedCsv(text, 'sheet.csv', {}, importOptions({ decimal: '.' }, 'sheet.csv')),
    ).toThrow(/sheet\.csv:2: column `value`: `2,412` is not a number/);
    expect(() => importOptions({ fix: ['cpus=4'] }, 'a.csv')).toThrow(
      /a\.csv: --fix cpus=4: expected <column>=<value> with a column of machine, benchmark/,
    );
    expect(() => importOptions({ separator: '|' }, 'a.csv')).toThrow(/--separator \|/);
  });

  it('reads a kept dataset’s export as the page kept it, without flags', () => {
    const name = 'spreadsheet-export.csv';
    const text = readFileSync(fixture(name), 'utf8');
    const prepared = prepareCsv(text);
    const table = parseCsvText(prepared.text);
    const { measurements } = toMeasurements(table, suggestMapping(table.headers), {
      kind: 'imported',
      file: name,
    });
    const exported = datasetToCsv({
      file: name,
      measurements,
      imported: { options: DETECT, notes: prepared.notes, mapping: {} },
    });
    const rows = readMappedCsv(exported, 'export.csv');
    expect(rows.map((r) => [r.machine, r.variant, r.value, r.unit])).toEqual(
      measurements.map((m) => [m.machine, m.variant, m.value, m.unit]),
    );
  });

  it('fits the spreadsheet export from the command line, lines and values as the page shows', () => {
    const r = cli('fit', fixture('spreadsheet-export.csv'), '--max-runs', '20');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /line 2\s+madvise-touch flush_info=stack op_latency: measured 2\.4120 us/,
    );
    const forced = cli('fit', fixture('spreadsheet-export.csv'), '--decimal', '.');
    expect(forced.status).toBe(1);
    expect(forced.stderr).toContain('`2,412` is not a number');
    const wis = cli(
      'fit',
      fixture('will-it-scale.csv'),
      '--fix',
      'machine=icelake-8336c-128',
      '--fix',
      'benchmark=page_fault1',
    );
    // Read (six rows named), but page_fault1 is no benchmark the simulator models.
    expect(wis.status).toBe(1);
    expect(wis.stderr).toMatch(/line 7: .*page_fault1/);
    // Its variants are the kit's words: fixed to the kit's benchmark, the table fits as it is.
    const kit = cli(
      'fit',
      fixture('will-it-scale.csv'),
      '--fix',
      'machine=icelake-8336c-128',
      '--fix',
      'benchmark=wis-tlb-flush1',
      '--max-runs',
      '20',
    );
    expect(kit.status, kit.stderr).toBe(0);
    expect(kit.stdout).toMatch(
      /line 5\s+wis-tlb-flush1 threads=2;processes=off op_latency: measured 0\.6968 us/,
    );
  }, 60_000);
});
