// The page's side of the simulator worker (simWorker.ts): runs scenarios off the main thread
// and hands back the same RunResult as sim/run.ts's runScenario (Node), plus the timeline's
// model the worker built. Nothing above this folder knows which one ran.
import type { PrebuiltView } from '../model/prebuilt';
import type { Spacing } from '../model/spacing';
import { ScenarioLoadError, type RunOptions, type RunResult } from '../sim/run';
import type { ScenarioInfo } from '../sim/scenario';
import { toTrace, type Trace } from '../trace/trace';
import type {
  DescribeRequest,
  RunRequest,
  SnapshotRequest,
  ViewRequest,
  WorkerMessage,
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
  reject: (e: Error) => void;
  onProgress?: RunOptions['onProgress'];
}

/** Runs scenarios in a dedicated worker; `cancel()` stops the current run at once. */
export class SimSession {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();

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
      view: opts.view ?? true,
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
      this.worker = null;
    };
    this.worker = w;
    return w;
  }

  private receive(msg: WorkerMessage): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'progress') {
      p.onProgress?.(msg.events, msg.nowNs);
      return;
    }
    this.pending.delete(msg.id);
    if (msg.type === 'view') {
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
    const c = msg.columns;
    const trace = toTrace({ ...c, cpus: msg.cpus, strings: msg.strings });
    // The worker sends the timeline's model next, under the same id.
    const bySpacing = new Map<Spacing, Promise<PrebuiltView | null>>();
    if (p.wantsView) bySpacing.set('time', this.viewReply(msg.id));
    views.set(trace, { session: this, run: msg.id, bySpacing });
    p.resolve({
      title: msg.title,
      description: msg.description,
      summary: msg.summary,
      trace,
      info: msg.info,
      stepProblem: msg.stepProblem,
      budgetError: msg.budgetError,
    });
  }
}
