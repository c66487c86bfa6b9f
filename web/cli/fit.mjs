// `tlbscope fit <csv>`: least-squares fit of a machine's free cost parameters to measured rows
// of benchmarks the simulator has a scenario for (content/benchmarks.json). Levenberg–Marquardt
// over the simulator itself, with forward-difference Jacobians: bounded, deterministic (costs
// are integers, every run is seeded), and capped in simulator runs.
import { readFileSync } from 'node:fs';
import { BENCHMARKS_FILE, loadJson, readSummaryPath } from './calibrate.mjs';
import {
  defaultParams as defaultParamsOf,
  FitError,
  fitCosts,
  selectRows as selectRowsOf,
} from '../src/model/fitCore.mjs';
import { tomlString } from '../src/model/tomlString';
import { importOptions, parseMaps, readMappedCsv } from './mappedCsv.mjs';
import { runOnce, ScenarioFailure } from './run.mjs';
import { readScenarioArg } from './wasm.mjs';

/** @import { BenchmarkModel, FitResult, FitRow, SelectedRow, SkippedRow } from '../src/model/fitCore.mjs' */
/** @import { SimulatorApi } from '../src/sim/run' */

export { FitError };

/**
 * The rows a scenario can predict (see fitCore.mjs), against content/benchmarks.json.
 * @param {readonly FitRow[]} rows
 * @param {{ benchmark?: string, benchmarks?: Record<string, BenchmarkModel> }} [options]
 */
export function selectRows(rows, { benchmark, benchmarks = loadJson(BENCHMARKS_FILE) } = {}) {
  return selectRowsOf(rows, { benchmark, benchmarks });
}

/**
 * @param {readonly SelectedRow[]} selected
 * @param {Record<string, BenchmarkModel>} [benchmarks]
 */
export function defaultParams(selected, benchmarks = loadJson(BENCHMARKS_FILE)) {
  return defaultParamsOf(selected, benchmarks);
}

/**
 * @param {SimulatorApi} wasm
 * @param {string} text
 * @param {string} machine
 */
function tryPreset(wasm, text, machine) {
  try {
    const sim = new wasm.Simulator(text, [`machine=${machine}`], 1);
    sim.free();
    return true;
  } catch {
    return false;
  }
}

/**
 * The preset every run starts from: --machine, else the file's machine if it is a preset,
 * else the first scenario's own preset.
 * @param {SimulatorApi} wasm
 * @param {readonly SelectedRow[]} selected
 * @param {string} [machine]
 * @returns {string}
 */
export function basePreset(wasm, selected, machine) {
  const { text } = readScenarioArg(selected[0].scenario);
  if (machine) {
    if (!tryPreset(wasm, text, machine)) throw new FitError(`--machine ${machine}: not a preset`);
    return machine;
  }
  const fromFile = selected[0].machine;
  if (fromFile && tryPreset(wasm, text, fromFile)) return fromFile;
  const sim = new wasm.Simulator(text, [], 1);
  const p = sim.preset;
  sim.free();
  return p;
}

/**
 * @param {SimulatorApi} wasm
 * @param {string} scenario
 * @param {string} preset
 * @returns {Record<string, number>}
 */
function startCosts(wasm, scenario, preset) {
  const { text } = readScenarioArg(scenario);
  const sim = new wasm.Simulator(text, [`machine=${preset}`], 1);
  const costs = JSON.parse(sim.costsJson());
  sim.free();
  return costs;
}

/**
 * Fits `params` (cost names) so that the selected rows' predictions match their measurements,
 * minimising the sum of squared relative residuals. Returns the fitted values and residuals.
 * @param {SimulatorApi} wasm
 * @param {readonly SelectedRow[]} selected
 * @param {{
 *   params?: string[], machine?: string, maxRuns?: number, seed?: number,
 *   progress?: (line: string) => void, start?: Record<string, number>
 * }} [options]
 * @returns {FitResult}
 */
export function fit(
  wasm,
  selected,
  { params, machine, maxRuns = 400, seed = 1, progress = () => {}, start = {} } = {},
) {
  if (selected.length === 0) throw new FitError('no rows to fit');
  const preset = basePreset(wasm, selected, machine);
  const costs = startCosts(wasm, selected[0].scenario, preset);
  const names = params ?? defaultParams(selected);
  for (const p of names) {
    if (!(p in costs)) {
      throw new FitError(
        `--params: unknown cost \`${p}\`; known costs: ${Object.keys(costs).join(', ')}`,
      );
    }
  }
  /** @type {Map<string, { text: string, file: string }>} */
  const texts = new Map();
  /** @type {(x: number[]) => number[]} */
  const predict = (x) =>
    selected.map((s) => {
      if (!texts.has(s.scenario)) texts.set(s.scenario, readScenarioArg(s.scenario));
      const { text, file } = /** @type {{ text: string, file: string }} */ (texts.get(s.scenario));
      const overrides = [
        `machine=${preset}`,
        ...s.overrides,
        ...names.map((p, j) => `costs.${p}=${x[j]}`),
      ];
      const v = readSummaryPath(runOnce(wasm, text, file, overrides, seed).summary, s.summaryPath);
      if (v === null)
        throw new ScenarioFailure(`${s.scenario}: the summary has no ${s.summaryPath}`);
      return v;
    });
  return fitCosts({ selected, names, costs, preset, predict, maxRuns, progress, start });
}

/**
 * @param {FitResult} result
 * @param {SkippedRow[]} [skipped]
 */
