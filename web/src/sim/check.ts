// The exhaustive interleaving checker of the WASM build (sim-wasm/src/check/, the `Checker`
// binding): opened like a simulator (a refused scenario is a ScenarioLoadError, a trap a
// WasmTrap), stepped in budgets of transitions so a worker can report progress and be
// cancelled between them. Its report's JSON shape (check::Report) is declared here once.
import { Checker, racesJson } from '../../../sim-wasm/pkg/tlbscope_sim.js';
import { CHECK_LIMITS } from './checkLimits';
import { ScenarioLoadError, WasmTrap, type Simulator } from './run';

/** One fired event of a counterexample (check::Step). */
export interface CheckStep {
  /** 1-based position in the interleaving. */
  n: number;
  cpu: number;
  time_ns: number;
  label: string;
  /** Trace rows the step wrote, [first, end). */
  rows: [number, number];
  /** Its number among the steps that went ahead of an earlier-due event that fires later. */
  race: number | null;
  /** The event it overtook. */
  overtook: string | null;
}

export interface Counterexample {
  path: number[];
  steps: CheckStep[];
  invariant: string;
  detail: string;
  cpu: number;
  violation_step: number;
  enabling_step: number | null;
  narration: string;
}

export type Verdict = 'holds' | 'violated' | 'bound_reached' | 'running';

/** check::Report, plus the seconds the caller timed (the search reads no clock). */
export interface CheckReport {
  verdict: Verdict;
  bound: 'states' | 'steps' | null;
  states: number;
  transitions: number;
  depth: number;
  stuck: number;
  counterexample: Counterexample | null;
  seconds: number;
  /**
   * The settings the scenario promises hold (its `[[expect.cases]]` with no violations, e.g. a
   * race's fixed designs): what the page offers to check beside it.
   */
  fixes: string[][];
  /**
   * The classes of interchangeable CPUs the symmetry reduction merged (check::Report's
   * `symmetric_cpus` when its `reductions` include `sym`), e.g. `[[2, 3]]`; empty otherwise.
   */
  symmetric?: number[][];
}

/** Transitions per `runFor` call between progress reports. */
export const CHECK_BUDGET = 1_000;

const VERDICTS: readonly string[] = ['holds', 'violated', 'bound_reached', 'running'];

/** The checker's report JSON, checked; throws naming what is missing. */
export function parseReport(json: string, seconds: number): CheckReport {
  const r = JSON.parse(json) as Partial<CheckReport> & {
    reductions?: string;
    symmetric_cpus?: number[][];
  };
  if (typeof r !== 'object' || r === null || !VERDICTS.includes(r.verdict as string))
    throw new Error(`the checker's report has no verdict: ${json.slice(0, 80)}`);
  for (const k of ['states', 'transitions', 'depth'] as const)
    if (typeof r[k] !== 'number') throw new Error(`the checker's report has no ${k}`);
  const cx = r.counterexample ?? null;
  if (r.verdict === 'violated' && (!cx || !Array.isArray(cx.steps)))
    throw new Error('the checker reports a violation without its counterexample');
  return {
    verdict: r.verdict as Verdict,
    bound: r.bound ?? null,
    states: r.states as number,
    transitions: r.transitions as number,
    depth: r.depth as number,
    stuck: r.stuck ?? 0,
    counterexample: cx,
    seconds,
    fixes: [],
    symmetric: r.reductions?.includes('sym') ? (r.symmetric_cpus ?? []) : [],
  };
}

/** The settings `sim`'s scenario promises hold: its `[[expect.cases]]` with no violations. */
export function fixesOf(sim: Simulator): string[][] {
  try {
    const e = JSON.parse(sim.expectJson()) as {
      cases?: { set?: string[]; violations?: string[] }[];
    };
    return (e.cases ?? [])
      .filter((c) => Array.isArray(c.set) && c.set.length > 0 && c.violations?.length === 0)
      .map((c) => c.set as string[]);
  } catch {
    return [];
  }
}

/** A race (R1–R18) the checker answers (check::Race): its scenario and the settings that fix it. */
export interface Race {
  id: string;
  title: string;
  scenario: string;
  /** Added to the scenario's own settings for the faulty design (empty: they are it). */
  faulty: string[];
  fixed: string[];
}

export function races(): Race[] {
  return JSON.parse(racesJson()) as Race[];
}

export type { Checker };

/** A checker for `text` with `overrides`, not yet run; errors sorted as openSimulator's. */
export function openChecker(
  text: string,
  overrides: string[],
  limits: { maxStates: number; maxSteps: number } = CHECK_LIMITS,
): Checker {
  try {
    return new Checker(text, overrides, limits.maxStates, limits.maxSteps);
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) throw new WasmTrap(e);
    if (typeof e === 'object' && e !== null && 'path' in e && 'line' in e && 'message' in e) {
      const err = e as { path: string; line: number; message: string };
      throw new ScenarioLoadError(err.path, err.line, err.message);
    }
    throw e;
  }
}

/**
 * Runs `checker` to its verdict, calling `onProgress` between budgets, and returns the report
 * and (for a violation) the counterexample as a finished simulator the caller frees. The
 * checker is freed here; a trap is a WasmTrap and leaves it unfreed (see sim/run.ts).
 */
export function finishCheck(
  checker: Checker,
  onProgress: (states: number, transitions: number, depth: number) => void,
  now: () => number,
): { report: CheckReport; counterexample: Simulator | null } {
  try {
    const t0 = now();
    let done = false;
    while (!done) {
      done = checker.runFor(CHECK_BUDGET);
      if (!done) {
        const r = JSON.parse(checker.reportJson()) as CheckReport;
        onProgress(r.states, r.transitions, r.depth);
      }
    }
    const report = parseReport(checker.reportJson(), (now() - t0) / 1000);
    const counterexample =
      report.verdict === 'violated' ? (checker.counterexample() ?? null) : null;
    checker.free();
    return { report, counterexample };
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) throw new WasmTrap(e);
    checker.free();
    throw e;
  }
}
