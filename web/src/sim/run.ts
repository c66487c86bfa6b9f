// The one way the simulator is run and what goes wrong is translated, shared by the page's
// worker (workers/simWorker.ts), Node callers (runScenario: tests, e2e fixtures) and the CLI
// (web/cli/run.mjs):
// - a scenario the simulator refuses becomes a ScenarioLoadError with its field and line;
// - a WebAssembly trap becomes a WasmTrap, and the trapped instance is never freed (freeing it
//   throws "attempted to take ownership of Rust value while it was borrowed" and hides the trap);
// - a run its budget stopped is a result, not an error: `budgetError` says what stopped it and
//   the summary and trace are the partial run.
import { Simulator } from '../../../sim-wasm/pkg/tlbscope_sim.js';
import { parseSummary, type Summary } from '../trace/summary';
import { toTrace, type Columns, type Trace } from '../trace/trace';
import type { CheckReport } from './check';
import { infoOf, type ScenarioInfo } from './scenario';

export type { Simulator };

/** The WASM module's simulator class: this build's import, or a module the CLI loaded itself. */
export interface SimulatorApi {
  Simulator: new (text: string, overrides: string[], seed: number) => Simulator;
}

/** The simulator of this build (initialised by sim/wasm.ts in the page, sim/testing.ts in Node). */
export const thisBuild: SimulatorApi = { Simulator };

/** Events per `runFor` call between progress reports. */
const BUDGET = 250_000;

/** A scenario the simulator refused, with the field and line at fault. */
export class ScenarioLoadError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(
      [line ? `line ${line}` : '', path, detail].filter(Boolean).join(': ') || 'invalid scenario',
    );
    this.name = 'ScenarioLoadError';
  }
}

/** The WASM instance trapped: a bug in tlbscope; the instance is unusable from here on. */
export class WasmTrap extends Error {
  constructor(readonly trap: WebAssembly.RuntimeError) {
    super(`WebAssembly trap: ${trap.message}`);
    this.name = 'WasmTrap';
  }
}

/** What the simulator throws for a scenario it refuses (lib.rs's ScenarioError). */
interface WasmScenarioError {
  path: string;
  line: number;
  message: string;
}

function isWasmScenarioError(e: unknown): e is WasmScenarioError {
  return typeof e === 'object' && e !== null && 'path' in e && 'line' in e && 'message' in e;
}

/**
 * A simulator for `text` with `overrides` and `seed`, not yet run. Throws ScenarioLoadError for
 * a refused scenario, WasmTrap for a trap, and anything else as it came.
 */
export function openSimulator(
  api: SimulatorApi,
  text: string,
  overrides: string[],
  seed: number,
): Simulator {
  try {
    return new api.Simulator(text, overrides, seed);
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) throw new WasmTrap(e);
    if (isWasmScenarioError(e)) throw new ScenarioLoadError(e.path, e.line, e.message);
    throw e;
  }
}

/** A run that reached its end or its budget. */
export interface Finished {
  sim: Simulator;
  summary: Summary;
  /** What stopped the run early (max_events, max_memory_mb) and how to raise it; else null. */
  budgetError: string | null;
}

export interface FinishOptions {
  /** Called between budgets of events; without it the run goes to its end in one call. */
  onProgress?: (events: number, nowNs: number) => void;
  /** Leave the simulator alive for the caller (who frees it later); default false. */
  keep?: boolean;
}

/**
 * Runs an opened simulator to its end and returns what `use` makes of it, freeing the
 * simulator (unless `keep`) and translating a trap into WasmTrap; other errors pass as they came.
 */
export function finishRun<T>(
  sim: Simulator,
  use: (run: Finished) => T,
  opts: FinishOptions = {},
): T {
  let value: T;
  try {
    if (opts.onProgress) {
      while (!sim.runFor(BUDGET)) opts.onProgress(sim.events, sim.nowNs);
    } else {
      sim.run();
    }
    value = use({
      sim,
      summary: parseSummary(sim.summaryJson()),
      budgetError: sim.budgetError || null,
    });
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) throw new WasmTrap(e);
    sim.free();
    throw e;
  }
  if (!opts.keep) sim.free();
  return value;
}

