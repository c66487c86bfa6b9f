// The page's side of the simulator worker (simWorker.ts): runs scenarios off the main thread
// and hands back the same RunResult as sim/run.ts's runScenario (Node), plus the timeline's
// model the worker built. Nothing above this folder knows which one ran.
import type { PrebuiltView } from '../model/prebuilt';
import type { Spacing } from '../model/spacing';
import { ScenarioLoadError, type RunOptions, type RunResult } from '../sim/run';
import type { ScenarioInfo } from '../sim/scenario';
import { toTrace, type Trace } from '../trace/trace';
import type { LaneBuckets } from '../model/traceWindow';
import type { Columns } from '../trace/trace';
import type { LensInterval } from '../model/lens';
import type { LensExtent } from '../model/lensExtent';
import type { FlushesOf } from '../model/flushMatch';
import { AnalysisJobs, type AnalysisAsk, type AnalysisJob } from './analysisJobs';
import type { WindowArrow } from '../model/windowTrace';
import type { WindowGenerations } from '../model/windowGenerations';
import {
  isQuery,
  type CheckRequest,
  type DescribeRequest,
  type QueryMessage,
  type QueryRequest,
  type RunRequest,
  type SliceColumns,
  type SnapshotRequest,
  type ViewRequest,
  type WorkerMessage,
} from './protocol';

// Timeline models built in a worker, by trace and spacing (see prebuiltViewOf).
interface Views {
  /** The worker to ask for other spacings; null for a view built elsewhere (a recording's). */
  session: SimSession | null;
  run: number;
  bySpacing: Map<Spacing, Promise<PrebuiltView | null>>;
}
const views = new WeakMap<Trace, Views>();

/**
 * The timeline model of `trace` in `spacing`, built in the worker that ran it: after a run it
 * builds the time-spacing model unasked; other spacings are asked for here. Null when the
 * trace did not come from a worker (Node), that worker has moved on to another run, or it
 * could not build the model: then the caller builds it itself.
 */
export function prebuiltViewOf(trace: Trace, spacing: Spacing): Promise<PrebuiltView | null> {
  const v = views.get(trace);
  if (!v) return Promise.resolve(null);
  let p = v.bySpacing.get(spacing);
  if (!p && !v.session) return Promise.resolve(null);
  if (!p) v.bySpacing.set(spacing, (p = (v.session as SimSession).view(v.run, spacing)));
  return p;
}

// The whole run's lane aggregates, sent by the worker before the timeline's model.
const overviews = new WeakMap<Trace, Promise<LaneBuckets | null>>();

/**
 * The whole run's per-CPU aggregates (model/traceWindow.ts), which the worker sends before the
 * timeline's model so the page can draw the run's shape at once; null when it sends none.
 */
export function overviewOf(trace: Trace): Promise<LaneBuckets | null> {
  return overviews.get(trace) ?? Promise.resolve(null);
}

/** Rows touching a window, as the worker that keeps the trace sent them (see windowServer.ts). */
export interface WindowRows {
  /** Trace row numbers, in trace order. */
  rows: Int32Array;
  /** Every column at those rows. */
  columns: Columns;
  /** Rows touching the window in all (more than listed when over the limit asked for). */
  total: number;
}

/** What the worker holds for a run, per event (issue 19's budget is 40 B). */
export interface WorkerMemory {
  rows: number;
  wasmBytes: number;
  columnBytes: number;
  indexBytes: number;
  indexMs: number;
}

/** A row and its causes, as the worker read them (see windowServer.ts chain). */
export interface ChainRows {
  /** Trace rows, oldest cause first, the asked row last. */
  rows: Int32Array;
  columns: Columns;
}

/**
 * Window questions about one finished run, answered by the worker that ran it and keeps its
 * columns. Latest wins per kind of question: a promise resolves null when a newer question of
 * its kind overtook it (its answer would draw an old window). Rejects when the run is gone.
 */
