// Window questions through SimSession to a worker that keeps the trace: the answers are the
// pure functions' answers over the whole run, a burst of questions is answered only for its
// last one (the others resolve null), and bad or late questions are refused by name.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { maxDurOf, rowsInWindow, toLaneBuckets } from '../model/traceWindow';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import type { Trace } from '../trace/trace';
import type { QueryRequest, RunRequest, WorkerMessage } from './protocol';
import { overviewOf, SimSession, traceWindowOf } from './session';
import { LatestQueue, WindowServer } from './windowServer';
import { columnSource } from '../model/rowSource';
import { rowsInWindow as logRows } from '../model/events';
import { toArrows } from '../model/ipis';
import { lensIntervals } from '../model/lens';
import { lensExtents } from '../model/lensExtent';
import { flushesOf } from '../model/flushMatch';
import { highlightKinds, highlightRows, MAX_HIGHLIGHT } from '../model/guide';
import { legendEntries, legendOfKinds } from '../model/legend';
import { unpairedSends } from '../model/ipis';
import type { Step } from '../sim/scenario';

let trace: Trace;
let end: number;

beforeAll(() => {
  initSimulatorForNode();
  trace = runScenario(readScenario('x86-munmap-shootdown'), {
    overrides: ['cpus=16', 'flushes=60'],
  }).trace;
  end = trace.time[trace.n - 1];
});

