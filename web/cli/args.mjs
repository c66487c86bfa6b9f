// Command-line parsing for the tlbscope CLI. Every mistake is a UsageError naming the argument.
export class UsageError extends Error {}

// The help text lives with each command's entry in help.mjs (docs/cli.md is written from it).
export { USAGE } from './help.mjs';

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
 * @property {string[]} [fix]
 * @property {string} [separator]
 * @property {string} [decimal]
 * @property {number} [headerRow]
 * @property {string[]} [params]
 * @property {number} [maxRuns]
 * @property {number} [top]
 * @property {string} [race]
 * @property {number} [maxSteps]
 * @property {number} [maxStates]
 * @property {string} [reduce]
 * @property {number} [maxCombinations]
 * @property {boolean} [progress]
 * @property {boolean} [band] run, sweep, calibrate: also run every estimated cost at both ends of its range
 * @property {string} [topic] with `help`: the command to describe, if one was named
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
      'analyze',
      'fit-recording',
      'history',
      'check',
    ].includes(command)
  ) {
    throw new UsageError(`unknown command \`${command}\``);
  }
  // `tlbscope run --help` (wherever the flag sits) describes the command instead of running it.
  if (rest.includes('--help') || rest.includes('-h')) {
    return { command: 'help', topic: command, set: [], vary: [], seed: 1, format: 'text' };
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
          : ['settings', 'check', 'analyze', 'fit-recording'].includes(command)
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
      only(a, 'run', 'sweep', 'calibrate', 'history', 'analyze');
      out.costs = value();
    } else if (a === '--strict') {
      only(a, 'calibrate');
      out.strict = true;
    } else if (a === '--leave-one-out') {
      only(a, 'calibrate', 'fit');
      out.leaveOneOut = true;
    } else if (a === '--out') {
      only(a, 'fit', 'fit-recording');
      out.out = value();
    } else if (a === '--benchmark' || a === '--machine') {
      only(a, 'fit');
      out[/** @type {'benchmark' | 'machine' | 'out'} */ (a.slice(2))] = value();
    } else if (a === '--map') {
      only(a, 'fit');
      (out.map ??= []).push(value());
    } else if (a === '--fix') {
      only(a, 'fit');
      const v = value();
      if (!v.includes('=')) throw new UsageError(`--fix ${v}: expected column=value`);
      (out.fix ??= []).push(v);
    } else if (a === '--separator' || a === '--decimal') {
      only(a, 'fit');
      out[a === '--separator' ? 'separator' : 'decimal'] = value();
    } else if (a === '--header-row') {
      only(a, 'fit');
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 200) {
        throw new UsageError(`--header-row ${v}: expected the header's line, from 1 to 200`);
      }
      out.headerRow = n;
    } else if (a === '--params') {
      only(a, 'fit');
      const v = value();
      out.params = v.split(',').filter(Boolean);
      if (out.params.length === 0) throw new UsageError(`--params ${v}: expected name,name,...`);
    } else if (a === '--top') {
      only(a, 'analyze');
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 1000) {
        throw new UsageError(`--top ${v}: expected an integer from 1 to 1000`);
      }
      out.top = n;
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
    } else if (a === '--band') {
      only(a, 'run', 'sweep', 'calibrate');
      out.band = true;
    } else if (a.startsWith('--')) {
      throw new UsageError(`unknown option ${a}`);
    } else if (out.scenario === undefined && !['list', 'settings', 'calibrate'].includes(command)) {
      out.scenario = a;
    } else {
      throw new UsageError(`unexpected argument \`${a}\``);
    }
  }
  if ((command === 'import' || command === 'fit-recording') && out.scenario === undefined) {
    throw new UsageError(`${command} needs a recording file`);
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
  if (out.band && command !== 'calibrate' && out.format !== undefined && out.format !== 'json') {
    throw new UsageError(
      `--band: --format ${out.format} has one value per figure; the band prints as json`,
    );
  }
  const format =
    out.format ??
    (command === 'sweep' && !out.band
      ? 'csv'
      : [
            'calibrate',
            'fit',
            'import',
            'analyze',
            'fit-recording',
            'settings',
            'history',
            'check',
          ].includes(command)
        ? 'text'
        : 'json');
  return { ...out, format };
}