export interface TraceWindow {
  lanes(t0: number, t1: number, buckets: number, priority?: number[]): Promise<LaneBuckets | null>;
  rows(t0: number, t1: number, limit: number): Promise<WindowRows | null>;
  memory(): Promise<WorkerMemory | null>;
  chain(row: number): Promise<ChainRows | null>;
  /** One page of the event log of [t0, t1] (rows starting in it, from `offset`). */
  log(t0: number, t1: number, offset: number, limit: number): Promise<LogPage | null>;
  /** The latency lens's intervals touching [t0, t1]; `intervals` null: zoom in. */
  lens(
    t0: number,
    t1: number,
    kinds: readonly string[],
    contextSwitchNs: number,
  ): Promise<{ intervals: LensInterval[] | null } | null>;
  /** IPI and ack arrows touching [t0, t1]; `arrows` null when more than `limit` (or unread). */
  arrows(
    t0: number,
    t1: number,
    limit: number,
  ): Promise<{ arrows: WindowArrow[] | null; total: number } | null>;
  /** The run's flushes (flushMatch.ts flushesOf, read in the worker; `flushOf` is empty). */
  flushes(strings: readonly string[]): Promise<FlushesOf | null>;
  /** The rows touching [t0, t1] for an export (as `rows`, asked apart from the timeline's). */
  exportRows(t0: number, t1: number, limit: number): Promise<WindowRows | null>;
  /** Rows first … first + count − 1 (at most rowSource.ts SLICE), for a whole-run export. */
  slice(first: number, count: number): Promise<RowSlice | null>;
  /** Rows of `kinds` touching [t0, t1] on `cpus` (model/guide.ts RowPicker), with columns. */
  pick(
    kinds: readonly number[],
    cpus: readonly number[],
    t0: number,
    t1: number,
    limit: number,
  ): Promise<{ rows: Int32Array; columns: Columns } | null>;
  /** The run's kinds, unpaired IPI sends and first invariant violations (windowServer.ts). */
  facts(): Promise<RunFactsAnswer | null>;
  /** How far the lens's intervals of `kinds` reach on each CPU (model/lensExtent.ts). */
  lensExtents(kinds: readonly string[], contextSwitchNs: number): Promise<LensExtent[] | null>;
  /** The tlb_gen charts of [t0, t1] at `width` columns; `mms` null: none, `note` says why. */
  generations(
    t0: number,
    t1: number,
    width: number,
  ): Promise<{ mms: WindowGenerations[] | null; note: string } | null>;
  /**
   * `count` steps from row `row` (or the cursor at `t` when none is selected) in direction
   * `dir` (model/stepping.ts walkRows); count 0: row `row`'s own time. Row -1: no such row.
   */
  step(
    row: number | null,
    t: number,
    dir: 1 | -1,
    count: number,
  ): Promise<{ row: number; time: number; dur: number } | null>;
  /** Row `row`'s flush: its FlushRange row, or -1 outside every flush. */
  flushOf(row: number): Promise<number | null>;
  /**
   * "Why was each flush slow?" over the whole run, in the worker that keeps it, a slice at a
   * time with progress (workers/analysisJob.ts); cancel() ends it with a null analysis.
   */
  analyze(ask: AnalysisAsk, onProgress: (rows: number, total: number) => void): AnalysisJob;
  /** A page of [t0, t1]'s rows belonging to the flushes `flushes` (model/flushRows.ts). */
  diffLog(
    flushes: Int32Array,
    t0: number,
    t1: number,
    offset: number,
    limit: number,
  ): Promise<WindowRows | null>;
}

export interface RunFactsAnswer {
  kinds: number[];
  unpaired: number;
  violations: { rows: Int32Array; columns: Columns };
}

/** Consecutive rows of a run, as the worker read them; a kept recording's own columns too. */
export interface RowSlice {
  first: number;
  columns: Columns;
  extras?: SliceColumns;
}

/** A page of a window's event log, as the worker read it. */
export interface LogPage {
  /** The run's row number of the page's first row; the others follow it. */
  first: number;
  /** Rows starting in the window in all. */
  total: number;
  columns: Columns;
}

