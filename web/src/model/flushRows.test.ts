import { beforeAll, describe, expect, it } from 'vitest';
import { runAbPair } from '../sim/testing';
import { EventKind, type Trace } from '../trace/trace';
import { differingRows, inDifferingFlush, matchFlushes, type FlushMatch } from './flushMatch';
import { FlushRowsScan, flushOfRow, membersIn } from './flushRows';
import { columnSource, forEachSlice } from './rowSource';

let a: Trace;
let b: Trace;
let match: FlushMatch;

beforeAll(() => {
  ({ a, b } = runAbPair());
  match = matchFlushes(a, b);
});

/** The page's log filter (EventLog.tsx): a row whose flush's pair differs. */
function pageDiffering(m: FlushMatch, side: 'A' | 'B', n: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < n; r++) if (inDifferingFlush(m, side, r)) out.push(r);
  return out;
}

describe('FlushRowsScan', () => {
  it("finds, a slice at a time, the rows the page's filter keeps for the flushes that differ", () => {
    const diff = differingRows(match);
    for (const [side, t, flushes] of [
      ['A', a, diff.a],
      ['B', b, diff.b],
    ] as const) {
      const want = pageDiffering(match, side, t.n);
      // Some flushes differ and they have rows beyond their FlushRange rows (IPIs, acks).
      expect(flushes.length).toBeGreaterThan(0);
      expect(want.length).toBeGreaterThan(flushes.length);
      const scan = new FlushRowsScan(t.n, flushes);
      // Small slices, so a flush's rows straddle slice edges.
      const src = columnSource(t);
      for (let lo = 0; lo < t.n; lo += 777) {
        const hi = Math.min(t.n, lo + 777);
        scan.feed({ kind: src.read('kind', lo, hi), parent: src.read('parent', lo, hi) }, lo);
      }
      expect(Array.from(scan.result())).toEqual(want);
      // The same over the store's own slicing.
      const whole = new FlushRowsScan(t.n, flushes);
      forEachSlice(src, ['kind', 'parent'], (c, lo) => whole.feed(c, lo));
      expect(Array.from(whole.result())).toEqual(want);
      const kinds = new Set(want.map((r) => t.kind[r]));
      expect(kinds.has(EventKind.FlushRange)).toBe(true);
      expect(kinds.has(EventKind.IpiSent) || kinds.has(EventKind.TlbiBroadcast)).toBe(true);
    }
  });

  it('finds nothing for no flushes', () => {
    const scan = new FlushRowsScan(a.n, []);
    scan.feed(a, 0);
    expect(scan.result().length).toBe(0);
  });
});

describe('membersIn', () => {
  it("pages the members among a window's rows", () => {
    const m = Int32Array.from([2, 5, 9, 10, 14, 30]);
    expect(membersIn(m, 5, 15, 0, 10)).toEqual({ rows: Int32Array.from([5, 9, 10, 14]), total: 4 });
    expect(membersIn(m, 5, 15, 1, 2)).toEqual({ rows: Int32Array.from([9, 10]), total: 4 });
    expect(membersIn(m, 5, 15, 9, 2)).toEqual({ rows: new Int32Array(0), total: 4 });
    expect(membersIn(m, 15, 30, 0, 5)).toEqual({ rows: new Int32Array(0), total: 0 });
  });
});

describe('flushOfRow', () => {
  it("gives every row the flush the page's flushesOf gives it", () => {
    for (const [t, flushOf] of [
      [a, match.flushOfA],
      [b, match.flushOfB],
    ] as const) {
      const got = Int32Array.from({ length: t.n }, (_, r) =>
        flushOfRow(
          r,
          (i) => t.kind[i],
          (i) => t.parent[i],
        ),
      );
      expect(got).toEqual(flushOf);
      // Rows outside any flush too, and rows that are not FlushRange rows inside one.
      expect(got.some((f) => f < 0)).toBe(true);
      expect(got.some((f, r) => f >= 0 && f !== r)).toBe(true);
    }
  });
});