/** simWorker.ts in miniature: runs are the real trace, questions go through the real server. */
class KeepingWorker {
  static made: KeepingWorker[] = [];
  onmessage: ((e: MessageEvent<WorkerMessage>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  served: number[] = [];
  private server: WindowServer | null = null;
  private queue = new LatestQueue(
    (req) => {
      this.served.push(req.id);
      this.server?.answer(req, (m) => this.post(m));
    },
    (id) => this.post({ type: 'stale', id }),
  );
  constructor() {
    KeepingWorker.made.push(this);
  }
  private post(msg: WorkerMessage) {
    setTimeout(() => this.onmessage?.({ data: msg } as MessageEvent<WorkerMessage>), 0);
  }
  postMessage(req: RunRequest | QueryRequest) {
    // A worker receives messages as tasks, in order.
    setTimeout(() => this.receive(req), 0);
  }
  private receive(req: RunRequest | QueryRequest) {
    if (req.type !== 'run') {
      this.queue.push(req);
      return;
    }
    this.queue.clear();
    this.server = new WindowServer(req.id, columnSource(trace), trace.cpus);
    const cols = { ...trace };
    this.post({
      type: 'done',
      id: req.id,
      title: 't',
      description: '',
      cpus: trace.cpus,
      summary: {} as never,
      columns: { ...cols, time: cols.time.slice() },
      remote: null,
      strings: [],
      info: {} as never,
      stepProblem: null,
      budgetError: null,
    });
    if (!req.view) return;
    const buckets = this.server.overview(1024);
    this.post({ type: 'overview', id: req.id, buckets });
    this.post({ type: 'view', id: req.id, view: null, error: 'not built in this test' });
  }
  terminate() {}
}

const realWorker = globalThis.Worker;
afterEach(() => {
  globalThis.Worker = realWorker;
  KeepingWorker.made = [];
});

async function session() {
  globalThis.Worker = KeepingWorker as unknown as typeof Worker;
  const s = new SimSession();
  const r = await s.run('', { view: false });
  const w = traceWindowOf(r.trace);
  if (!w) throw new Error('no window client for a worker run');
  return { s, w, r };
}

describe('window questions to the worker that keeps the trace', () => {
  it("picks a step's rows, the run's facts and slices of rows as the page's functions do", async () => {
    const { w } = await session();
    // A step's highlight over a window and over the whole run (round robin, capped).
    for (const [win, cpus] of [
      [[end * 0.3, end * 0.32], []],
      [
        [0, end],
        [0, 3],
      ],
    ] as [[number, number], number[]][]) {
      const step = {
        highlight: ['FlushRange', 'IpiHandler', 'TlbGenIncremented'],
        cpus,
      } as unknown as Step;
      const want = highlightRows(trace, step, win);
      expect(want.length).toBeGreaterThan(5);
      const got = await w.pick(highlightKinds(step), cpus, win[0], win[1], MAX_HIGHLIGHT);
      expect(Array.from(got!.rows)).toEqual(want);
      expect(Array.from(got!.columns.cpu)).toEqual(want.map((r) => trace.cpu[r]));
    }
    const facts = await w.facts();
    expect(legendOfKinds(new Set(facts!.kinds), facts!.unpaired)).toEqual(legendEntries(trace));
    expect(facts!.unpaired).toBe(unpairedSends(trace));
    // Consecutive rows, the last slice cut at the run's end.
    const slice = await w.slice(1000, 300);
    expect(slice!.first).toBe(1000);
    expect(Array.from(slice!.columns.time)).toEqual(Array.from(trace.time.subarray(1000, 1300)));
    expect(Array.from(slice!.columns.parent)).toEqual(
      Array.from(trace.parent.subarray(1000, 1300)),
    );
    const last = await w.slice(trace.n - 5, 300);
    expect(last!.columns.kind.length).toBe(5);
  });

  it("reaches as far on each CPU as the lens's intervals over the whole run do", async () => {
    const { w } = await session();
    for (const kinds of [['nonpreempt_wait'], ['irqs_off_delay', 'wakeup_latency'], []]) {
      const all = lensIntervals(trace, kinds, 300);
      const got = await w.lensExtents(kinds, 300);
      expect(got).toEqual(lensExtents(all));
      if (kinds[0] === 'nonpreempt_wait') expect(got!.length).toBeGreaterThan(0);
    }
  });

  it("answers with what the pure functions compute over the run's full columns", async () => {
    const { w } = await session();
    const md = maxDurOf(trace);
    const b = await w.lanes(end * 0.2, end * 0.6, 256);
    expect(b).not.toBeNull();
    const want = toLaneBuckets(trace, trace.cpus, end * 0.2, end * 0.6, 256, md);
    expect(Array.from(b!.count)).toEqual(Array.from(want.count));
    expect(Array.from(b!.kindsLo)).toEqual(Array.from(want.kindsLo));

    const rows = await w.rows(end * 0.5, end * 0.51, 1_000_000);
    const wantRows = rowsInWindow(trace, end * 0.5, end * 0.51, md);
    expect(rows!.total).toBe(wantRows.total);
    expect(Array.from(rows!.rows)).toEqual(Array.from(wantRows.rows));
    const j = rows!.rows.length >> 1;
    expect(rows!.columns.addr[j]).toBe(trace.addr[rows!.rows[j]]);
    expect(rows!.columns.kind[j]).toBe(trace.kind[rows!.rows[j]]);

    const mem = await w.memory();
    expect(mem!.rows).toBe(trace.n);
    // Read from the source as it is: no copy of the columns kept beside it.
    expect(mem!.columnBytes).toBe(0);
    // The grid (12 B a cell, about one cell per four rows of a CPU) and the few long spans.
    expect(mem!.indexBytes).toBeGreaterThanOrEqual(trace.n * 3 * 0.9);
    expect(mem!.indexBytes).toBeLessThan(trace.n * 8);
  });

  it("lists the event log, lens and arrows of a window as the page's functions do on the run", async () => {
    const { w } = await session();
    const [t0, t1] = [end * 0.4, end * 0.45];
    const want = logRows(trace, t0, t1, Infinity);
    expect(want.total).toBeGreaterThan(40);
    const page = await w.log(t0, t1, 20, 15);
    expect(page!.total).toBe(want.total);
    expect(page!.first).toBe(want.rows[20]);
    expect(Array.from(page!.columns.time)).toEqual(
      want.rows.slice(20, 35).map((r) => trace.time[r]),
    );
    expect(Array.from(page!.columns.arg)).toEqual(want.rows.slice(20, 35).map((r) => trace.arg[r]));

    const touches = (a: number, b: number) => Math.min(a, b) <= t1 && Math.max(a, b) >= t0;
    const lens = await w.lens(t0, t1, ['nonpreempt_wait', 'irqs_off_delay'], 0);
    const wantLens = lensIntervals(trace, ['nonpreempt_wait', 'irqs_off_delay']).filter((iv) =>
      touches(iv.start, iv.end),
    );
    expect(wantLens.length).toBeGreaterThan(0);
    expect(lens!.intervals!.map((iv) => `${iv.kind}@${iv.row}`).sort()).toEqual(
      wantLens.map((iv) => `${iv.kind}@${iv.row}`).sort(),
    );

    const arrows = await w.arrows(t0, t1, 5000);
    const a = toArrows(trace);
    const wantArrows: number[] = [];
    for (let j = 0; j < a.n; j++)
      if (touches(trace.time[a.fromRow[j]], trace.time[a.toRow[j]])) wantArrows.push(a.row[j]);
    expect(wantArrows.length).toBeGreaterThan(0);
    expect(arrows!.total).toBe(wantArrows.length);
    expect(arrows!.arrows!.map((x) => x.row).sort((x, y) => x - y)).toEqual(
      wantArrows.sort((x, y) => x - y),
    );
    // The run's flushes, scanned in the worker: flushesOf's on the page's copy.
    const flushes = await w.flushes(trace.strings);
    expect(flushes!.flushes).toEqual(flushesOf(trace).flushes);
    expect(flushes!.flushes.length).toBe(60);
    // More arrows than the page will draw: counted, none listed.
    const few = await w.arrows(t0, t1, wantArrows.length - 1);
    expect(few!.arrows).toBeNull();
    expect(few!.total).toBe(wantArrows.length);
  });

  it('a burst of zoom steps is answered for its last step only; the others resolve null', async () => {
    const { w } = await session();
    const asked = [0.1, 0.2, 0.3, 0.4].map((f) => w.lanes(0, end * f, 100));
    const got = await Promise.all(asked);
    expect(got.slice(0, 3)).toEqual([null, null, null]);
    expect(got[3]!.t1).toBe(end * 0.4);
    // The worker computed only the last (the others were overtaken while queued).
    expect(KeepingWorker.made[0].served).toHaveLength(1);
    // Different kinds of question do not overtake each other.
    const [lanes, rows] = await Promise.all([w.lanes(0, end, 10), w.rows(0, end, 5)]);
    expect(lanes!.buckets).toBe(10);
    expect(rows!.rows).toHaveLength(5);
    expect(rows!.total).toBe(trace.n);
  });

  it('an answer that arrives after a newer question was asked is dropped as stale', async () => {
    const { w } = await session();
    const first = w.lanes(0, end, 10);
    // Asked once the first is being answered: the worker serves both; the page drops the first.
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    const second = w.lanes(0, end / 2, 10);
    expect(await first).toBeNull();
    expect((await second)!.t1).toBe(end / 2);
    expect(KeepingWorker.made[0].served).toHaveLength(2);
  });

  it('refuses a bad window and a run that is gone, by name', async () => {
    const { s, w } = await session();
    await expect(w.lanes(10, 5, 10)).rejects.toThrow(/ends before it starts/);
    await expect(w.lanes(0, end, 0)).rejects.toThrow(/buckets must be 1 to/);
    await expect(w.rows(0, Number.NaN, 10)).rejects.toThrow(/not two finite times/);
    await s.run('', { view: false });
    await expect(w.rows(0, end, 10)).rejects.toThrow(/that run is gone/);
  });
});

describe('the overview a run brings before its timeline model', () => {
  it("is the whole run's lane aggregates, one strip per CPU", async () => {
    globalThis.Worker = KeepingWorker as unknown as typeof Worker;
    const r = await new SimSession().run('');
    const b = await overviewOf(r.trace);
    expect(b).not.toBeNull();
    const last = Math.max(...Array.from(trace.time, (t, i) => t + trace.dur[i]));
    expect([b!.t0, b!.t1, b!.cpus, b!.buckets]).toEqual([0, last, trace.cpus, 1024]);
    const want = toLaneBuckets(trace, trace.cpus, 0, last, 1024, maxDurOf(trace));
    expect(Array.from(b!.count)).toEqual(Array.from(want.count));
    // Every CPU that ran anything shows in its strip.
    for (let c = 0; c < trace.cpus; c++) {
      const strip = b!.count.subarray(c * 1024, (c + 1) * 1024);
      expect(strip.some((x) => x > 0)).toBe(Array.from(trace.cpu).includes(c));
    }
  });

  it('is null for a run asked without a view, and for a run cancelled first', async () => {
    globalThis.Worker = KeepingWorker as unknown as typeof Worker;
    const s = new SimSession();
    const r = await s.run('', { view: false });
    expect(await overviewOf(r.trace)).toBeNull();
    const r2 = await s.run('');
    s.cancel();
    // Cancelled before the overview arrived: it resolves null rather than waiting for ever.
    expect(await overviewOf(r2.trace)).toBeNull();
  });
});

describe('LatestQueue', () => {
  it("serves the window's questions before a whole-run pass asked at the same time", () => {
    const served: string[] = [];
    const later: (() => void)[] = [];
    const q = new LatestQueue(
      (r) => served.push(r.type),
      () => {},
      (f) => later.push(f),
    );
    q.push({ type: 'facts', id: 1, run: 1 });
    q.push({ type: 'lanes', id: 2, run: 1, t0: 0, t1: 1, buckets: 8 });
    q.push({ type: 'rows', id: 3, run: 1, t0: 0, t1: 1, limit: 8 });
    later.shift()!();
    expect(served).toEqual(['lanes', 'rows']);
    // Alone, the pass runs.
    later.shift()!();
    expect(served).toEqual(['lanes', 'rows', 'facts']);
    expect(later).toEqual([]);
  });
});