/** Rows per slice when columns are copied out of WASM memory. */
export const SLICE_ROWS = 1 << 16;

type ColumnName = keyof Columns;
type Column<K extends ColumnName> = Columns[K];
const COLUMN_TYPES: { [K in ColumnName]: new (n: number) => Column<K> } = {
  time: Float64Array,
  dur: Float64Array,
  cpu: Uint16Array,
  kind: Uint8Array,
  mm: Uint16Array,
  asid: Uint16Array,
  gen: Uint32Array,
  addr: Float64Array,
  arg: Float64Array,
  parent: Int32Array,
};

/**
 * Rows [start, end) of one column, copied out of WASM memory a slice at a time: the simulator
 * keeps its trace narrow and widens only the slice asked for, so WASM memory never holds a whole
 * wide column beside the trace (which, as linear memory never shrinks, would stay held).
 */
export function columnRange<K extends ColumnName>(
  sim: Simulator,
  name: K,
  start = 0,
  end = sim.rows,
): Column<K> {
  const from = Math.max(0, Math.min(start, sim.rows));
  const to = Math.max(from, Math.min(end, sim.rows));
  const out = new COLUMN_TYPES[name](to - from);
  const get = sim[name].bind(sim) as (a: number, b: number) => Column<K>;
  for (let row = from; row < to; row += SLICE_ROWS) {
    out.set(get(row, Math.min(to, row + SLICE_ROWS)), row - from);
  }
  return out;
}

/** Copies each column out of WASM memory once (the worker transfers them on). */
export function columnsOf(sim: Simulator): Columns {
  return {
    time: columnRange(sim, 'time'),
    dur: columnRange(sim, 'dur'),
    cpu: columnRange(sim, 'cpu'),
    kind: columnRange(sim, 'kind'),
    mm: columnRange(sim, 'mm'),
    asid: columnRange(sim, 'asid'),
    gen: columnRange(sim, 'gen'),
    addr: columnRange(sim, 'addr'),
    arg: columnRange(sim, 'arg'),
    parent: columnRange(sim, 'parent'),
  };
}

/** Copies every column out of a finished simulator, once. */
export function traceOf(sim: Simulator): Trace {
  return toTrace({ cpus: sim.cpus, strings: sim.strings(), ...columnsOf(sim) });
}

export interface RunResult {
  title: string;
  description: string;
  trace: Trace;
  summary: Summary;
  info: ScenarioInfo;
  /** Problem found checking the requested step against this run ('' = fits; null = not asked). */
  stepProblem: string | null;
  /**
   * Set when the run's budget (max_events, max_memory_mb) stopped it before its work was done:
   * what stopped it and how to raise it. The trace and summary are the partial run.
   */
  budgetError: string | null;
  /**
   * Set when this run answers an interleaving check (sim/check.ts): the verdict; the trace is
   * then the counterexample's when it was violated, else the seeded run's.
   */
  check?: CheckReport;
}

export interface RunOptions {
  overrides?: string[];
  seed?: number;
  /** Check this step (0-based) against the finished run. */
  checkStep?: number;
  onProgress?: (events: number, nowNs: number) => void;
}

/** What the page shows of a finished run, trace included. */
export function resultOf({ sim, summary, budgetError }: Finished, checkStep?: number): RunResult {
  return {
    title: sim.title,
    description: sim.description,
    trace: traceOf(sim),
    summary,
    info: infoOf(sim),
    stepProblem: checkStep === undefined ? null : sim.checkStep(checkStep),
    budgetError,
  };
}

/** Synchronous run on the current thread (Node tests, e2e fixtures). */
export function runScenario(text: string, opts: RunOptions = {}): RunResult {
  const sim = openSimulator(thisBuild, text, opts.overrides ?? [], opts.seed ?? 1);
  return finishRun(sim, (run) => resultOf(run, opts.checkStep), { onProgress: opts.onProgress });
}
