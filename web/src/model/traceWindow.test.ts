import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, type Columns, type Trace } from '../trace/trace';
import {
  bucketsOfRows,
  candidateRange,
  cellKind,
  drawnKinds,
  hasKind,
  NO_KIND,
  toDrawn,
  maxDurOf,
  rowsInWindow,
  sliceRows,
  toLaneBuckets,
  type LaneBuckets,
} from './traceWindow';

let trace: Trace;
let maxDur: number;
let end: number;

beforeAll(() => {
  initSimulatorForNode();
  trace = runScenario(readScenario('x86-munmap-shootdown'), {
    overrides: ['cpus=32', 'flushes=100'],
  }).trace;
  maxDur = maxDurOf(trace);
  end = Math.max(...Array.from(trace.time, (t, i) => t + trace.dur[i]));
});

const all = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

/** Rows touching [t0, t1], the slow way: every row of the trace. */
function slowRows(cols: Columns, t0: number, t1: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < cols.time.length; i++)
    if (cols.time[i] <= t1 && cols.time[i] + cols.dur[i] >= t0) out.push(i);
  return out;
}

function expectSame(a: LaneBuckets, b: LaneBuckets) {
  expect(Array.from(a.count)).toEqual(Array.from(b.count));
  expect(Array.from(a.kindsLo)).toEqual(Array.from(b.kindsLo));
  expect(Array.from(a.kindsHi)).toEqual(Array.from(b.kindsHi));
}

function columnsOf(rows: { time: number; dur: number; cpu: number; kind: number }[]): Columns {
  const n = rows.length;
  const f = (k: 'time' | 'dur') => Float64Array.from(rows, (r) => r[k]);
  return {
    time: f('time'),
    dur: f('dur'),
    cpu: Uint16Array.from(rows, (r) => r.cpu),
    kind: Uint8Array.from(rows, (r) => r.kind),
    mm: new Uint16Array(n),
    asid: new Uint16Array(n),
    gen: new Uint32Array(n),
    addr: new Float64Array(n),
    arg: Float64Array.from(rows, (_, i) => i * 10),
    parent: new Int32Array(n).fill(-1),
  };
}

describe('window aggregates of a real run', () => {
  it('the aggregate of a window equals the one computed from every row of the trace', () => {
    expect(trace.n).toBeGreaterThan(10_000);
    for (const [a, b, buckets] of [
      [0, end, 700],
      [end * 0.31, end * 0.33, 400],
      [end * 0.5, end * 0.5 + 1_000, 97],
      [end * 0.9, end * 1.2, 13],
    ]) {
      const fast = toLaneBuckets(trace, trace.cpus, a, b, buckets, maxDur);
      expectSame(fast, bucketsOfRows(trace, all(trace.n), trace.cpus, a, b, buckets));
      // Each row touching the window is counted at least once on its own CPU's lane.
      const rows = slowRows(trace, a, b);
      const perCpu = new Array(trace.cpus).fill(0);
      for (const i of rows) perCpu[trace.cpu[i]]++;
      for (let c = 0; c < trace.cpus; c++) {
        const lane = fast.count.subarray(c * buckets, (c + 1) * buckets);
        const max = Math.max(...lane);
        expect(max).toBeLessThanOrEqual(perCpu[c]);
        if (perCpu[c] > 0) expect(max).toBeGreaterThan(0);
      }
    }
  });

  it('a window of rows gives the aggregates the full trace gives for that window', () => {
    const [a, b] = [end * 0.4, end * 0.42];
    const { rows, total } = rowsInWindow(trace, a, b, maxDur);
    expect(total).toBe(rows.length);
    expect(Array.from(rows)).toEqual(slowRows(trace, a, b));
    // The page's copy of the window alone reproduces the worker's aggregates.
    const slice = sliceRows(trace, rows);
    expectSame(
      bucketsOfRows(slice, all(rows.length), trace.cpus, a, b, 300),
      toLaneBuckets(trace, trace.cpus, a, b, 300, maxDur),
    );
    for (let j = 0; j < rows.length; j += 97) {
      expect(slice.time[j]).toBe(trace.time[rows[j]]);
      expect(slice.addr[j]).toBe(trace.addr[rows[j]]);
      expect(slice.parent[j]).toBe(trace.parent[rows[j]]);
    }
  });

  it('lists at most `limit` rows but counts them all', () => {
    const full = rowsInWindow(trace, 0, end, maxDur);
    const some = rowsInWindow(trace, 0, end, maxDur, 50);
    expect(full.total).toBe(trace.n);
    expect(some.total).toBe(trace.n);
    expect(Array.from(some.rows)).toEqual(Array.from(full.rows.subarray(0, 50)));
  });

  it('an IPI handler in a busy bucket still names it as the drawn kind when it is preferred', () => {
    const b = toLaneBuckets(trace, trace.cpus, 0, end, 50, maxDur);
    let seen = 0;
    for (let c = 0; c < b.count.length; c++) {
      if (!hasKind(b, c, EventKind.IpiHandler)) continue;
      seen++;
      expect(cellKind(b, c, [EventKind.IpiHandler])).toBe(EventKind.IpiHandler);
    }
    expect(seen).toBeGreaterThan(0);
  });
});

