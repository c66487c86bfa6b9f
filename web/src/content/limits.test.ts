// Hostile CSVs (issue 20): every limit names itself and what was kept; numbers are finite;
// encodings are named; implausible values are warned about, not silently accepted.
import { HEADER, table, validate as validateCsv } from './csvFixture';
import { describe, expect, it } from 'vitest';
import {
  decodeCsv,
  describeIssue,
  isLoadError,
  MAX_CELL_CHARS,
  MAX_COLUMNS,
  MAX_RECORDS,
  parseCsvText,
} from './csv';
import { MAX_MEASUREMENTS, suggestMapping, toMeasurements, unknownVariantKeys } from './datasets';

const ROW = 'x86,icelake-8336c-128,1,madvise-touch,flush_info=stack,op_latency,2.5,us,0.1,5,lab';
const origin = { kind: 'imported' as const, file: 't.csv' };
const enc = (s: string) => new TextEncoder().encode(s);

const validate = (text: string) => validateCsv(text, origin);
const messages = (text: string) => validate(text).issues.map(describeIssue);

describe('limits', () => {
  it('reads only the first columns of a very wide file and says so', () => {
    const wide = `${HEADER},${Array.from({ length: 100_000 }, (_, i) => `x${i}`).join(',')}`;
    const t = table(`${wide}\n${ROW}${',0'.repeat(100_000)}\n`);
    expect(t.headers).toHaveLength(MAX_COLUMNS);
    expect(t.issues.map(describeIssue)).toContain(
      `the file has 100,011 columns; only the first ${MAX_COLUMNS} (the column limit) were read`,
    );
    expect(toMeasurements(t, suggestMapping(t.headers), origin).accepted).toBe(1);
  });

  it('reads at most MAX_RECORDS rows and names the row it stopped at', () => {
    const t = table(`a,b\n${'1,2\n'.repeat(MAX_RECORDS + 10)}`);
    expect(t.records).toBe(MAX_RECORDS);
    expect(t.issues.map(describeIssue)[0]).toMatch(
      /more than 1,000,000 data rows \(the row limit\); the first 1,000,000 were read, from row 1,000,002 on nothing was/,
    );
  });

  it('excludes a row whose cell is over the cell limit, naming row and column', () => {
    const long = 'x'.repeat(100_000);
    const v = validate(`${HEADER}\n${ROW.replace('lab', long)}\n${ROW}\n`);
    expect(v.accepted).toBe(1);
    expect(v.issues.map(describeIssue)[0]).toMatch(
      new RegExp(
        `row 2, column source: .*100,000 characters long, over the ${MAX_CELL_CHARS.toLocaleString('en-US')}-character cell limit`,
      ),
    );
  });

  it('counts the measurements beyond the limit as truncated', () => {
    const rows = Array.from({ length: MAX_MEASUREMENTS + 5 }, (_, i) =>
      ROW.replace('flush_info=stack', `flush_info=stack;kernel=v${i}`),
    );
    const v = validate(`${HEADER}\n${rows.join('\n')}\n`);
    expect(v.measurements).toHaveLength(MAX_MEASUREMENTS);
    expect(v.truncated).toBe(5);
  });
});

describe('numbers', () => {
  it('rejects 1e309 (Infinity) and out-of-range values with the cell', () => {
    expect(messages(`${HEADER}\n${ROW.replace('2.5', '1e309')}\n`)).toEqual([
      'row 2, column value: `1e309` is too large to be a finite number',
    ]);
    expect(messages(`${HEADER}\n${ROW.replace('2.5', '1e308').replace('0.1', '1e308')}\n`)).toEqual(
      [
        'row 2, column value: `1e308` is out of range (numbers up to 1e+15 in size)',
        'row 2, column stddev: `1e308` is out of range (numbers up to 1e+15 in size)',
      ],
    );
  });

  it('warns about a negative latency and a stddev larger than the value, keeping the row', () => {
    const v = validate(`${HEADER}\n${ROW.replace('2.5', '-2.5')}\n${ROW.replace('0.1', '9')}\n`);
    expect(v.accepted).toBe(2);
    expect(v.issues.map(describeIssue)).toEqual([
      'row 2, column value: `-2.5` is a negative us latency; kept, but check it',
      'row 3, column stddev: `9` is larger than the value (2.5); kept, but the runs vary more than the mean',
    ]);
  });
});

describe('unknown values', () => {
  it('warns about an architecture the model does not have', () => {
    expect(messages(`${HEADER}\n${ROW.replace('x86', 'riscv')}\n`)).toEqual([
      'row 2, column arch: `riscv` is not an architecture the model has (x86, arm64); kept, not predicted',
    ]);
  });

  it('warns about variant keys that are not settings of the model', () => {
    expect(unknownVariantKeys('flush_info=stack;pcid=off;kernel=6.8')).toEqual([]);
    expect(unknownVariantKeys('flush_inf=stack;costs.ipi_delivery_ns=3')).toEqual(['flush_inf']);
    expect(messages(`${HEADER}\n${ROW.replace('flush_info=stack', 'turbo=on')}\n`)).toEqual([
      'row 2, column variant: uses `turbo`, not a setting of the model; kept, not predicted',
    ]);
  });

  it('says a header-only file has no data rows', () => {
    const t = parseCsvText(`${HEADER}\n`);
    expect(isLoadError(t) && t.kind).toBe('empty');
    expect(isLoadError(t) && t.message).toBe(
      'Only a header: the file names 11 columns (arch, machine, cpus, benchmark, variant, metric, …) but has no data rows.',
    );
  });
});

describe('encodings', () => {
  const utf16 = (s: string, be: boolean, bom: boolean) => {
    const out: number[] = bom ? (be ? [0xfe, 0xff] : [0xff, 0xfe]) : [];
    for (const ch of s) {
      const c = ch.charCodeAt(0);
      out.push(...(be ? [c >> 8, c & 255] : [c & 255, c >> 8]));
    }
    return new Uint8Array(out);
  };

  it('converts UTF-16 (with or without a byte-order mark) and names it', () => {
    for (const [be, bom] of [
      [false, true],
      [true, true],
      [false, false],
    ]) {
      const r = decodeCsv(utf16(`${HEADER}\n${ROW}\n`, be, bom));
      expect('text' in r && r.text.replace(/^\uFEFF/, '')).toBe(`${HEADER}\n${ROW}\n`);
      expect('note' in r && r.note).toBe(
        `the file is UTF-16 ${be ? 'BE' : 'LE'} (not UTF-8); it was converted to UTF-8 to read`,
      );
    }
  });

  it('names Latin-1 when refusing it', () => {
    const bytes = new Uint8Array([
      ...enc(`${HEADER}\nx86,m,1,b,v,op,2.5,`),
      0xb5,
      ...enc('s,,,\n'),
    ]);
    const r = decodeCsv(bytes);
    expect('error' in r && r.error.message).toMatch(
      /^Wrong encoding: the file looks like Latin-1 \(ISO-8859-1 or Windows-1252\), not UTF-8 \(byte 0xb5 at byte \d+, row 2\)/,
    );
  });
});
