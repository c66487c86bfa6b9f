// Columns kept in less memory than their page-side types, read back exactly: what lets a worker
// hold a ten-million-row recording under issue 19's 40 B an event. A recording leaves mm, asid,
// gen and addr at zero (one value, no array), and its durations, arguments and page counts are
// whole numbers that fit 32 bits where the trace's type is a 64-bit float. Each column is
// checked, not assumed: one that does not fit is kept as it is. Pure.
import { COLUMN_NAMES, type Columns } from '../trace/trace';
import type { RowSource } from './rowSource';

type Numeric =
  | Float64Array
  | Float32Array
  | Int32Array
  | Uint32Array
  | Int16Array
  | Uint16Array
  | Int8Array
  | Uint8Array;
type Ctor = new (n: number) => Numeric;

/** Stands for NaN in an Int32 store (NaN is what a float column says for "none"). */
const NAN_I32 = -0x80000000;

/** One column: every row the same value, whole numbers in 32 bits, or the array itself. */
export type PackedColumn =
  | { form: 'constant'; of: Ctor; rows: number; value: number }
  | { form: 'int32'; of: Ctor; data: Int32Array }
  | { form: 'raw'; data: Numeric };

export function packColumn(a: Numeric): PackedColumn {
  const of = a.constructor as Ctor;
  const n = a.length;
  if (n > 0 && (n === 1 || allEqual(a))) return { form: 'constant', of, rows: n, value: a[0] };
  const wide = a instanceof Float64Array || a instanceof Float32Array || a instanceof Uint32Array;
  if (!wide || !fitsInt32(a)) return { form: 'raw', data: a };
  const data = new Int32Array(n);
  for (let i = 0; i < n; i++) data[i] = Number.isNaN(a[i]) ? NAN_I32 : a[i];
  return { form: 'int32', of, data };
}

function allEqual(a: Numeric): boolean {
  const v = a[0];
  // NaN never equals itself: a column of NaN is kept as it is.
  if (Number.isNaN(v)) return false;
  for (let i = 1; i < a.length; i++) if (a[i] !== v) return false;
  return true;
}

function fitsInt32(a: Numeric): boolean {
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (Number.isNaN(v)) continue;
    // -0 would come back as 0; NAN_I32 is the NaN marker.
    if (!Number.isInteger(v) || v <= NAN_I32 || v > 0x7fffffff || Object.is(v, -0)) return false;
  }
  return true;
}

/** Rows [lo, hi) of a packed column, in the column's own type (a view when kept raw). */
export function readPacked(c: PackedColumn, lo: number, hi: number): Numeric {
  if (c.form === 'raw') return c.data.subarray(lo, hi);
  if (c.form === 'constant') {
    const n = Math.max(0, Math.min(hi, c.rows) - Math.max(0, lo));
    return new c.of(n).fill(c.value);
  }
  const part = c.data.subarray(lo, hi);
  const out = new c.of(part.length);
  for (let i = 0; i < part.length; i++) out[i] = part[i] === NAN_I32 ? NaN : part[i];
  return out;
}

export function packedBytes(c: PackedColumn): number {
  return c.form === 'constant' ? 8 : c.data.byteLength;
}

/** The rows of `columns` packed, and a RowSource reading them back. */
export interface PackedTrace {
  readonly source: RowSource;
  readonly columns: Record<keyof Columns, PackedColumn>;
  /** Bytes held for the columns (the constant ones count 8). */
  readonly bytes: number;
}

/** Packs every trace column; the input arrays may be dropped afterwards. */
export function packColumns(cols: Columns): PackedTrace {
  const packed = {} as Record<keyof Columns, PackedColumn>;
  for (const name of COLUMN_NAMES) packed[name] = packColumn(cols[name]);
  const rows = cols.time.length;
  return {
    columns: packed,
    bytes: COLUMN_NAMES.reduce((s, k) => s + packedBytes(packed[k]), 0),
    source: {
      rows,
      read: (name, lo, hi) => readPacked(packed[name], lo, hi) as Columns[typeof name],
    },
  };
}
