// Command-line parsing for the tlbscope CLI. Every mistake is a UsageError naming the argument.
export class UsageError extends Error {}

export const USAGE = `usage:
  tlbscope list
  tlbscope settings [--format text|json]
  tlbscope run <scenario file|id> [--set key=value ...] [--costs file] [--seed N]
               [--format json|csv|perfetto]
  tlbscope sweep <scenario file|id> --vary key=v1,v2,... [--vary ...] [--set key=value ...]
                 [--costs file] [--seed N] [--format csv|json] [--max-combinations N]
                 [--progress]
  tlbscope calibrate [--costs file] [--strict] [--leave-one-out [--max-runs N]]
                     [--format text|json|csv]
  tlbscope fit <dataset.csv> [--benchmark id] [--params name,name,...] [--machine preset]
               [--out fitted.toml] [--max-runs N] [--map column=header ...] [--format text|json]
               [--leave-one-out]
  tlbscope import <recording> [--format text|json|perfetto]
  tlbscope history <scenario file|id> [--set key=value ...] [--costs file] [--seed N]
                   [--format text|json]
  tlbscope check <scenario file|id> [--set key=value ...] [--max-steps N] [--max-states N]
                 [--reduce none|por|sym|all] [--format text|json]
  tlbscope check --race <id> [--max-steps N] [--max-states N] [--reduce none|por|sym|all]
                 [--format text|json]

Settings use the simulator's vocabulary (tlbscope settings lists every key, its values and
default, and every cost parameter, as the simulator declares them), e.g. --set flush_info=stack --set preempt=preemptible_wait
--set cpus=16 --set costs.ipi_delivery_ns=800. A sweep runs every combination of its --vary lists:
at most 1000 unless --max-combinations N allows more; it shows runs done, elapsed time and an
estimate of the rest on stderr when that is a terminal, or always with --progress.
--costs applies a [machine] preset + [costs] file (what fit --out writes) as --set overrides.
calibrate compares the presets with the seed measurements (content/calibration.json); it exits 1
if a row is out of tolerance (known gaps too with --strict); --leave-one-out instead predicts
each row with the free costs fitted on the machine's other rows only (text or json), and
fit --leave-one-out does the same for a dataset's rows, grouped by their machine column. fit adjusts cost parameters by least
squares to the op_latency rows of a dataset CSV and prints them with the residual of each row;
it finds columns by the same names and synonyms as the page's import (--map names any other).
import reads a kernel recording (tracefs trace / trace_pipe text, trace-cmd report, perf script;
bench/kit/trace.sh records one) and prints its summary; it exits 1 only when nothing could be read.
--format perfetto writes the run or recording as a Chrome JSON trace for ui.perfetto.dev.
history replays an x86 scenario under every kernel= step (4.13 … 7.3) and prints, per step, the
op and flush latency, preemption-off time, IPIs, violations and the commit that made the change.
check explores every interleaving of the scenario's events and prints "holds", the shortest
counterexample, or the bound it reached; --race checks a §8 race's scenario faulty and fixed.
--reduce picks the reductions besides state merging: por (partial-order reduction by sleep
sets), sym (CPU symmetry: states that differ only by which of two interchangeable CPUs is
which are one), all (the default: both) or none.
check exits 0 holds (with --race: every verdict as promised), 1 violated (--race: a verdict
not as promised), 4 bound reached, 2 bad input.
`;

/**
 * A parsed command line. `scenario` is the scenario (run, sweep), the dataset CSV (fit) or the
 * recording (import); every command but help, list and calibrate has one.
 * @typedef {object} Args
 * @property {string} command
 * @property {string} [scenario]
 * @property {string[]} set
 * @property {{ key: string, values: string[] }[]} vary
 * @property {number} seed
 * @property {string} format
 * @property {string} [costs]
 * @property {boolean} [strict]
 * @property {boolean} [leaveOneOut]
 * @property {string} [benchmark]
 * @property {string} [machine]
 * @property {string} [out]
 * @property {string[]} [map]
 * @property {string[]} [params]
 * @property {number} [maxRuns]
 * @property {string} [race]
 * @property {number} [maxSteps]
 * @property {number} [maxStates]
 * @property {string} [reduce]
 * @property {number} [maxCombinations]
 * @property {boolean} [progress]
 */

/** Combinations a sweep runs without --max-combinations: minutes of runs, not days. */
export const MAX_COMBINATIONS = 1000;

/**
 * How many runs a sweep's --vary lists make (their product), without listing them.
 * @param {{ values: string[] }[]} vary
 */
export function combinationCount(vary) {
  return vary.reduce((n, { values }) => n * values.length, 1);
}

/**
 * @param {string[]} argv
 * @returns {Args}
 */
