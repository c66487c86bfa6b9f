import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { parseDataset, suggestMapping, toMeasurements, type Measurement } from './datasets';
import { DATASET_COLUMNS, datasetToCsv, escapeCell, measurementsToCsv, toCsv } from './csvExport';
import { DETECT, prepareCsv } from './csvPrepare';
import { table } from './csvFixture';

const origin = { kind: 'imported' as const, file: 'again.csv' };

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

describe('datasetToCsv', () => {
  // A file as a lab writes it: `;`, decimal commas, a title row, and a value column no synonym
  // finds, mapped by hand in the preview.
  const original =
    'Lab run 7;;;;\nHost;bench;config;metric;latency;Unit\nicelake-8336c-128;madvise-touch;flush_info=stack;op_latency;2,412;us\nicelake-8336c-128;madvise-touch;flush_info=percpu;op_latency;2,395;us\n';
  const options = { ...DETECT };
  const prepared = prepareCsv(original, options);
  const t = table(prepared.text);
  const mapping = { ...suggestMapping(t.headers), value: t.headers.indexOf('latency') };
  const measurements = toMeasurements(t, mapping, {
    kind: 'imported',
    file: 'lab.csv',
  }).measurements;
  const dataset = {
    file: 'lab.csv',
    measurements,
    imported: {
      options,
      notes: prepared.notes,
      mapping: { machine: 'Host', benchmark: 'bench', variant: 'config', value: 'latency' },
    },
  };
  const pick = (ms: readonly Measurement[]) =>
    ms.map(({ machine, benchmark, variant, metric, value, unit, stddev, runs, cpus, source }) => ({
      machine,
      benchmark,
      variant,
      metric,
      value,
      unit,
      stddev,
      runs,
      cpus,
      source,
    }));

  it('imports back as the same dataset, without a mapping', () => {
    expect(measurements.map((m) => m.value)).toEqual([2.412, 2.395]);
    const exported = datasetToCsv(dataset);
    const again = prepareCsv(exported, DETECT);
    expect(again.notes).toContain('Lines starting with # are comments: skipped.');
    const t2 = table(again.text);
    expect(pick(toMeasurements(t2, suggestMapping(t2.headers), origin).measurements)).toEqual(
      pick(measurements),
    );
  });

  it('says how the original was read, with the CLI flags that read it so', () => {
    const head = datasetToCsv(dataset).split('\r\n').slice(0, 3);
    expect(head[0]).toBe(
      '# tlbscope export of lab.csv: 2 measurements in the dataset schema, read back as they are by the Data view and tlbscope fit.',
    );
    expect(head[1]).toContain('Decimal mark: comma');
    expect(head[1]).toContain('value <- "latency"');
    expect(head[2]).toBe(
      '# The CLI reads lab.csv the same way: tlbscope fit <file> --map machine=Host --map benchmark=bench --map variant=config --map value=latency',
    );
  });

  it('keeps a file name with a line break to its one comment line', () => {
    const csv = datasetToCsv({ ...dataset, file: 'a\n=cmd.csv' });
    expect(csv.split('\r\n')[1]).toMatch(/^# How a =cmd\.csv was read/);
  });
});