// Traces kept by some other worker than a SimSession's (an imported recording's).
const ownWindows = new WeakMap<Trace, TraceWindow>();

/** Window questions about `trace` answered by another worker (recording/window.ts). */
export function registerTraceWindow(trace: Trace, w: TraceWindow): void {
  ownWindows.set(trace, w);
}

/** Window questions about `trace`'s run, or null when no worker keeps it (Node, small recordings). */
export function traceWindowOf(trace: Trace): TraceWindow | null {
  const own = ownWindows.get(trace);
  if (own) return own;
  const v = views.get(trace);
  if (!v?.session) return null;
  const session = v.session;
  return windowOver(
    (req) => session.query(req),
    v.run,
    (run, ask, onProgress) => session.analyze(run, ask, onProgress),
  );
}

/**
 * The window questions as promises, over whichever worker answers `query` for run `run` (a
 * SimSession's, or the worker that kept an imported recording): one mapping of answers to
 * values for both.
 */
export function windowOver(
  query: (req: QueryRequest) => Promise<QueryMessage | null>,
  run: number,
  analyze: (
    run: number,
    ask: AnalysisAsk,
    onProgress: (rows: number, total: number) => void,
  ) => AnalysisJob,
): TraceWindow {
  return {
    analyze: (ask, onProgress) => analyze(run, ask, onProgress),
    lanes: (t0, t1, buckets, priority) =>
      query({ type: 'lanes', id: 0, run, t0, t1, buckets, priority }).then((m) =>
        m?.type === 'lanes' ? m.buckets : null,
      ),
    rows: (t0, t1, limit) =>
      query({ type: 'rows', id: 0, run, t0, t1, limit }).then((m) =>
        m?.type === 'rows' ? { rows: m.rows, columns: m.columns, total: m.total } : null,
      ),
    memory: () =>
      query({ type: 'memory', id: 0, run }).then((m) =>
        m?.type === 'memory'
          ? {
              rows: m.rows,
              wasmBytes: m.wasmBytes,
              columnBytes: m.columnBytes,
              indexBytes: m.indexBytes,
              indexMs: m.indexMs,
            }
          : null,
      ),
    chain: (row) =>
      query({ type: 'chain', id: 0, run, row }).then((m) =>
        m?.type === 'chain' ? { rows: m.rows, columns: m.columns } : null,
      ),
    log: (t0, t1, offset, limit) =>
      query({ type: 'log', id: 0, run, t0, t1, offset, limit }).then((m) =>
        m?.type === 'log' ? { first: m.first, total: m.total, columns: m.columns } : null,
      ),
    lens: (t0, t1, kinds, contextSwitchNs) =>
      query({ type: 'lens', id: 0, run, t0, t1, kinds: [...kinds], contextSwitchNs }).then((m) =>
        m?.type === 'lens' ? { intervals: m.intervals } : null,
      ),
    arrows: (t0, t1, limit) =>
      query({ type: 'arrows', id: 0, run, t0, t1, limit }).then((m) =>
        m?.type === 'arrows' ? { arrows: m.arrows, total: m.total } : null,
      ),
    flushes: (strings) =>
      query({ type: 'flushes', id: 0, run, strings: [...strings] }).then((m) =>
        m?.type === 'flushes'
          ? { flushes: m.flushes, unattributed: m.unattributed, flushOf: new Int32Array(0) }
          : null,
      ),
    pick: (kinds, cpus, t0, t1, limit) =>
      query({
        type: 'pick',
        id: 0,
        run,
        kinds: [...kinds],
        cpus: [...cpus],
        t0,
        t1,
        limit,
      }).then((m) => (m?.type === 'pick' ? { rows: m.rows, columns: m.columns } : null)),
    facts: () =>
      query({ type: 'facts', id: 0, run }).then((m) =>
        m?.type === 'facts'
          ? { kinds: m.kinds, unpaired: m.unpaired, violations: m.violations }
          : null,
      ),
    lensExtents: (kinds, contextSwitchNs) =>
      query({ type: 'lensExtent', id: 0, run, kinds: [...kinds], contextSwitchNs }).then((m) =>
        m?.type === 'lensExtent' ? m.extents : null,
      ),
    generations: (t0, t1, width) =>
      query({ type: 'generations', id: 0, run, t0, t1, width }).then((m) =>
        m?.type === 'generations' ? { mms: m.mms, note: m.note } : null,
      ),
    slice: (first, count) =>
      query({ type: 'slice', id: 0, run, first, count }).then((m) =>
        m?.type === 'slice' ? { first: m.first, columns: m.columns, extras: m.extras } : null,
      ),
    step: (row, t, dir, count) =>
      query({ type: 'step', id: 0, run, row, t, dir, count }).then((m) =>
        m?.type === 'step' ? { row: m.row, time: m.time, dur: m.dur } : null,
      ),
    flushOf: (row) =>
      query({ type: 'flushof', id: 0, run, row }).then((m) =>
        m?.type === 'flushof' ? m.flush : null,
      ),
    diffLog: (flushes, t0, t1, offset, limit) =>
      query({ type: 'difflog', id: 0, run, flushes, t0, t1, offset, limit }).then((m) =>
        m?.type === 'difflog' ? { rows: m.rows, columns: m.columns, total: m.total } : null,
      ),
    exportRows: (t0, t1, limit) =>
      query({ type: 'export', id: 0, run, t0, t1, limit }).then((m) =>
        m?.type === 'export' ? { rows: m.rows, columns: m.columns, total: m.total } : null,
      ),
  };
}

