import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { parseDataset } from './datasets';
import { DATASET_COLUMNS, escapeCell, measurementsToCsv, toCsv } from './csvExport';

describe('escapeCell', () => {
  it('makes cells a spreadsheet would run as a formula inert text', () => {
    expect(escapeCell('=cmd|calc')).toBe("'=cmd|calc");
    expect(escapeCell('+1+1')).toBe("'+1+1");
    expect(escapeCell('-2+3')).toBe("'-2+3");
    expect(escapeCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(escapeCell('\t=1')).toBe("'\t=1");
    expect(escapeCell('\r=1')).toBe(`"'\r=1"`);
    expect(escapeCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it('leaves numbers and ordinary text alone, quoting only what CSV needs quoted', () => {
    expect(escapeCell('-1.5')).toBe('-1.5');
    expect(escapeCell('+2e-3')).toBe('+2e-3');
    expect(escapeCell('2.61')).toBe('2.61');
    expect(escapeCell('flush_info=percpu')).toBe('flush_info=percpu');
    expect(escapeCell('a,b')).toBe('"a,b"');
    expect(escapeCell('say "hi"')).toBe('"say ""hi"""');
    expect(escapeCell('')).toBe('');
  });

  it('writes rows with CRLF line ends', () => {
    expect(toCsv(['a', 'b'], [['1', '=x']])).toBe("a,b\r\n1,'=x\r\n");
  });
});

describe('measurementsToCsv', () => {
  const text = readFileSync(resolve('tests/fixtures/formula-injection.csv'), 'utf8');
  const imported = parseDataset('formula-injection.csv', text, 'imported');

  it('writes the dataset schema, with no cell left that a spreadsheet would evaluate', () => {
    const csv = measurementsToCsv(imported.measurements);
    const rows = Papa.parse<string[]>(csv.trim()).data;
    expect(rows[0]).toEqual([...DATASET_COLUMNS]);
    expect(rows).toHaveLength(1 + imported.measurements.length);
    for (const row of rows.slice(1))
      for (const c of row) expect(/^[=+@\t\r]/.test(c) || /^-[^\d.]/.test(c), c).toBe(false);
    expect(rows[1][DATASET_COLUMNS.indexOf('machine')]).toBe("'=cmd|' /C calc'!A0");
    expect(rows[1][DATASET_COLUMNS.indexOf('source')]).toBe("'@SUM(1+1)");
    expect(rows[1][DATASET_COLUMNS.indexOf('value')]).toBe('2.61');
  });

  it('reads back as the same numbers when imported again', () => {
    const again = parseDataset('again.csv', measurementsToCsv(imported.measurements), 'imported');
    const pick = (d: typeof imported) =>
      d.measurements.map(({ benchmark, variant, metric, value, unit, stddev, runs, cpus }) => ({
        benchmark,
        variant,
        metric,
        value,
        unit,
        stddev,
        runs,
        cpus,
      }));
    expect(pick(again)).toEqual(pick(imported));
  });
});
