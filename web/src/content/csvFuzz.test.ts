// Generated hostile CSV input (random bytes, random cells, quotes, delimiters, huge numbers,
// NULs): decoding, parsing and validation never throw, and every result is either a named
// refusal or a table whose issues are all located.
import { describe, expect, it } from 'vitest';
import { decodeCsv, describeIssue, isLoadError, parseCsvText } from './csv';
import { suggestMapping, toMeasurements } from './datasets';

const HEADER = 'arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source';
const PIECES = [
  'x86',
  'arm64',
  'riscv',
  'icelake-8336c-128',
  '1',
  '-1',
  '0',
  '2.5',
  '1e309',
  '1e308',
  'NaN',
  '=SUM(A1)',
  '+1',
  '@x',
  '<script>',
  '"',
  '""',
  '"a,b"',
  ',',
  ';',
  '\t',
  '\n',
  '\r\n',
  'us',
  'ns',
  'µs',
  'flush_info=stack',
  'pcid=off;kernel=6',
  'bogus=1',
  '->',
  '',
  ' ',
  '\ufeff',
  'x'.repeat(5000),
];

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('CSV import under generated input', () => {
  it('refuses by name or locates every issue, and never throws', () => {
    const r = rng(20);
    let tables = 0;
    let refusals = 0;
    for (let i = 0; i < 400; i++) {
      let bytes: Uint8Array;
      if (i % 4 === 0) {
        bytes = new Uint8Array(Math.floor(r() * 300)).map(() => Math.floor(r() * 256));
      } else {
        const rows = [i % 3 ? HEADER : PIECES.join(',')];
        for (let k = Math.floor(r() * 20); k > 0; k--) {
          const cells = Array.from(
            { length: Math.floor(r() * 14) },
            () => PIECES[Math.floor(r() * PIECES.length)],
          );
          rows.push(cells.join(r() < 0.9 ? ',' : ';'));
        }
        bytes = new TextEncoder().encode(rows.join('\n'));
      }
      const decoded = decodeCsv(bytes);
      if ('error' in decoded) {
        expect(decoded.error.message.length).toBeGreaterThan(10);
        refusals++;
        continue;
      }
      const t = parseCsvText(decoded.text);
      if (isLoadError(t)) {
        expect(t.message.length).toBeGreaterThan(10);
        refusals++;
        continue;
      }
      tables++;
      const v = toMeasurements(t, suggestMapping(t.headers), { kind: 'imported', file: 'f' });
      for (const m of v.measurements) {
        expect(Number.isFinite(m.value)).toBe(true);
        if (m.stddev !== null) expect(Number.isFinite(m.stddev)).toBe(true);
      }
      for (const issue of v.issues) expect(describeIssue(issue).length).toBeGreaterThan(5);
      expect(v.accepted + v.excluded).toBeLessThanOrEqual(t.records);
    }
    expect(tables).toBeGreaterThan(100);
    expect(refusals).toBeGreaterThan(50);
  });
});