/** A timeline model some other worker built for `trace` (an imported recording's). */
export function registerPrebuiltView(trace: Trace, view: PrebuiltView): void {
  views.set(trace, {
    session: null,
    run: -1,
    bySpacing: new Map([[view.spacing, Promise.resolve(view)]]),
  });
}

export interface SessionRunOptions extends RunOptions {
  /** Also build the timeline's model off the main thread (default true). */
  view?: boolean;
  /** Keep a run of more rows than this in the worker (protocol.ts REMOTE_ABOVE_ROWS). */
  remoteAbove?: number;
  /**
   * Only the run's summary is wanted: its trace comes back empty, sparing the copy of every
   * column out of WASM memory and across to the page (the Data view's predictions, the
   * kernel history). Implies no view.
   */
  summaryOnly?: boolean;
}

/** The simulator trapped (a bug): its worker has been replaced; the message says so. */
export class SimulatorCrash extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimulatorCrash';
  }
}

/** A run stopped by the user (or superseded by a newer run). */
export class RunCancelled extends Error {
  constructor() {
    super('Run cancelled');
    this.name = 'RunCancelled';
  }
}

interface Pending {
  resolve: (r: RunResult) => void;
  view?: (v: PrebuiltView | null) => void;
  wantsView?: boolean;
  described?: (infos: ScenarioInfo[]) => void;
  snapshot?: (json: string) => void;
  query?: (msg: QueryMessage | null) => void;
  reject: (e: Error) => void;
  onProgress?: RunOptions['onProgress'];
  onCheckProgress?: (p: CheckProgress) => void;
}

/** How far an interleaving check has got. */
export interface CheckProgress {
  states: number;
  transitions: number;
  depth: number;
}

/** Runs scenarios in a dedicated worker; `cancel()` stops the current run at once. */
export class SimSession {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  /** The newest question asked of each type: older answers arrive too late to be drawn. */
  private latest = new Map<QueryRequest['type'], number>();
  /** Runs whose overview is still on its way, by id. */
  private overviewWaiters = new Map<number, (b: LaneBuckets | null) => void>();
  private readonly analyses = new AnalysisJobs();

