import { HEADER, table, validate as validateCsv } from './csvFixture';
import { describe, expect, it } from 'vitest';
import { describeIssue } from './csv';
import {
  missingColumnError,
  missingColumns,
  shippedDatasets,
  sources,
  suggestMapping,
  toMeasurements,
} from './datasets';

const origin = { kind: 'imported' as const, file: 'test.csv' };

const validate = (text: string) => validateCsv(text, origin);

describe('shipped datasets', () => {
  it('parse without a single issue and every source is described', () => {
    expect(shippedDatasets.length).toBeGreaterThanOrEqual(5);
    for (const d of shippedDatasets) {
      expect(d.issues, d.file).toEqual([]);
      for (const m of d.measurements) expect(sources[m.source], m.source).toBeDefined();
    }
  });

  it('keep the digits of the mails', () => {
    const seed0 = shippedDatasets.find((d) => d.file.startsWith('zhou-2026-flush-tlb-info-stack'))!;
    const percpu = seed0.measurements.find((m) => m.variant === 'flush_info=percpu')!;
    expect(percpu).toMatchObject({ value: 2.5278, stddev: 0.0007, runs: 5, unit: 'us', rows: [2] });
  });
});

describe('column mapping', () => {
  it('maps exact names, then synonyms, each file column once', () => {
    const m = suggestMapping(['Host', 'bench', 'config', 'metric', 'mean', 'Unit', 'SD', 'n']);
    expect(m).toMatchObject({
      machine: 0,
      benchmark: 1,
      variant: 2,
      metric: 3,
      value: 4,
      unit: 5,
      stddev: 6,
      runs: 7,
      arch: -1,
      source: -1,
    });
    expect(missingColumns(m)).toEqual([]);
  });

  it('names every missing required column', () => {
    const m = suggestMapping(['machine', 'benchmark', 'variant', 'metric', 'unit']);
    expect(missingColumns(m)).toEqual(['value']);
    expect(missingColumnError(['value'])).toMatchObject({ kind: 'missing-column' });
    expect(missingColumnError(['value']).message).toMatch(/^Missing column `value`/);
  });

  it('uses a remapped column for validation and names it in messages', () => {
    const t = table('machine,benchmark,variant,metric,avg,unit\nm,b,v,op_latency,abc,us\n');
    const v = toMeasurements(t, suggestMapping(t.headers), origin);
    expect(v.issues.map(describeIssue)).toEqual([
      'row 2, column value (avg): `abc` is not a number',
    ]);
  });
});

describe('validation', () => {
  it('locates a bad value by row, column and value', () => {
    const rows = Array.from({ length: 12 }, (_, i) => `x86,m,2,b,v${i},op_latency,${i + 1},us,,,s`);
    rows.push('x86,m,2,b,bad,op_latency,abc,us,,,s');
    const v = validate([HEADER, ...rows].join('\n') + '\n');
    expect(v.issues.map(describeIssue)).toEqual(['row 14, column value: `abc` is not a number']);
    expect(v.accepted).toBe(12);
    expect(v.excluded).toBe(1);
  });

  it('explains decimal commas, thousands separators, bad units and bad runs', () => {
    const v = validate(
      [
        'machine;benchmark;variant;metric;value;unit;runs',
        'm;b;v;op;2,5;us;5',
        'm;b;v2;op;1,000;us;5',
        'm;b;v3;op;1;furlongs;5',
        'm;b;v4;op;1;us;2.5',
      ].join('\n'),
    );
    expect(v.issues.map(describeIssue)).toEqual([
      'row 2, column value: `2,5` uses a decimal comma; write 2.5',
      'row 3, column value: `1,000` has a thousands separator',
      'row 4, column unit: `furlongs` is not a known unit (us, ns, ms, s, cycles, count, million, percent, x, per_s)',
      'row 5, column runs: `2.5` must be a whole number ≥ 1',
    ]);
  });

  it('keeps formula-injection cells as inert text and flags them', () => {
    const v = validate(`${HEADER}\nx86,=cmd|' /C calc'!A0,2,b,v,op,1,us,,,s\n`);
    expect(v.measurements[0].machine).toBe("=cmd|' /C calc'!A0");
    expect(v.issues).toHaveLength(1);
    expect(v.issues[0]).toMatchObject({
      severity: 'warning',
      kind: 'formula',
      row: 2,
      column: 'machine',
    });
  });

  it('keeps HTML/script cells as text and flags them', () => {
    const v = validate(`${HEADER}\nx86,m,2,<script>alert(1)</script>,v,op,1,us,,,s\n`);
    expect(v.measurements[0].benchmark).toBe('<script>alert(1)</script>');
    expect(v.issues[0]).toMatchObject({ kind: 'html', column: 'benchmark' });
  });

  it('turns per-run rows into mean ± sample stddev with runs = rows', () => {
    const v = validate(
      [HEADER, ...[2, 4, 4, 4, 5, 5, 7, 9].map((x) => `x86,m,2,b,v,op_latency,${x},us,,,s`)].join(
        '\n',
      ),
    );
    expect(v.measurements).toHaveLength(1);
    const m = v.measurements[0];
    expect(m).toMatchObject({ value: 5, runs: 8, aggregated: true, rows: [2, 9] });
    expect(m.stddev).toBeCloseTo(2.138, 3);
  });

  it('defaults the source to the file name, so no number is anonymous', () => {
    const v = validate('machine,benchmark,variant,metric,value,unit\nm,b,v,op,1,us\n');
    expect(v.measurements[0].source).toBe('test.csv');
  });
});