export function parseArgs(argv) {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    return { command: 'help', set: [], vary: [], seed: 1, format: 'text' };
  }
  if (
    ![
      'list',
      'settings',
      'run',
      'sweep',
      'calibrate',
      'fit',
      'import',
      'history',
      'check',
    ].includes(command)
  ) {
    throw new UsageError(`unknown command \`${command}\``);
  }
  /** @type {Omit<Args, 'format'> & { format?: string }} */
  const out = { command, scenario: undefined, set: [], vary: [], seed: 1, format: undefined };
  /** @type {(opt: string, ...commands: string[]) => void} */
  const only = (opt, ...commands) => {
    if (!commands.includes(command)) throw new UsageError(`${opt} does not apply to ${command}`);
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--set') {
      const v = value();
      if (!v.includes('=')) throw new UsageError(`--set ${v}: expected key=value`);
      out.set.push(v);
    } else if (a === '--vary') {
      const v = value();
      const [key, list] = v.split('=', 2);
      if (!key || !list) throw new UsageError(`--vary ${v}: expected key=v1,v2,...`);
      out.vary.push({ key, values: list.split(',').filter(Boolean) });
    } else if (a === '--seed') {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n >= 2 ** 32) {
        throw new UsageError(`--seed ${v}: expected an integer from 0 to 4294967295`);
      }
      out.seed = n;
    } else if (a === '--format') {
      const v = value();
      const allowed =
        command === 'calibrate'
          ? ['text', 'json', 'csv']
          : command === 'settings' || command === 'check'
            ? ['text', 'json']
            : command === 'fit' || command === 'history'
              ? ['text', 'json']
              : command === 'import'
                ? ['text', 'json', 'perfetto']
                : command === 'run'
                  ? ['json', 'csv', 'perfetto']
                  : ['json', 'csv'];
      if (!allowed.includes(v)) {
        throw new UsageError(`--format ${v}: expected ${allowed.join(' or ')}`);
      }
      out.format = v;
    } else if (a === '--costs') {
      only(a, 'run', 'sweep', 'calibrate', 'history');
      out.costs = value();
    } else if (a === '--strict') {
      only(a, 'calibrate');
      out.strict = true;
    } else if (a === '--leave-one-out') {
      only(a, 'calibrate', 'fit');
      out.leaveOneOut = true;
    } else if (a === '--benchmark' || a === '--machine' || a === '--out') {
      only(a, 'fit');
      out[/** @type {'benchmark' | 'machine' | 'out'} */ (a.slice(2))] = value();
    } else if (a === '--map') {
      only(a, 'fit');
      (out.map ??= []).push(value());
    } else if (a === '--params') {
      only(a, 'fit');
      const v = value();
      out.params = v.split(',').filter(Boolean);
      if (out.params.length === 0) throw new UsageError(`--params ${v}: expected name,name,...`);
    } else if (a === '--max-runs') {
      only(a, 'fit', 'calibrate');
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 10 || n > 100000) {
        throw new UsageError(`--max-runs ${v}: expected an integer from 10 to 100000`);
      }
      out.maxRuns = n;
    } else if (a === '--race') {
      only(a, 'check');
      out.race = value();
    } else if (a === '--reduce') {
      only(a, 'check');
      const v = value();
      if (!['none', 'por', 'sym', 'all'].includes(v)) {
        throw new UsageError(`--reduce ${v}: expected none, por, sym or all`);
      }
      out.reduce = v;
    } else if (a === '--max-steps' || a === '--max-states') {
      only(a, 'check');
      const v = value();
      const n = Number(v);
      const max = a === '--max-steps' ? 10000 : 10000000;
      if (!Number.isInteger(n) || n < 1 || n > max) {
        throw new UsageError(`${a} ${v}: expected an integer from 1 to ${max}`);
      }
      out[a === '--max-steps' ? 'maxSteps' : 'maxStates'] = n;
    } else if (a === '--max-combinations') {
      only(a, 'sweep');
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 1e9) {
        throw new UsageError(`${a} ${v}: expected an integer from 1 to 1000000000`);
      }
      out.maxCombinations = n;
    } else if (a === '--progress') {
      only(a, 'sweep');
      out.progress = true;
    } else if (a.startsWith('--')) {
      throw new UsageError(`unknown option ${a}`);
    } else if (out.scenario === undefined && !['list', 'settings', 'calibrate'].includes(command)) {
      out.scenario = a;
    } else {
      throw new UsageError(`unexpected argument \`${a}\``);
    }
  }
  if (command === 'import' && out.scenario === undefined) {
    throw new UsageError('import needs a recording file');
  }
  if (command === 'fit' && out.scenario === undefined) {
    throw new UsageError('fit needs a dataset CSV file');
  }
  if (command === 'check' && out.race !== undefined && out.scenario !== undefined) {
    throw new UsageError('check takes a scenario or --race, not both');
  }
  if (
    !['list', 'settings', 'calibrate'].includes(command) &&
    out.scenario === undefined &&
    !(command === 'check' && out.race !== undefined)
  ) {
    throw new UsageError(`${command} needs a scenario file or id`);
  }
  if (out.leaveOneOut && out.out) {
    throw new UsageError('--leave-one-out fits once per row: --out does not apply');
  }
  if (out.leaveOneOut && out.format === 'csv') {
    throw new UsageError('--leave-one-out: --format csv is not offered; use text or json');
  }
  if (command === 'calibrate' && out.maxRuns !== undefined && !out.leaveOneOut) {
    throw new UsageError('--max-runs: with calibrate only together with --leave-one-out');
  }
  if (command === 'sweep' && out.vary.length === 0) {
    throw new UsageError('sweep needs at least one --vary key=v1,v2,...');
  }
  const max = out.maxCombinations ?? MAX_COMBINATIONS;
  if (command === 'sweep' && combinationCount(out.vary) > max) {
    throw new UsageError(
      `--vary: ${combinationCount(out.vary)} combinations, more than the ${max} a sweep may run; ` +
        `allow them with --max-combinations ${combinationCount(out.vary)}`,
    );
  }
  const format =
    out.format ??
    (command === 'sweep'
      ? 'csv'
      : ['calibrate', 'fit', 'import', 'settings', 'history', 'check'].includes(command)
        ? 'text'
        : 'json');
  return { ...out, format };
}