export function formatFit(result, skipped = []) {
  const out = [
    `Fitted on preset ${result.preset} (${result.runs} simulator runs, ${result.iterations} iterations)`,
    '',
  ];
  const w = Math.max(...result.params.map((p) => p.name.length));
  for (const p of result.params) {
    out.push(
      `  ${p.name.padEnd(w)}  ${String(p.value).padStart(7)}   (start ${p.start}, bounds ${p.bounds[0]}..${p.bounds[1]})` +
        (p.identifiable ? '' : '  no effect on these rows: left at the start value'),
    );
  }
  out.push('', 'Residuals (predicted − measured):');
  for (const r of result.residuals) {
    out.push(
      `  line ${String(r.line).padEnd(3)} ${r.benchmark} ${r.variant || '(no variant)'}${r.modelled_as.length ? ` (modelled as ${r.modelled_as.join(';')})` : ''} ${r.metric}: measured ${(r.measured_ns / 1000).toFixed(4)} us, predicted ${(r.predicted_ns / 1000).toFixed(4)} us, residual ${r.residual_pct >= 0 ? '+' : ''}${r.residual_pct.toFixed(2)}%`,
    );
  }
  out.push(`  rms ${result.rms_pct.toFixed(3)}%`);
  if (skipped.length) {
    out.push('', 'Rows not fitted:');
    for (const s of skipped) {
      out.push(`  line ${s.line} ${s.row.benchmark} ${s.row.variant} ${s.row.metric}: ${s.reason}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/**
 * The fitted machine as a TOML snippet that `--costs <file>` (or `--set`) applies. Its first
 * comment is the command that fitted it, with every flag that changed which rows were read or
 * how (`flags`), so that running it again gives the same fit.
 * @param {FitResult} result
 * @param {string} what
 * @param {FitFlags} [flags]
 */
export function toToml(result, what, flags = {}) {
  const lines = [
    `# Fitted by \`tlbscope fit ${[tomlString(what), ...fitFlags(flags)].join(' ')}\`: rms residual ${result.rms_pct.toFixed(3)}% over ${result.residuals.length} rows.`,
    `# Use: tlbscope run <scenario> --costs <this file>  (= --set machine=${result.preset} --set costs.<name>=<value> ...)`,
    '[machine]',
    `preset = "${result.preset}"`,
    '',
    '[costs]',
    ...result.params.map((p) => `${p.name} = ${p.value}`),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * @typedef {{ map?: string[], fix?: string[], separator?: string, decimal?: string,
 *   headerRow?: number, benchmark?: string, machine?: string, params?: string[],
 *   maxRuns?: number }} FitFlags
 */

/**
 * The flags of a fit as they are typed, each value quoted as the comment quotes the file name.
 * @param {FitFlags} f
 */
export function fitFlags(f) {
  /** @type {[string, string | number | undefined][]} */
  const pairs = [
    ...(f.map ?? []).map((m) => /** @type {[string, string]} */ (['--map', m])),
    ...(f.fix ?? []).map((m) => /** @type {[string, string]} */ (['--fix', m])),
    ['--separator', f.separator],
    ['--decimal', f.decimal],
    ['--header-row', f.headerRow],
    ['--benchmark', f.benchmark],
    ['--machine', f.machine],
    ['--params', f.params?.join(',')],
    ['--max-runs', f.maxRuns],
  ];
  return pairs.flatMap(([flag, v]) =>
    v === undefined ? [] : [`${flag} ${typeof v === 'number' ? v : tomlString(v)}`],
  );
}

/**
 * `--costs <file>`: a `[machine] preset` and `[costs]` integers, as `--set` overrides.
 * @param {string} text
 * @param {string} file
 * @returns {string[]}
 */
export function costsFileOverrides(text, file) {
  /** @type {string[]} */
  const out = [];
  /** @type {string | null} */
  let section = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) return;
    const at = `${file}:${i + 1}`;
    const sec = /^\[([a-z_]+)\]$/.exec(line);
    if (sec) {
      if (sec[1] !== 'machine' && sec[1] !== 'costs') {
        throw new FitError(
          `${at}: unknown table [${sec[1]}]; a costs file has [machine] and [costs]`,
        );
      }
      section = sec[1];
      return;
    }
    const kv = /^([a-z0-9_]+)\s*=\s*(.+)$/.exec(line);
    if (!kv || !section)
      throw new FitError(`${at}: expected \`name = value\` under [machine] or [costs]`);
    const [, key, value] = kv;
    if (section === 'machine') {
      const s = /^"([a-z0-9-]+)"$/.exec(value);
      if (key !== 'preset' || !s) throw new FitError(`${at}: [machine] takes only preset = "<id>"`);
      out.unshift(`machine=${s[1]}`);
    } else {
      if (!/^\d+$/.test(value))
        throw new FitError(`${at}: costs.${key}: expected a whole number, got ${value}`);
      out.push(`costs.${key}=${value}`);
    }
  });
  return out;
}

/**
 * The dataset at `path`, prepared and its columns mapped as the page's import does (plus the
 * `--map` entries and the text-import flags).
 * @param {string} path
 * @param {string[]} [maps]
 * @param {{ fix?: string[], separator?: string, decimal?: string, headerRow?: number }} [flags]
 */
export function readCsv(path, maps = [], flags = {}) {
  return readMappedCsv(
    readFileSync(path, 'utf8'),
    path,
    parseMaps(maps, path),
    importOptions(flags, path),
  );
}
