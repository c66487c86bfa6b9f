/// <reference lib="webworker" />
// The simulator's Web Worker: runs scenarios off the main thread in event budgets, reporting
// progress between budgets. Cancelling is terminating the worker (see session.ts).
import init, { Simulator } from '../../../sim-wasm/pkg/tlbscope_sim.js';
import wasmUrl from '../../../sim-wasm/pkg/tlbscope_sim_bg.wasm?url';
import { buffersOf, toPrebuilt } from '../model/prebuilt';
import { toTimelineModel } from '../model/timelineModel';
import { columnsOf, toTrace } from './trace';
import type {
  DescribeRequest,
  RunRequest,
  ScenarioInfo,
  SnapshotRequest,
  Step,
  ViewRequest,
  WorkerMessage,
} from './protocol';
import type { Spacing } from '../model/spacing';

const ready = init({ module_or_path: wasmUrl });
const BUDGET = 250_000;

function post(msg: WorkerMessage, transfer: Transferable[] = []) {
  (self as DedicatedWorkerGlobalScope).postMessage(msg, transfer);
}

function infoOf(sim: Simulator): ScenarioInfo {
  return {
    title: sim.title,
    hook: sim.summary,
    description: sim.description,
    arch: sim.arch,
    guide: sim.guide,
    steps: JSON.parse(sim.stepsJson()) as Step[],
    claims: JSON.parse(sim.claimsJson()) as string[],
    settings: JSON.parse(sim.settingsJson()) as Record<string, string>,
    costs: JSON.parse(sim.costsJson()) as Record<string, number>,
    error: null,
  };
}

function describe(req: DescribeRequest) {
  const infos = req.texts.map((text): ScenarioInfo => {
    try {
      const sim = new Simulator(text, [], 1);
      const info = infoOf(sim);
      sim.free();
      return info;
    } catch (err) {
      if (err instanceof WebAssembly.RuntimeError) throw err;
      const msg = String(err);
      return {
        title: '',
        hook: '',
        description: '',
        arch: '',
        guide: 0,
        steps: [],
        claims: [],
        settings: {},
        costs: {},
        error: msg,
      };
    }
  });
  post({ type: 'described', id: req.id, infos });
}

// The last finished run stays alive so the inspector can ask for state snapshots of it.
let last: Simulator | null = null;
let lastRun = -1;

self.onmessage = async (
  e: MessageEvent<RunRequest | DescribeRequest | SnapshotRequest | ViewRequest>,
) => {
  const req = e.data;
  await ready;
  try {
    handle(req);
  } catch (err) {
    // Scenario and run errors are answered inside; what reaches here is a trap (or a bug) in
    // a describe, snapshot or view request, or in building a Simulator.
    const trap = err instanceof WebAssembly.RuntimeError;
    const message = trap ? trapMessage(err) : String(err);
    post({ type: 'error', id: req.id, path: '', line: 0, message, scenario: false, trap });
  }
};

function handle(req: RunRequest | DescribeRequest | SnapshotRequest | ViewRequest) {
  if (req.type === 'describe') {
    describe(req);
    return;
  }
  if (req.type === 'view') {
    if (last && lastRun === req.run) postView(req.id, last, req.spacing);
    else post({ type: 'view', id: req.id, view: null, error: 'that run is gone' });
    return;
  }
  if (req.type === 'snapshot') {
    post({ type: 'snapshot', id: req.id, json: last ? last.snapshotJson(req.t) : '{}' });
    return;
  }
  last?.free();
  last = null;
  lastRun = -1;
  let sim: Simulator;
  try {
    sim = new Simulator(req.text, req.overrides, req.seed);
  } catch (err) {
    if (err instanceof WebAssembly.RuntimeError) throw err;
    const x = err as { path?: string; line?: number; message?: string };
    const scenario = typeof x === 'object' && x !== null && 'path' in x;
    post({
      type: 'error',
      id: req.id,
      path: scenario ? (x.path ?? '') : '',
      line: scenario ? (x.line ?? 0) : 0,
      message: scenario ? (x.message ?? String(err)) : String(err),
      scenario,
    });
    return;
  }
  try {
    while (!sim.runFor(BUDGET))
      post({ type: 'progress', id: req.id, events: sim.events, nowNs: sim.nowNs });
    const columns = columnsOf(sim);
    post(
      {
        type: 'done',
        id: req.id,
        title: sim.title,
        description: sim.description,
        cpus: sim.cpus,
        summary: JSON.parse(sim.summaryJson()),
        columns,
        strings: sim.strings(),
        info: infoOf(sim),
        stepProblem: req.checkStep === undefined ? null : sim.checkStep(req.checkStep),
        budgetError: sim.budgetError || null,
      },
      Object.values(columns).map((c) => (c as Float64Array).buffer),
    );
    last = sim;
    lastRun = req.id;
  } catch (err) {
    // A trapped instance is unusable: freeing it throws and would hide the real error. The
    // page replaces this worker (and its WASM instance) on a trap.
    const trap = err instanceof WebAssembly.RuntimeError;
    if (!trap) sim.free();
    post({
      type: 'error',
      id: req.id,
      path: '',
      line: 0,
      message: trap ? trapMessage(err) : String(err),
      scenario: false,
      trap,
    });
    return;
  }
  if (req.view) postView(req.id, sim, 'time');
}

function trapMessage(err: WebAssembly.RuntimeError): string {
  return `The simulator crashed (WebAssembly trap: ${err.message}). This is a bug in tlbscope: the run's settings reproduce it. A fresh simulator has been started.`;
}

// The page has the trace already; the timeline's model (indexes, arrows, generations) is built
// here from a second copy of the columns, so the page stays responsive meanwhile.
function postView(id: number, sim: Simulator, spacing: Spacing) {
  try {
    const trace = toTrace({ ...columnsOf(sim), cpus: sim.cpus, strings: sim.strings() });
    const view = toPrebuilt(toTimelineModel(trace, spacing));
    post({ type: 'view', id, view }, buffersOf(view));
  } catch (err) {
    post({ type: 'view', id, view: null, error: String(err) });
  }
}
