// Packed columns must read back exactly what was packed, in the column's own type, for any
// slice; a column that does not fit 32 bits (fractions, big values, -0) is kept as it is.
import { describe, expect, it } from 'vitest';
import { packColumn, packColumns, readPacked } from './packedColumns';
import { noColumns } from '../trace/trace';

const same = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  expect(Array.from(a).map(String)).toEqual(Array.from(b).map(String));

describe('packed columns', () => {
  it('keeps one value for a constant column and reads any slice of it', () => {
    const c = packColumn(new Uint16Array(1000).fill(7));
    expect(c.form).toBe('constant');
    const part = readPacked(c, 10, 20);
    expect(part).toBeInstanceOf(Uint16Array);
    same(part, new Uint16Array(10).fill(7));
    expect(readPacked(c, 990, 1200).length).toBe(10);
  });

  it('stores whole-number floats in 32 bits, NaN included, and reads them back as floats', () => {
    const a = Float64Array.from([0, -1, 5, NaN, 2 ** 31 - 1, -(2 ** 31 - 1), 12, NaN]);
    const c = packColumn(a);
    expect(c.form).toBe('int32');
    for (const [lo, hi] of [
      [0, 8],
      [3, 4],
      [2, 7],
    ]) {
      const part = readPacked(c, lo, hi);
      expect(part).toBeInstanceOf(Float64Array);
      same(part, a.subarray(lo, hi));
    }
  });

  it('keeps as they are columns with fractions, values past 32 bits, or -0', () => {
    for (const a of [
      Float64Array.from([1, 2.5, 3]),
      Float64Array.from([1, 2 ** 31, 3]),
      Float64Array.from([1, -(2 ** 31), 3]),
      Float64Array.from([1, -0, 3]),
    ]) {
      const c = packColumn(a);
      expect(c.form).toBe('raw');
      same(readPacked(c, 0, 3), a);
    }
    // A column of only NaN is not "constant" (NaN is not equal to itself) but still exact.
    same(readPacked(packColumn(Float64Array.from([NaN, NaN])), 0, 2), [NaN, NaN]);
  });

  it('a packed trace reads back every column and holds fewer bytes', () => {
    const cols = noColumns();
    const n = 5000;
    const time = Float64Array.from({ length: n }, (_, i) => i * 1000.5);
    const full = {
      ...cols,
      time,
      dur: Float64Array.from({ length: n }, (_, i) => i % 97),
      cpu: Uint16Array.from({ length: n }, (_, i) => i % 8),
      kind: Uint8Array.from({ length: n }, (_, i) => i % 5),
      mm: new Uint16Array(n),
      asid: new Uint16Array(n),
      gen: new Uint32Array(n),
      addr: new Float64Array(n),
      arg: Float64Array.from({ length: n }, (_, i) => (i % 3 ? i : -1)),
      parent: Int32Array.from({ length: n }, (_, i) => i - 1),
    };
    const p = packColumns(full);
    const raw = Object.values(full).reduce((s, c) => s + c.byteLength, 0);
    expect(p.bytes).toBeLessThan(raw * 0.75);
    for (const name of Object.keys(full) as (keyof typeof full)[]) {
      const got = p.source.read(name, 1234, 4321);
      expect(got.constructor).toBe(full[name].constructor);
      same(got, full[name].subarray(1234, 4321));
    }
  });
});
