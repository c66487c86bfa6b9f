// The worker's window answers (the view models run on a window's rows, windowTrace.ts) equal
// the page's functions on the whole run, for windows across a real run of the simulator.
import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import type { Trace } from '../trace/trace';
import { rowsInWindow } from './events';
import { toArrows } from './ipis';
import { lensIntervals, type LensInterval } from './lens';
import { columnSource, toRowIndex, type RowIndex, type RowSource } from './rowSource';
import { arrowsInWindow, lensInWindow, logRange, toWindowTrace } from './windowTrace';

let trace: Trace;
let src: RowSource;
let ix: RowIndex;
let end: number;
let ctx: number;

beforeAll(() => {
  initSimulatorForNode();
  // The story's settings where all three lens kinds occur (pinned flush, irqs-off windows,
  // a high-priority task woken).
  const run = runScenario(readScenario('x86-flush-info-story'), {});
  trace = run.trace;
  ctx = run.info.costs.context_switch_ns ?? 0;
  src = columnSource(trace);
  ix = toRowIndex(src, trace.cpus, 64);
  end = ix.end;
});

/** Windows across the run: narrow ones at several places, and the whole run. */
function windows(): [number, number][] {
  const out: [number, number][] = [[0, end]];
  for (const f of [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95]) {
    for (const w of [end / 50, end / 10]) out.push([f * end - w / 2, f * end + w / 2]);
  }
  return out;
}

const key = (iv: LensInterval) => `${iv.kind} ${iv.cpu} ${iv.start} ${iv.end} ${iv.row}`;

describe('a window of a run kept in its worker', () => {
  it('lists the event log rows the page lists, a page at a time', () => {
    for (const [t0, t1] of windows()) {
      const page = rowsInWindow(trace, t0, t1, Infinity);
      const all: number[] = [];
      for (let offset = 0; ; offset += 7) {
        const r = logRange(src, t0, t1, offset, 7);
        expect(r.total).toBe(page.total);
        for (let j = 0; j < r.count; j++) all.push(r.first + j);
        if (r.count < 7) break;
      }
      expect(all).toEqual(page.rows);
    }
  });

  it("finds the lens intervals the page's lensIntervals finds in the whole run", () => {
    const whole = lensIntervals(trace, undefined, ctx);
    const kinds = new Set(whole.map((iv) => iv.kind));
    expect([...kinds].sort()).toEqual(['irqs_off_delay', 'nonpreempt_wait', 'wakeup_latency']);
    let seen = 0;
    for (const [t0, t1] of windows()) {
      const w = toWindowTrace(ix, src, t0, t1, t1 - t0, Infinity);
      expect(w).not.toBeNull();
      const got = lensInWindow(w!, lensIntervals(w!.trace, undefined, ctx), t0, t1);
      const want = whole.filter((iv) => iv.start <= t1 && iv.end >= t0);
      expect(got.map(key).sort()).toEqual(want.map(key).sort());
      seen += want.length;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("finds the IPI and ack arrows the page's toArrows finds in the whole run", () => {
    const a = toArrows(trace);
    let seen = 0;
    for (const [t0, t1] of windows()) {
      const w = toWindowTrace(ix, src, t0, t1, t1 - t0, Infinity)!;
      const got = arrowsInWindow(w, t0, t1).map(
        (x) => `${x.kind} ${x.row} ${x.fromRow} ${x.toRow} ${x.fromCpu} ${x.toCpu}`,
      );
      const want: string[] = [];
      for (let j = 0; j < a.n; j++) {
        const s = trace.time[a.fromRow[j]];
        const e = trace.time[a.toRow[j]];
        if (Math.min(s, e) > t1 || Math.max(s, e) < t0) continue;
        want.push(
          `${a.kind[j]} ${a.row[j]} ${a.fromRow[j]} ${a.toRow[j]} ${a.fromCpu[j]} ${a.toCpu[j]}`,
        );
      }
      expect(got.sort()).toEqual(want.sort());
      seen += want.length;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('renumbers parents into the window trace and refuses a window too wide to read', () => {
    const t0 = end * 0.4;
    const t1 = end * 0.45;
    const w = toWindowTrace(ix, src, t0, t1, 0, Infinity)!;
    for (let j = 0; j < w.trace.n; j++) {
      const p = trace.parent[w.rows[j]];
      if (p >= 0) expect(w.rows[w.trace.parent[j]]).toBe(p);
    }
    expect(toWindowTrace(ix, src, 0, end, 0, 10)).toBeNull();
  });
});