  run(text: string, opts: SessionRunOptions = {}): Promise<RunResult> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const req: RunRequest = {
      type: 'run',
      id,
      text,
      overrides: opts.overrides ?? [],
      seed: opts.seed ?? 1,
      checkStep: opts.checkStep,
      view: !opts.summaryOnly && (opts.view ?? true),
      remoteAbove: opts.remoteAbove,
      summaryOnly: opts.summaryOnly,
    };
    return new Promise<RunResult>((resolve, reject) => {
      this.pending.set(id, {
        resolve,
        reject,
        onProgress: opts.onProgress,
        wantsView: req.view,
      });
      worker.postMessage(req);
    });
  }

  /**
   * Checks every interleaving of `text` (sim/check.ts) and resolves with a run whose `check`
   * is the verdict: the counterexample's trace when violated, else the seeded run's. Its
   * snapshots and window questions are answered like any run's.
   */
  check(
    text: string,
    opts: {
      overrides?: string[];
      seed?: number;
      onProgress?: (p: CheckProgress) => void;
      remoteAbove?: number;
    } = {},
  ): Promise<RunResult> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const req: CheckRequest = {
      type: 'check',
      id,
      text,
      overrides: opts.overrides ?? [],
      seed: opts.seed ?? 1,
      remoteAbove: opts.remoteAbove,
    };
    return new Promise<RunResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onCheckProgress: opts.onProgress, wantsView: true });
      worker.postMessage(req);
    });
  }

  /**
   * The machine's state at `t` of the last run this session finished, as the simulator's
   * snapshot JSON (see sim-wasm/src/snapshot.rs); '{}' before any run.
   */
  snapshot(t: number): Promise<string> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const req: SnapshotRequest = { type: 'snapshot', id, t };
    return new Promise<string>((resolve, reject) => {
      this.pending.set(id, { resolve: () => {}, snapshot: resolve, reject });
      worker.postMessage(req);
    });
  }

  /** The timeline model of run `run` (if it is still this worker's last) in `spacing`. */
  view(run: number, spacing: Spacing): Promise<PrebuiltView | null> {
    if (!this.worker) return Promise.resolve(null);
    const id = this.nextId++;
    const req: ViewRequest = { type: 'view', id, run, spacing };
    const view = this.viewReply(id);
    this.worker.postMessage(req);
    return view;
  }

  /** The 'view' message the worker will send under `id` (null if it goes away first). */
  private viewReply(id: number): Promise<PrebuiltView | null> {
    return new Promise((view) =>
      this.pending.set(id, { resolve: () => {}, reject: () => {}, view }),
    );
  }

  /**
   * Asks the worker about its last run (`req.id` is assigned here). Resolves null when a newer
   * question of the same type was asked meanwhile; rejects on the worker's error.
   */
  /** Starts the flush analysis of kept run `run` in the worker (TraceWindow.analyze). */
  analyze(
    run: number,
    ask: AnalysisAsk,
    onProgress: (rows: number, total: number) => void,
  ): AnalysisJob {
    const worker = this.worker;
    if (!worker) return { done: Promise.reject(new Error('that run is gone')), cancel: () => {} };
    return this.analyses.start((m) => worker.postMessage(m), this.nextId++, run, ask, onProgress);
  }

  query(req: QueryRequest): Promise<QueryMessage | null> {
    if (!this.worker) return Promise.reject(new Error('that run is gone'));
    const id = this.nextId++;
    this.latest.set(req.type, id);
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: () => {}, query: resolve, reject });
      worker.postMessage({ ...req, id });
    });
  }

  /** Parses scenarios without running them. */
  describe(texts: string[]): Promise<ScenarioInfo[]> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const req: DescribeRequest = { type: 'describe', id, texts };
    return new Promise<ScenarioInfo[]>((resolve, reject) => {
      this.pending.set(id, { resolve: () => {}, described: resolve, reject });
      worker.postMessage(req);
    });
  }

  /** Stops every run in flight; their promises reject with RunCancelled. */
  cancel(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const p of this.pending.values()) {
      p.reject(new RunCancelled());
      p.view?.(null);
    }
    this.pending.clear();
    this.dropOverviews();
    this.analyses.end('that run is gone');
  }

  dispose(): void {
    this.cancel();
  }

  /**
   * After a trap the worker's WASM instance is unusable: drop it (and what waits on it) so the
   * next request starts a fresh worker, without a reload.
   */
  private replaceWorker(): void {
    const old = this.worker;
    this.worker = null;
    old?.terminate();
    const err = new Error('The simulator was restarted after a crash; run again.');
    for (const p of this.pending.values()) {
      p.reject(err);
      p.view?.(null);
    }
    this.pending.clear();
    this.dropOverviews();
    this.analyses.end('the simulator was restarted after a crash');
  }

  /** Overviews that will not come now resolve null (their worker is gone). */
  private dropOverviews(): void {
    for (const r of this.overviewWaiters.values()) r(null);
    this.overviewWaiters.clear();
  }

  private settleQuery(p: Pending, msg: WorkerMessage): void {
    const resolve = p.query as (m: QueryMessage | null) => void;
    if (msg.type === 'query-error') p.reject(new Error(msg.message));
    else if (msg.type === 'stale') resolve(null);
    else if (!isQuery(msg))
      p.reject(new Error(`unexpected answer '${msg.type}' to a window question`));
    else if (this.latest.get(msg.type) !== msg.id) resolve(null);
    else resolve(msg);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(new URL('./simWorker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (e: MessageEvent<WorkerMessage>) => this.receive(e.data);
    w.onerror = (e) => {
      w.terminate();
      const err = new Error(`The simulator worker failed: ${e.message || 'unknown error'}`);
      for (const p of this.pending.values()) {
        p.reject(err);
        p.view?.(null);
      }
      this.pending.clear();
      this.dropOverviews();
      this.analyses.end(err.message);
      this.worker = null;
    };
    this.worker = w;
    return w;
  }

  private receive(msg: WorkerMessage): void {
    if (this.analyses.receive(msg)) return;
    if (msg.type === 'overview') {
      this.overviewWaiters.get(msg.id)?.(msg.buckets);
      this.overviewWaiters.delete(msg.id);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'progress') {
      p.onProgress?.(msg.events, msg.nowNs);
      return;
    }
    if (msg.type === 'check-progress') {
      p.onCheckProgress?.({ states: msg.states, transitions: msg.transitions, depth: msg.depth });
      return;
    }
    this.pending.delete(msg.id);
    if (p.query) {
      this.settleQuery(p, msg);
      return;
    }
    if (msg.type === 'view') {
      // The overview comes before the model; if it has not, it will not.
      this.overviewWaiters.get(msg.id)?.(null);
      this.overviewWaiters.delete(msg.id);
      p.view?.(msg.view);
      return;
    }
    if (msg.type === 'described') {
      p.described?.(msg.infos);
      return;
    }
    if (msg.type === 'snapshot') {
      p.snapshot?.(msg.json);
      return;
    }
    if (msg.type === 'error') {
      if (msg.trap) this.replaceWorker();
      p.reject(
        msg.scenario
          ? new ScenarioLoadError(msg.path, msg.line, msg.message)
          : msg.trap
            ? new SimulatorCrash(msg.message)
            : new Error(msg.message),
      );
      return;
    }
    if (msg.type !== 'done') return;
    const c = msg.columns;
    const trace = toTrace({
      ...c,
      cpus: msg.cpus,
      strings: msg.strings,
      ...(msg.remote ? { remote: msg.remote } : {}),
    });
    // The worker sends the timeline's model next, under the same id (not for a remote run:
    // its timeline asks for windows instead).
    const bySpacing = new Map<Spacing, Promise<PrebuiltView | null>>();
    if (p.wantsView && !msg.remote) {
      bySpacing.set('time', this.viewReply(msg.id));
      overviews.set(trace, new Promise((r) => this.overviewWaiters.set(msg.id, r)));
    }
    views.set(trace, { session: this, run: msg.id, bySpacing });
    p.resolve({
      title: msg.title,
      description: msg.description,
      summary: msg.summary,
      trace,
      info: msg.info,
      stepProblem: msg.stepProblem,
      budgetError: msg.budgetError,
      ...(msg.check ? { check: msg.check } : {}),
    });
  }
}
