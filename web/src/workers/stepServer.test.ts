// The worker's stepping answers (protocol.ts StepRequest) through the real WindowServer over a
// real run's columns: the rows the page's own stepping and log filter find on the same run.
import { beforeAll, describe, expect, it } from 'vitest';
import { nextRow, prevRow, rowsInWindow } from '../model/events';
import {
  differingRows,
  inDifferingFlush,
  matchFlushes,
  type FlushMatch,
} from '../model/flushMatch';
import { columnSource } from '../model/rowSource';
import { runAbPair } from '../sim/testing';
import type { Trace } from '../trace/trace';
import type { QueryMessage, QueryRequest } from './protocol';
import { WindowServer } from './windowServer';

let a: Trace;
let b: Trace;
let match: FlushMatch;
let server: WindowServer;

beforeAll(() => {
  ({ a, b } = runAbPair());
  match = matchFlushes(a, b);
  server = new WindowServer(7, columnSource(a), a.cpus);
});

function ask(req: QueryRequest): QueryMessage {
  let got: QueryMessage | null = null;
  server.answer(req, (m) => (got = m));
  if (!got) throw new Error('no answer');
  return got;
}

describe("the worker's steps", () => {
  it('walk the run as the page steps it, from the selection or from the cursor alone', () => {
    let sel: number | null = null;
    let t = -1;
    const seen: number[] = [];
    for (let k = 0; k < 300; k++) {
      const m = ask({ type: 'step', id: k, run: 7, row: sel, t, dir: 1, count: 1 });
      const want = nextRow(a, sel, t);
      expect(m).toEqual({ type: 'step', id: k, row: want, time: a.time[want], dur: a.dur[want] });
      seen.push(want);
      sel = want;
      t = a.time[want];
    }
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => i));
    const back = ask({ type: 'step', id: 1, run: 7, row: sel, t, dir: -1, count: 1 });
    expect(back.type === 'step' && back.row).toBe(prevRow(a, sel, t));
    // The cursor alone (nothing selected), moved to the middle of the run.
    const mid = a.time[a.n >> 1] + 0.25;
    const m = ask({ type: 'step', id: 2, run: 7, row: null, t: mid, dir: 1, count: 1 });
    expect(m.type === 'step' && m.row).toBe(nextRow(a, null, mid));
  });

  it("take several steps in one question, answer a row's time, and say -1 at the end", () => {
    const m = ask({ type: 'step', id: 3, run: 7, row: 10, t: a.time[10], dir: 1, count: 25 });
    expect(m.type === 'step' && m.row).toBe(35);
    const at = ask({ type: 'step', id: 4, run: 7, row: 1234, t: 0, dir: 1, count: 0 });
    expect(at).toEqual({ type: 'step', id: 4, row: 1234, time: a.time[1234], dur: a.dur[1234] });
    const last = a.n - 1;
    const end = ask({ type: 'step', id: 5, run: 7, row: last, t: a.time[last], dir: 1, count: 1 });
    expect(end.type === 'step' && end.row).toBe(-1);
  });

  it('refuse a row outside the run and a direction that is none, by name', () => {
    const m = ask({ type: 'step', id: 6, run: 7, row: a.n, t: 0, dir: 1, count: 1 });
    expect(m).toEqual({
      type: 'query-error',
      id: 6,
      message: `row ${a.n} is not in this run of ${a.n}`,
    });
    const d = ask({ type: 'step', id: 8, run: 7, row: 0, t: 0, dir: 0 as 1, count: 1 });
    expect(d.type === 'query-error' && d.message).toBe('step direction 0 is not 1 or -1');
  });
});

describe("the worker's log of the flushes that differ", () => {
  it("lists the window's rows of the differing flushes as the page's filter does", () => {
    const flushes = Int32Array.from(differingRows(match).a);
    const end = a.time[a.n - 1];
    const [t0, t1] = [end * 0.3, end * 0.6];
    const want = rowsInWindow(a, t0, t1, Infinity).rows.filter((r) =>
      inDifferingFlush(match, 'A', r),
    );
    expect(want.length).toBeGreaterThan(20);
    const m = ask({ type: 'difflog', id: 9, run: 7, flushes, t0, t1, offset: 0, limit: 1000 });
    if (m.type !== 'difflog') throw new Error(m.type);
    expect(Array.from(m.rows)).toEqual(want);
    expect(m.total).toBe(want.length);
    expect(Array.from(m.columns.time)).toEqual(want.map((r) => a.time[r]));
    // A later page of the same set, from its cached rows.
    const p = ask({ type: 'difflog', id: 10, run: 7, flushes, t0, t1, offset: 5, limit: 7 });
    if (p.type !== 'difflog') throw new Error(p.type);
    expect(Array.from(p.rows)).toEqual(want.slice(5, 12));
    const bad = ask({
      type: 'difflog',
      id: 11,
      run: 7,
      flushes,
      t0: t1,
      t1: t0,
      offset: 0,
      limit: 5,
    });
    expect(bad.type).toBe('query-error');
  });

  it("names a row's flush as the page's match does, and refuses a row not in the run", () => {
    for (let r = 0; r < a.n; r += 7) {
      const m = ask({ type: 'flushof', id: 20 + r, run: 7, row: r });
      expect(m).toEqual({ type: 'flushof', id: 20 + r, row: r, flush: match.flushOfA[r] });
    }
    const bad = ask({ type: 'flushof', id: 1, run: 7, row: a.n });
    expect(bad).toEqual({
      type: 'query-error',
      id: 1,
      message: `row ${a.n} is not in this run of ${a.n}`,
    });
  });
});
