// Window answers read from a RowSource (what the worker does with the simulator's store) must
// be what a scan of the whole trace says: the exact path equals the brute-force aggregates and
// row lists, the grid path holds every kind and never more than the exact count, and a source
// read a slice at a time gives the same answers as one holding the columns.
import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import type { Columns, Trace } from '../trace/trace';
import {
  columnSource,
  readRows,
  resampleGrid,
  searchTime,
  sourceRowsInWindow,
  toRowIndex,
  windowBuckets,
  type RowSource,
} from './rowSource';
import { emptyBuckets, type LaneBuckets } from './traceWindow';

let trace: Trace;
let end: number;

beforeAll(() => {
  initSimulatorForNode();
  trace = runScenario(readScenario('x86-munmap-shootdown'), {
    overrides: ['cpus=8', 'flushes=40'],
  }).trace;
  end = 0;
  for (let i = 0; i < trace.n; i++) end = Math.max(end, trace.time[i] + trace.dur[i]);
});

/** The aggregates by the definition: every row, every bucket, no index. */
function bruteBuckets(cpus: number, t0: number, t1: number, buckets: number): LaneBuckets {
  const out = emptyBuckets(cpus, buckets, t0, t1);
  const w = (t1 - t0) / buckets;
  for (let i = 0; i < trace.n; i++) {
    const s = trace.time[i];
    const e = s + trace.dur[i];
    for (let b = 0; b < buckets; b++) {
      const bs = t0 + b * w;
      const be = b === buckets - 1 ? t1 : bs + w;
      // Half-open buckets, the last closed; a span touches a bucket it overlaps.
      const touches = s <= t1 && e >= t0 && s < be + (b === buckets - 1 ? 1e-9 : 0) && e >= bs;
      if (!touches) continue;
      const c = trace.cpu[i] * buckets + b;
      out.count[c]++;
      const k = trace.kind[i];
      if (k < 32) out.kindsLo[c] |= 1 << k;
      else out.kindsHi[c] |= 1 << (k - 32);
    }
  }
  return out;
}

/** A source that copies each read (as reads out of WASM memory do) and counts the rows read. */
function countingSource(cols: Columns): RowSource & { readRows: number } {
  const src = {
    rows: cols.time.length,
    readRows: 0,
    read<K extends keyof Columns>(name: K, lo: number, hi: number): Columns[K] {
      src.readRows += Math.max(0, hi - lo);
      return cols[name].slice(lo, hi) as Columns[K];
    },
  };
  return src;
}

describe('window answers from a row source', () => {
  it('scanned aggregates equal the brute-force ones', () => {
    const src = columnSource(trace);
    const ix = toRowIndex(src, trace.cpus, 256);
    expect(ix.end).toBe(end);
    for (const [a, b, n] of [
      [0, end, 64],
      [end * 0.3, end * 0.35, 50],
      [end * 0.9, end, 7],
    ]) {
      const got = windowBuckets(ix, src, a, b, n, Infinity);
      const want = bruteBuckets(trace.cpus, a, b, n);
      expect(Array.from(got.count)).toEqual(Array.from(want.count));
      expect(Array.from(got.kindsLo)).toEqual(Array.from(want.kindsLo));
      expect(Array.from(got.kindsHi)).toEqual(Array.from(want.kindsHi));
    }
  });

  it('the grid, resampled, holds every kind a bucket holds and never more than its count', () => {
    const src = columnSource(trace);
    const ix = toRowIndex(src, trace.cpus, 512);
    // The index's grid is the exact aggregates of [0, last start] at its own resolution.
    const last = trace.time[trace.n - 1];
    const whole = bruteBuckets(trace.cpus, 0, last, 512);
    expect(Array.from(ix.grid.count)).toEqual(Array.from(whole.count));
    // Buckets of 8 grid cells each: kinds are the OR of the cells, the count the busiest cell.
    const got = windowBuckets(ix, src, 0, last, 64, 0);
    const exact = bruteBuckets(trace.cpus, 0, last, 64);
    expect(Array.from(got.kindsLo)).toEqual(Array.from(exact.kindsLo));
    for (let c = 0; c < got.count.length; c++) {
      expect(got.count[c]).toBeLessThanOrEqual(exact.count[c]);
      expect(got.count[c] > 0).toBe(exact.count[c] > 0);
      let busiest = 0;
      for (let g = 0; g < 8; g++) {
        const cpu = Math.floor(c / 64);
        busiest = Math.max(busiest, ix.grid.count[cpu * 512 + (c % 64) * 8 + g]);
      }
      expect(got.count[c]).toBe(busiest);
    }
    // A window inside one cell takes that cell's kinds.
    const inner = resampleGrid(ix.grid, emptyBuckets(trace.cpus, 1, last * 0.5, last * 0.5001));
    const cell = Math.floor(0.5 * 512);
    for (let cpu = 0; cpu < trace.cpus; cpu++)
      expect(inner.kindsLo[cpu]).toBe(ix.grid.kindsLo[cpu * 512 + cell]);
  });

  it('lists the rows touching a window in trace order, long spans included', () => {
    const src = columnSource(trace);
    // A coarse grid makes more spans "long" and a fine one fewer: the answer is the same.
    for (const cells of [4, 64, 4096]) {
      const ix = toRowIndex(src, trace.cpus, cells);
      for (const [a, b] of [
        [end * 0.5, end * 0.52],
        [0, end * 0.01],
        [end * 0.99, end],
      ]) {
        const want: number[] = [];
        for (let i = 0; i < trace.n; i++)
          if (trace.time[i] <= b && trace.time[i] + trace.dur[i] >= a) want.push(i);
        const got = sourceRowsInWindow(ix, src, a, b, 10, Infinity);
        expect(got!.total).toBe(want.length);
        expect(Array.from(got!.rows)).toEqual(want.slice(0, 10));
      }
    }
  });

  it('refuses to read more rows than allowed, and reads only near the window', () => {
    const src = countingSource(trace);
    const ix = toRowIndex(src, trace.cpus, 1024);
    expect(sourceRowsInWindow(ix, src, 0, end, 10, 100)).toBeNull();
    src.readRows = 0;
    const got = sourceRowsInWindow(ix, src, end * 0.5, end * 0.5005, 1000, Infinity);
    expect(got!.total).toBeGreaterThan(0);
    // A binary search and the window's neighbourhood, not the whole trace.
    expect(src.readRows).toBeLessThan(trace.n / 4);
  });

  it('reads any rows with every column, and finds times by binary search', () => {
    const src = countingSource(trace);
    const rows = Int32Array.from([3, 4, 5, 900, trace.n - 1]);
    const got = readRows(src, rows);
    for (const [j, r] of rows.entries()) {
      expect(got.time[j]).toBe(trace.time[r]);
      expect(got.addr[j]).toBe(trace.addr[r]);
      expect(got.parent[j]).toBe(trace.parent[r]);
      expect(got.kind[j]).toBe(trace.kind[r]);
    }
    const t = trace.time[500];
    const first = searchTime(src, t);
    expect(trace.time[first]).toBe(t);
    expect(first === 0 || trace.time[first - 1] < t).toBe(true);
    const after = searchTime(src, t, true);
    expect(after === trace.n || trace.time[after] > t).toBe(true);
    expect(trace.time[after - 1]).toBe(t);
  });
});
