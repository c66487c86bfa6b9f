import { HEADER, table } from './csvFixture';
import { describe, expect, it, vi } from 'vitest';
import {
  checkSize,
  decodeCsv,
  describeIssue,
  detectDelimiter,
  detectType,
  flagCell,
  isLoadError,
  MAX_BYTES,
  parseCsvText,
} from './csv';

const ROW =
  'x86,icelake-8336c-128,128,madvise-touch,flush_info=percpu,op_latency,2.5278,us,0.0007,5,zhou-2026-flush-tlb-info-stack';
const enc = (s: string) => new TextEncoder().encode(s);

describe('size', () => {
  it('refuses a file over 50 MB as "too big" from its size alone', () => {
    expect(checkSize(MAX_BYTES)).toBeNull();
    expect(checkSize(MAX_BYTES + 1)?.kind).toBe('too-big');
    expect(checkSize(63 * 1024 * 1024)?.message).toMatch(/Too big: the file is 63\.0 MB/);
  });

  it('checks the size before decoding a byte', () => {
    // 50 MB + 1 of invalid UTF-8 and NUL bytes: a size-first check answers "too big", not
    // "wrong encoding" or "not a CSV", and never builds a decoder.
    const bytes = new Uint8Array(MAX_BYTES + 1).fill(0xff);
    bytes[10] = 0;
    const spy = vi.spyOn(globalThis, 'TextDecoder');
    const r = decodeCsv(bytes);
    expect('error' in r && r.error.kind).toBe('too-big');
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});

describe('binary and encoding', () => {
  it('calls NUL bytes binary data, "not a CSV", with the row', () => {
    const r = decodeCsv(enc(`${HEADER}\n${ROW}\nab\0cd`));
    expect('error' in r && r.error.kind).toBe('not-csv');
    expect('error' in r && r.error.message).toMatch(/NUL byte .* row 3/);
  });

  it('recognises a spreadsheet archive by its signature', () => {
    const r = decodeCsv(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    expect('error' in r && r.error.message).toMatch(/ZIP archive.*xlsx/);
  });

  it('refuses invalid UTF-8 (Latin-1 µ) with the byte and row at fault', () => {
    const bytes = new Uint8Array([
      ...enc(`${HEADER}\nx86,m,1,b,v,op,2.5,`),
      0xb5,
      ...enc('s,,,src\n'),
    ]);
    const r = decodeCsv(bytes);
    expect('error' in r && r.error.kind).toBe('encoding');
    expect('error' in r && r.error.message).toMatch(/byte 0xb5 at byte \d+, row 2/);
  });

  it('accepts and drops a UTF-8 byte order mark', () => {
    const r = decodeCsv(new Uint8Array([0xef, 0xbb, 0xbf, ...enc(`${HEADER}\n${ROW}\n`)]));
    expect('text' in r && r.text.startsWith('arch,')).toBe(true);
    expect(table(`\ufeff${HEADER}\n${ROW}\n`).headers[0]).toBe('arch');
  });

  it('calls a file of control characters "not a CSV"', () => {
    const t = parseCsvText('a,b\n' + '\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f');
    expect(isLoadError(t) && t.kind).toBe('not-csv');
  });
});

describe('structure', () => {
  it('calls text without any delimiter in its first line "not a CSV"', () => {
    const t = parseCsvText('just some prose\nwith lines\n');
    expect(isLoadError(t) && t.kind).toBe('not-csv');
  });

  it('detects comma, semicolon and tab headers', () => {
    expect(detectDelimiter('a,b,c')).toBe(',');
    expect(detectDelimiter('a;b;c')).toBe(';');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
    expect(detectDelimiter('"a,b";c;d')).toBe(';');
    expect(detectDelimiter('abc')).toBeNull();
  });

  it('reads quoted fields with commas, doubled quotes and newlines', () => {
    const t = table('a,b,c\n"x, y","say ""hi""","two\nlines"\n3,4,5\n');
    expect(t.records).toBe(2);
    expect([t.cell(0, 0), t.cell(0, 1), t.cell(0, 2)]).toEqual(['x, y', 'say "hi"', 'two\nlines']);
    expect(t.rowOf(1)).toBe(4);
  });

  it('accepts CRLF line ends and skips blank lines', () => {
    const t = table('a,b\r\n1,2\r\n\r\n3,4\r\n');
    expect(t.records).toBe(2);
    expect(t.cell(1, 1)).toBe('4');
    expect(t.rowOf(1)).toBe(4);
  });

  it('flags malformed quoting by row and column and excludes the row', () => {
    const t = table('a,b\n1,ab"c\n"x"y,2\n5,6\n');
    expect(t.broken).toEqual(new Set([0, 1]));
    expect(t.issues.map(describeIssue)).toEqual([
      'row 2, column b: `ab"c` a quote inside an unquoted field (quote the whole field and double inner quotes)',
      'row 3, column a: `"x"y` text after a closing quote',
    ]);
  });

  it('says a never-closed quote looks truncated', () => {
    const t = table('a,b\n1,2\n3,"unfinished\n');
    expect(t.issues[0].kind).toBe('truncated');
    expect(describeIssue(t.issues[0])).toMatch(/^row 3: .*never closed .*truncated/s);
  });

  it('says a short last row without a line end looks truncated', () => {
    const t = table(`${HEADER}\n${ROW}\n${ROW.slice(0, 40)}`);
    expect(t.issues).toHaveLength(1);
    expect(t.issues[0].kind).toBe('truncated');
    expect(describeIssue(t.issues[0])).toMatch(/^row 3: the last row has 6 of 11 fields/);
    expect(t.broken.has(1)).toBe(true);
  });

  it('reports ragged rows in the middle with both field counts', () => {
    const t = table('a,b,c\n1,2\n1,2,3\n');
    expect(describeIssue(t.issues[0])).toBe('row 2: has 2 fields, the header has 3');
  });
});

describe('type detection', () => {
  it('calls a column numeric by majority with tolerance', () => {
    expect(detectType(['1', '2', '3', '', '4'])).toEqual({
      type: 'integer',
      filled: 4,
      fitting: 4,
    });
    const mostly = detectType(['1.5', '2', '3', '4', '5', '6', '7', '8', '9', 'abc']);
    expect(mostly).toEqual({ type: 'number', filled: 10, fitting: 9 });
    expect(detectType(['a', 'b', '1']).type).toBe('text');
    expect(detectType(['', ' ']).type).toBe('empty');
  });
});

describe('dangerous cells', () => {
  it('flags formula injection but not negative numbers', () => {
    for (const s of ["=cmd|' /C calc'!A0", '+SUM(A1)', '-2+3', '@SUM(1)', '\tfoo', '\rbar']) {
      expect(flagCell(s)?.kind).toBe('formula');
    }
    expect(flagCell('-1.5')).toBeNull();
    expect(flagCell('+3')).toBeNull();
    expect(flagCell('flush_info=stack')).toBeNull();
  });

  it('flags HTML and script markup', () => {
    for (const s of [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      'javascript:alert(1)',
    ]) {
      expect(flagCell(s)?.kind).toBe('html');
    }
    expect(flagCell('a < b')).toBeNull();
  });
});
