/// <reference lib="webworker" />
// The simulator's Web Worker: runs scenarios off the main thread in event budgets, reporting
// progress between budgets, then builds the timeline's model of the run here too, so the page
// stays responsive meanwhile. It lives above model/ (not in sim/) because it joins the two:
// sim/ runs the WASM build, model/ turns the trace into views. Cancelling is terminating the
// worker (see session.ts).
import { tooBigToCheck } from '../model/check';
import { buffersOf, toPrebuilt } from '../model/prebuilt';
import type { Spacing } from '../model/spacing';
import { toTimelineModel } from '../model/timelineModel';
import {
  columnRange,
  columnsOf,
  finishRun,
  openSimulator,
  ScenarioLoadError,
  thisBuild,
  traceOf,
  WasmTrap,
  type Simulator,
} from '../sim/run';
import { finishCheck, fixesOf, openChecker, type CheckReport } from '../sim/check';
import { infoOf, unparsedInfo } from '../sim/scenario';
import { loadSimulator, wasmMemoryBytes } from '../sim/wasm';
import { columnSource, type RowSource } from '../model/rowSource';
import { COLUMN_NAMES, noColumns, type Columns, type Trace } from '../trace/trace';
import { afterQueued } from './afterQueued';
import { cancelAnalysis, runAnalysis } from './analysisJob';
import { bucketBuffers, LatestQueue, WindowServer } from './windowServer';
import {
  isQuery,
  REMOTE_ABOVE_ROWS,
  type AnalyzeCancel,
  type AnalyzeRequest,
  type CheckRequest,
  type DescribeRequest,
  type QueryRequest,
  type RunRequest,
  type SnapshotRequest,
  type ViewRequest,
  type WorkerMessage,
} from './protocol';

/** Buckets per CPU of the overview sent after a run (the page's first picture of it). */
const OVERVIEW_BUCKETS = 1024;

/** The simulator's own trace as a RowSource: rows read out of its store a slice at a time. */
function wasmRows(sim: Simulator): RowSource {
  const rows = sim.rows;
  return { rows, read: (name, lo, hi) => columnRange(sim, name, lo, hi) };
}

function bytesOf(c: Columns): number {
  return COLUMN_NAMES.reduce((s, k) => s + c[k].byteLength, 0);
}

const ready = loadSimulator();

function post(msg: WorkerMessage, transfer: Transferable[] = []) {
  (self as DedicatedWorkerGlobalScope).postMessage(msg, transfer);
}

function describe(req: DescribeRequest) {
  const infos = req.texts.map((text) => {
    let sim: Simulator;
    try {
      sim = new thisBuild.Simulator(text, [], 1);
    } catch (err) {
      if (err instanceof WebAssembly.RuntimeError) throw new WasmTrap(err);
      return unparsedInfo(String(err));
    }
    const info = infoOf(sim);
    sim.free();
    return info;
  });
  post({ type: 'described', id: req.id, infos });
}

// The last finished run stays alive so the inspector can ask for state snapshots of it, and
// its columns (one copy, which the timeline's model is built from too) answer window questions.
let last: Simulator | null = null;
let lastRun = -1;
let lastTrace: Trace | null = null;
let server: WindowServer | null = null;

const queries = new LatestQueue(
  (req) => {
    try {
      if (server) server.answer(req, post);
      else post({ type: 'query-error', id: req.id, message: 'no finished run to ask about' });
    } catch (err) {
      post({ type: 'query-error', id: req.id, message: String(err) });
    }
  },
  (id) => post({ type: 'stale', id }),
  afterQueued,
);

type Request =
  | RunRequest
  | CheckRequest
  | DescribeRequest
  | SnapshotRequest
  | ViewRequest
  | QueryRequest
  | AnalyzeRequest
  | AnalyzeCancel;

self.onmessage = async (e: MessageEvent<Request>) => {
  const req = e.data;
  await ready;
  if (isQuery(req)) {
    queries.push(req);
    return;
  }
  if (req.type === 'analyze') {
    const s = server;
    if (!s || s.run !== req.run)
      post({ type: 'analysis', id: req.id, analysis: null, error: 'no such run kept here' });
    // The pass stops when a newer run frees these rows (the simulator's, for a big run).
    else void runAnalysis(s.src, req, post, () => server === s);
    return;
  }
  if (req.type === 'analyze-cancel') {
    cancelAnalysis(req.id);
    return;
  }
  try {
    handle(req);
  } catch (err) {
    post(errorMessage(req.id, err));
  }
};

/** The page's words for what went wrong (see sim/run.ts for how errors are sorted). */
function errorMessage(id: number, err: unknown): WorkerMessage {
  if (err instanceof ScenarioLoadError) {
    return {
      type: 'error',
      id,
      path: err.path,
      line: err.line,
      message: err.detail,
      scenario: true,
    };
  }
  // A snapshot or view request reaches the instance directly, so its trap comes unwrapped.
  const trapped = err instanceof WebAssembly.RuntimeError ? new WasmTrap(err) : err;
  const trap = trapped instanceof WasmTrap;
  const message = trap
    ? `The simulator crashed (${trapped.message}). This is a bug in tlbscope: the run's settings reproduce it. A fresh simulator has been started.`
    : String(err);
  return { type: 'error', id, path: '', line: 0, message, scenario: false, trap };
}