describe('window boundaries', () => {
  // cpu 0: [0, 10] [20, 30]; cpu 1: [5, 5] (an instant) [40, 100] (kind 40: the high mask word)
  const cols = columnsOf([
    { time: 0, dur: 10, cpu: 0, kind: 0 },
    { time: 5, dur: 0, cpu: 1, kind: 5 },
    { time: 20, dur: 10, cpu: 0, kind: 6 },
    { time: 40, dur: 60, cpu: 1, kind: 40 },
  ]);
  const md = maxDurOf(cols);

  it('a row ending exactly at the window start, or starting exactly at its end, touches it', () => {
    expect(Array.from(rowsInWindow(cols, 10, 20, md).rows)).toEqual([0, 2]);
    expect(Array.from(rowsInWindow(cols, 30, 40, md).rows)).toEqual([2, 3]);
    expect(Array.from(rowsInWindow(cols, 11, 19, md).rows)).toEqual([]);
  });

  it('a long row starting before the window is found through the longest span', () => {
    expect(md).toBe(60);
    expect(Array.from(rowsInWindow(cols, 90, 95, md).rows)).toEqual([3]);
    expect(candidateRange(cols.time, 90, 95, md)).toEqual([3, 4]);
  });

  it('rows land in the buckets their spans cover, the last bucket closed at t1', () => {
    const b = toLaneBuckets(cols, 2, 0, 100, 10, md);
    expect(Array.from(b.count.subarray(0, 10))).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(b.count.subarray(10, 20))).toEqual([1, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    expect(hasKind(b, 10, 5)).toBe(true);
    expect(hasKind(b, 19, 40)).toBe(true);
    expect(b.kindsHi[19]).toBe(1 << 8);
    expect(cellKind(b, 2, [])).toBe(6);
    expect(cellKind(b, 5, [])).toBe(-1);
  });

  it('an inverted window or no buckets is empty, not an error', () => {
    expect(rowsInWindow(cols, 50, 10, md).total).toBe(0);
    expect(toLaneBuckets(cols, 2, 50, 10, 10, md).count.every((x) => x === 0)).toBe(true);
    expect(toLaneBuckets(cols, 2, 0, 100, 0, md).count.length).toBe(0);
  });
});

describe('degenerate traces', () => {
  it('an empty trace has no rows and empty aggregates', () => {
    const cols = columnsOf([]);
    expect(maxDurOf(cols)).toBe(0);
    expect(rowsInWindow(cols, 0, 1e9, 0)).toEqual({ rows: new Int32Array(0), total: 0 });
    const b = toLaneBuckets(cols, 4, 0, 1e9, 8, 0);
    expect(b.count.length).toBe(32);
    expect(b.count.every((x) => x === 0)).toBe(true);
  });

  it('a one-event trace of an instant fills one bucket, even in a zero-length window', () => {
    const cols = columnsOf([{ time: 7, dur: 0, cpu: 2, kind: 3 }]);
    const b = toLaneBuckets(cols, 3, 0, 10, 5, 0);
    expect(Array.from(b.count)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
    const point = toLaneBuckets(cols, 3, 7, 7, 4, 0);
    expect(point.count[2 * 4]).toBe(1);
    expect(Array.from(rowsInWindow(cols, 7, 7, 0).rows)).toEqual([0]);
    expect(sliceRows(cols, Int32Array.of(0)).arg[0]).toBe(0);
  });
});

describe('the answer as drawn', () => {
  it("each cell's drawn kind is cellKind's, and its shade grows with its count", () => {
    const b = toLaneBuckets(trace, trace.cpus, 0, end, 300, maxDur);
    const priority = [EventKind.IpiHandler, EventKind.TaskRun];
    const drawn = drawnKinds(b, priority);
    let busy = 0;
    for (let c = 0; c < b.count.length; c++) {
      const k = cellKind(b, c, priority);
      expect(drawn[c]).toBe(k < 0 ? NO_KIND : k);
      if (b.count[c]) busy++;
    }
    expect(busy).toBeGreaterThan(100);
    const d = toDrawn(b, priority);
    expect(Array.from(d.drawn!)).toEqual(Array.from(drawn));
    // Count and kinds are dropped; the shade orders cells as their counts do.
    expect(d.count.length + d.kindsLo.length + d.kindsHi.length).toBe(0);
    const max = Math.max(...b.count);
    for (let c = 0; c < b.count.length; c++) {
      expect(d.shade![c] === 0).toBe(b.count[c] === 0);
      if (b.count[c] === max) expect(d.shade![c]).toBe(255);
    }
    const [lo, hi] = [...b.count.keys()]
      .filter((c) => b.count[c] > 0)
      .sort((x, y) => b.count[x] - b.count[y])
      .filter((_, i, a) => i === 0 || i === a.length - 1);
    expect(d.shade![lo]).toBeLessThanOrEqual(d.shade![hi]);
  });
});
