import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DETECT, detectSeparator, prepareCsv, THROUGHPUT_RULE } from './csvPrepare';
import { validate } from './csvFixture';

const fixture = (name: string) =>
  readFileSync(resolve(__dirname, '../../../tests/fixtures', name), 'utf8');
const origin = { kind: 'imported' as const, file: 'x.csv' };

describe('prepareCsv', () => {
  it('passes a file already in the schema through unchanged', () => {
    const text = fixture('good.csv');
    const p = prepareCsv(text);
    expect(p.text).toBe(text);
    expect(p.notes).toEqual([]);
    expect([p.format, p.separator, p.decimal, p.headerRow]).toEqual(['table', ',', '.', 1]);
  });

  it('reads a spreadsheet export: title skipped, units row used, `;` and decimal commas', () => {
    const p = prepareCsv(fixture('spreadsheet-export.csv'));
    expect([p.separator, p.decimal, p.headerRow, p.unitsRow]).toEqual([';', ',', 3, 4]);
    expect(p.skipped).toEqual([1]);
    expect(p.notes).toContain('Decimal mark: comma (0,412 is 0.412).');
    const v = validate(p.text, origin);
    expect(v.issues.filter((i) => i.severity === 'error')).toEqual([]);
    // 2,412 is 2.412 µs, not 2412 with a thousands separator; 1.234,5 is 1234.5.
    expect(v.measurements.map((m) => [m.value, m.unit])).toEqual([
      [2.412, 'us'],
      [2.395, 'us'],
      [1234.5, 'us'],
    ]);
  });

  it('lets the reader override what was detected', () => {
    const p = prepareCsv(fixture('spreadsheet-export.csv'), { ...DETECT, decimal: '.' });
    expect(p.decimal).toBe('.');
    expect(validate(p.text, origin).issues.some((i) => i.severity === 'error')).toBe(true);
    const fixed = prepareCsv(fixture('spreadsheet-export.csv'), {
      ...DETECT,
      fixed: { machine: 'my-box' },
    });
    expect(validate(fixed.text, origin).measurements.every((m) => m.machine === 'my-box')).toBe(
      true,
    );
    expect(fixed.notes).toContain('machine = “my-box” for every row.');
  });

  it('reads will-it-scale output as latency per operation with the stated rule', () => {
    const p = prepareCsv(fixture('will-it-scale.csv'), {
      ...DETECT,
      fixed: { machine: 'icelake-8336c-128', benchmark: 'page_fault1' },
    });
    expect(p.format).toBe('will-it-scale');
    expect(p.notes.join(' ')).toContain(THROUGHPUT_RULE);
    const ms = validate(p.text, origin).measurements;
    expect(ms).toHaveLength(6);
    const twoThreads = ms.find((m) => m.variant === 'threads=2;processes=off')!;
    // 2 threads / 2,870,112 ops/s = 696.8 ns per operation.
    expect(twoThreads.value).toBeCloseTo((2 / 2_870_112) * 1e9, 1);
    expect([twoThreads.unit, twoThreads.machine, twoThreads.benchmark]).toEqual([
      'ns',
      'icelake-8336c-128',
      'page_fault1',
    ]);
  });

  it('reads a threads,ops_per_sec table without a mapping', () => {
    const p = prepareCsv('threads,ops_per_sec\n1,1000000\n4,2000000\n');
    expect(p.format).toBe('will-it-scale');
    const ms = validate(p.text, origin).measurements;
    expect(ms.map((m) => [m.variant, m.value])).toEqual([
      ['threads=1', 1000],
      ['threads=4', 2000],
    ]);
  });

  it('recognises `perf stat -x,` output: comments skipped, <not counted> left out', () => {
    const p = prepareCsv(fixture('perf-stat.csv'));
    expect(p.format).toBe('perf-stat');
    expect(p.notes.join(' ')).toContain('Not counted, so left out: tlb:tlb_flush (<not counted>)');
    const ms = validate(p.text, origin).measurements;
    expect(ms.map((m) => [m.metric, m.value, m.unit])).toEqual([
      ['task-clock', 1523.41, 'ms'],
      ['dTLB-load-misses', 48213, 'count'],
      ['tlb_flush_remote', 3120, 'count'],
    ]);
  });

  it('converts an ops/s unit column with its threads column', () => {
    const p = prepareCsv(
      'machine,benchmark,variant,metric,value,unit,threads\nm,b,v=1,op_latency,500000,ops/s,2\n',
    );
    const [m] = validate(p.text, origin).measurements;
    expect([m.value, m.unit]).toEqual([4000, 'ns']);
    expect(p.notes.join(' ')).toContain('threads from the “threads” column');
  });

  it('picks `;` over the commas of decimal numbers', () => {
    expect(detectSeparator(['a;b;c', '0,5;1,25;2', '0,7;1;3'])).toBe(';');
    expect(detectSeparator(['a,b,c', '1,2,3'])).toBe(',');
  });
});
