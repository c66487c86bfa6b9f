// Runs a scenario to completion and hands back its trace and summary. Async by design so the
// simulator can move into a Web Worker without changing any caller.
import { Simulator } from '../../../sim-wasm/pkg/tlbscope_sim.js';
import { toTrace, type Summary, type Trace } from './trace';

export interface RunResult {
  title: string;
  description: string;
  trace: Trace;
  summary: Summary;
}

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

interface WasmScenarioError {
  path: string;
  line: number;
  message: string;
}

function isWasmScenarioError(e: unknown): e is WasmScenarioError {
  return typeof e === 'object' && e !== null && 'path' in e && 'line' in e && 'message' in e;
}

/** Events processed between progress callbacks: small enough to keep frames responsive. */
const BUDGET = 200_000;

export interface RunOptions {
  overrides?: string[];
  seed?: number;
  onProgress?: (events: number) => void;
}

export function runScenario(text: string, opts: RunOptions = {}): RunResult {
  let sim: Simulator;
  try {
    sim = new Simulator(text, opts.overrides ?? [], opts.seed ?? 1);
  } catch (e) {
    if (isWasmScenarioError(e)) throw new ScenarioLoadError(e.path, e.line, e.message);
    throw e;
  }
  try {
    while (!sim.runFor(BUDGET)) opts.onProgress?.(sim.events);
    return {
      title: sim.title,
      description: sim.description,
      trace: toTrace(sim),
      summary: JSON.parse(sim.summaryJson()) as Summary,
    };
  } finally {
    sim.free();
  }
}