function handle(req: Exclude<Request, QueryRequest | AnalyzeRequest | AnalyzeCancel>) {
  if (req.type === 'describe') {
    describe(req);
    return;
  }
  if (req.type === 'view') {
    // A remote run has no model: copying its columns to build one is what it avoids.
    if (last && lastRun === req.run && lastTrace) postView(req.id, lastTrace, req.spacing);
    else post({ type: 'view', id: req.id, view: null, error: 'that run is gone' });
    return;
  }
  if (req.type === 'snapshot') {
    post({ type: 'snapshot', id: req.id, json: last ? last.snapshotJson(req.t) : '{}' });
    return;
  }
  forgetLast();
  if (req.type === 'check') {
    check(req);
    return;
  }
  runAndPost(req, openSimulator(thisBuild, req.text, req.overrides, req.seed));
}

/**
 * An interleaving check: progress between budgets, then its verdict as a run the page draws
 * like any other (kept as the worker's last, so the inspector's snapshots replay it): the
 * counterexample when violated, else the scenario's seeded run.
 */
function check(req: CheckRequest) {
  // The seeded run is opened first: it parses the scenario (its settings decide whether the
  // check fits the page) and is what a check without a counterexample shows.
  const seeded = openSimulator(thisBuild, req.text, req.overrides, req.seed);
  const tooBig = tooBigToCheck(JSON.parse(seeded.settingsJson()) as Record<string, string>);
  if (tooBig) {
    seeded.free();
    throw new Error(`Not checked: this scenario is too big to check in the page: ${tooBig}.`);
  }
  let checked: ReturnType<typeof finishCheck>;
  try {
    checked = finishCheck(
      openChecker(req.text, req.overrides),
      (states, transitions, depth) =>
        post({ type: 'check-progress', id: req.id, states, transitions, depth }),
      () => performance.now(),
    );
  } catch (err) {
    if (!(err instanceof WasmTrap)) seeded.free();
    throw err;
  }
  const { report, counterexample } = checked;
  report.fixes = fixesOf(seeded);
  if (counterexample) seeded.free();
  runAndPost({ ...req, type: 'run', view: true }, counterexample ?? seeded, report);
}

function runAndPost(req: RunRequest, sim: Simulator, checked?: CheckReport) {
  let remote: { rows: number; end: number } | null = null;
  finishRun(
    sim,
    ({ summary, budgetError }) => {
      // A run too large to send is read where it is: one pass over the simulator's store
      // builds the window index, and the page gets the run's extent instead of its columns.
      if (req.view && sim.rows > (req.remoteAbove ?? REMOTE_ABOVE_ROWS)) {
        server = new WindowServer(req.id, wasmRows(sim), sim.cpus, wasmMemoryBytes);
        remote = { rows: sim.rows, end: server.end };
      }
      const columns = remote || req.summaryOnly ? noColumns() : columnsOf(sim);
      post(
        {
          type: 'done',
          id: req.id,
          title: sim.title,
          description: sim.description,
          cpus: sim.cpus,
          summary,
          columns,
          remote,
          strings: sim.strings(),
          info: infoOf(sim),
          stepProblem: req.checkStep === undefined ? null : sim.checkStep(req.checkStep),
          budgetError,
          ...(checked ? { check: checked } : {}),
        },
        Object.values(columns).map((c) => (c as Float64Array).buffer),
      );
    },
    {
      keep: true,
      onProgress: (events, nowNs) => post({ type: 'progress', id: req.id, events, nowNs }),
    },
  );
  keepLast(sim, req.id, req.view, remote !== null);
}

function forgetLast() {
  last?.free();
  last = null;
  lastRun = -1;
  lastTrace = null;
  server = null;
  queries.clear();
}

// The run every later question is about: the inspector's snapshots, the window questions.
function keepLast(sim: Simulator, id: number, view: boolean, remote: boolean) {
  last = sim;
  lastRun = id;
  // Only a run the page draws keeps a copy of its columns: the Data view's and the landing
  // page's runs (view: false) are read for their summaries and dropped. A remote run keeps
  // none: its store is the one copy.
  if (view && !remote) {
    const trace = traceOf(sim);
    lastTrace = trace;
    server = new WindowServer(id, columnSource(trace), trace.cpus, wasmMemoryBytes, () =>
      bytesOf(trace),
    );
    // The overview first: a pass over the columns, where the model takes several (seconds at
    // ten million rows); the page draws it meanwhile.
    const buckets = server.overview(OVERVIEW_BUCKETS);
    post({ type: 'overview', id, buckets }, bucketBuffers(buckets));
    postView(id, trace, 'time');
  }
}

// The page has the trace already; the timeline's model (indexes, arrows, generations) is built
// here from the worker's own copy of the columns (the one window questions read).
function postView(id: number, trace: Trace, spacing: Spacing) {
  try {
    const view = toPrebuilt(toTimelineModel(trace, spacing));
    post({ type: 'view', id, view }, buffersOf(view));
  } catch (err) {
    post({ type: 'view', id, view: null, error: String(err) });
  }
}
