// One simulator run for the CLI, and the expansion of sweep lists into runs. The run itself and
// the sorting of what goes wrong are web/src/sim/run.ts, shared with the page's worker; this
// file only words the outcome for a terminal (file:line prefixes, the reproducing command).
import { finishRun, openSimulator, ScenarioLoadError, WasmTrap } from '../src/sim/run';
/** @import { Simulator, SimulatorApi } from '../src/sim/run' */
/** @import { Summary } from '../src/trace/summary' */
/** @import { Trace } from '../src/trace/trace' */

/**
 * One finished run as the CLI reports it.
 * @typedef {object} CliRun
 * @property {string[]} overrides
 * @property {number} seed
 * @property {string | undefined} arch
 * @property {number} cpus
 * @property {Summary} summary
 * @property {Record<string, number>} costs  every cost the run used, by name
 * @property {string | null} budgetError
 * @property {Trace | undefined} trace
 */

export class ScenarioFailure extends Error {
  name = 'ScenarioFailure';
}

/**
 * `keep(sim)`, if given, is called on the finished simulator and its result returned as `trace`.
 * @param {SimulatorApi} wasm
 * @param {string} text
 * @param {string} file
 * @param {string[]} overrides
 * @param {number} seed
 * @param {(sim: Simulator) => Trace} [keep]
 * @returns {CliRun}
 */
export function runOnce(wasm, text, file, overrides, seed, keep) {
  let sim;
  try {
    sim = openSimulator(wasm, text, overrides, seed);
  } catch (e) {
    if (e instanceof WasmTrap) throw new SimulatorTrap(e.trap, file, overrides, seed);
    const line = e instanceof ScenarioLoadError ? e.line : 0;
    const where = [file, line ? String(line) : ''].filter(Boolean).join(':');
    const what =
      e instanceof ScenarioLoadError
        ? `${e.path ? `${e.path}: ` : ''}${e.detail}`
        : e && typeof e === 'object' && 'message' in e
          ? e.message
          : String(e);
    throw new ScenarioFailure(`${where}: ${what}`);
  }
  let result;
  try {
    result = finishRun(sim, ({ summary, budgetError }) => ({
      overrides,
      seed,
      arch: typeof sim.arch === 'string' ? sim.arch : undefined,
      cpus: sim.cpus,
      summary,
      costs: JSON.parse(sim.costsJson()),
      budgetError,
      trace: keep ? keep(sim) : undefined,
    }));
  } catch (e) {
    if (e instanceof WasmTrap) throw new SimulatorTrap(e.trap, file, overrides, seed);
    throw e;
  }
  if (result.budgetError) throw new BudgetStop(`${file}: ${result.budgetError}`, result);
  return result;
}

/** The run's budget stopped it early; `partial` is the run as far as it got. */
export class BudgetStop extends ScenarioFailure {
  name = 'BudgetStop';
  /**
   * @param {string} message
   * @param {CliRun} partial
   */
  constructor(message, partial) {
    super(message);
    this.partial = partial;
  }
}

/** The WASM instance trapped: a bug in tlbscope, reported as what it is. */
export class SimulatorTrap extends Error {
  name = 'SimulatorTrap';
  /**
   * @param {WebAssembly.RuntimeError} trap
   * @param {string} file
   * @param {string[]} overrides
   * @param {number} seed
   */
  constructor(trap, file, overrides, seed) {
    const how = [...overrides.map((o) => `--set ${o}`), `--seed ${seed}`].join(' ');
    super(
      `the simulator crashed (WebAssembly trap: ${trap.message}) running ${file} ${how}; ` +
        'this is a bug in tlbscope: please report it with this command line',
    );
    this.trap = trap;
  }
}

/**
 * Every combination of the --vary lists, as override lists, in a stable order.
 * @param {{ key: string, values: string[] }[]} vary
 * @returns {string[][]}
 */
export function expandSweep(vary) {
  return vary.reduce(
    /** @param {string[][]} combos */
    (combos, { key, values }) => combos.flatMap((c) => values.map((v) => [...c, `${key}=${v}`])),
    [[]],
  );
}
