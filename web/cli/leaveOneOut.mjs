// `tlbscope calibrate --leave-one-out`: how well a preset generalises. For each measured row of
// content/calibration.json, the machine's free cost parameters are fitted (fitCore's bounded
// Levenberg–Marquardt) on the other rows of the same machine only, and the left-out row is then
// predicted with those values. The error of that prediction is what the model gets wrong about a
// measurement it was not tuned on; the in-sample error of `calibrate` is shown beside it.
import { readScenarioArg } from './wasm.mjs';
import {
  BENCHMARKS_FILE,
  CALIBRATION_FILE,
  datasetLoader,
  describeTolerance,
  loadJson,
  makeRunner,
  readSummaryPath,
  measuredRow,
  predictRow,
  textTable,
  withinTolerance,
} from './calibrate.mjs';
import { defaultParams, fitCosts } from '../src/model/fitCore.mjs';
import { basePreset, fit, FitError } from './fit.mjs';
import { runOnce } from './run.mjs';

/** @import { SimulatorApi } from '../src/sim/run' */
/** @import { BenchmarkModel as FitBenchmark } from '../src/model/fitCore.mjs' */
/** @import { BenchmarkModel, CalibrationSpec, CalibrationTable } from './calibrate.mjs' */

/**
 * A calibration row with its measurement, ready to be fitted on or predicted.
 * @typedef {{ spec: CalibrationSpec, model: BenchmarkModel, measured: number, unit: string }} Resolved
 */

/**
 * One row of the report: what was predicted (or why not) and from which fit.
 * @typedef {object} LooRow
 * @property {string} id
 * @property {string} preset
 * @property {string} benchmark
 * @property {string} variant
 * @property {string} metric
 * @property {string} unit
 * @property {number} measured
 * @property {string} tolerance
 * @property {'PREDICTED' | 'SKIP'} status
 * @property {string} [why]
 * @property {number} [in_sample] the prediction with the preset as shipped
 * @property {number} [in_sample_error_pct]
 * @property {number} [predicted] the prediction with the costs fitted without this row
 * @property {number} [error_pct]
 * @property {boolean} [within_tolerance]
 * @property {string[]} [trained_on]
 * @property {{ name: string, start: number, value: number }[]} [params]
 * @property {number} [train_rms_pct]
 * @property {string | null} [same_run_as]
 */

/**
 * @typedef {object} LooStats
 * @property {number} predicted
 * @property {number | null} mean_abs_error_pct
 * @property {number | null} max_abs_error_pct
 * @property {number | null} within_tolerance rows predicted within their tolerance (null: rows without one)
 * @property {number | null} in_sample_mean_abs_error_pct
 * @property {number} skipped
 */

/** @typedef {{ rows: LooRow[], summary: { all: LooStats, by_preset: Record<string, LooStats> }, runs: number }} LooReport */

/** The run a row reads: rows with the same key are one simulator run in the model. */
const runKey = (/** @type {Resolved} */ r) =>
  `${r.model.scenario}|${JSON.stringify(r.spec.speedup ?? r.spec.set)}|${r.spec.metric}`;

/**
 * @param {SimulatorApi} wasm
 * @param {{
 *   table?: CalibrationTable, extra?: string[], measured?: Record<string, number>,
 *   params?: string[], maxRuns?: number, progress?: (line: string) => void
 * }} [options] `measured` replaces rows' measured values by id (tests feed the model's own
 * output back in); `params` fixes the freed parameters instead of benchmarks.json's fitParams.
 * @returns {LooReport}
 */
export function leaveOneOut(
  wasm,
  {
    table = loadJson(CALIBRATION_FILE),
    extra = [],
    measured = {},
    params,
    maxRuns = 240,
    progress = () => {},
  } = {},
) {
  /** @type {Record<string, BenchmarkModel & FitBenchmark>} */
  const benchmarks = loadJson(BENCHMARKS_FILE);
  const dataset = datasetLoader();
  const runner = makeRunner(wasm);
  /** @type {Resolved[]} */
  const all = table.rows.map((spec) => {
    const { m, model } = measuredRow(spec, dataset, benchmarks);
    return { spec, model, measured: measured[spec.id] ?? m.value, unit: m.unit };
  });
  /** @type {(r: Resolved, costs: string[]) => number} */
  const predict = (r, costs) =>
    predictRow(runner, r.spec, r.model, r.unit, [...extra, ...costs]).predicted;

  /** @type {LooRow[]} */
  const rows = all.map((r) => {
    /** @type {LooRow} */
    const base = {
      id: r.spec.id,
      preset: r.spec.preset,
      benchmark: r.spec.benchmark,
      variant: r.spec.variant,
      metric: r.spec.metric,
      unit: r.unit,
      measured: r.measured,
      tolerance: describeTolerance(r.spec.tolerance),
      status: 'SKIP',
    };
    if (r.spec.tolerance === 'ratio-only') {
      return { ...base, status: 'SKIP', why: 'compared only as ratios (no absolute measurement)' };
    }
    // Only the machine's other rows: the left-out row never enters the fit.
    const train = all.filter(
      (o) => o !== r && o.spec.preset === r.spec.preset && o.spec.tolerance !== 'ratio-only',
    );
    const in_sample = predict(r, []);
    if (train.length === 0) {
      return {
        ...base,
        in_sample,
        status: 'SKIP',
        why: `no other row of ${r.spec.preset} to fit on`,
      };
    }
    const runs = new Set(train.map(runKey)).size;
    const selected = train.map((t) => ({
      line: 0,
      benchmark: t.spec.benchmark,
      variant: t.spec.variant,
      metric: t.spec.metric,
      machine: t.spec.preset,
      measured: t.measured,
      unit: t.unit,
      scenario: t.model.scenario,
      summaryPath: t.model.summaryPath,
      overrides: t.spec.set,
      aliased: [],
    }));
    // At most one free parameter per distinct run, as `fit` does per distinct row.
    const names = (params ?? defaultParams(selected, benchmarks)).slice(0, Math.max(1, runs));
    const costs = startCosts(wasm, r);
    progress(`leave-one-out: ${r.spec.id}: fitting ${names.join(', ')} on ${train.length} rows`);
    const fit = fitCosts({
      selected,
      names,
      costs,
      preset: r.spec.preset,
      predict: (x) =>
        train.map((t) =>
          predict(
            t,
            names.map((n, j) => `costs.${n}=${x[j]}`),
          ),
        ),
      maxRuns,
    });
    const fitted = fit.params.map((p) => `costs.${p.name}=${p.value}`);
    const predicted = predict(r, fitted);
    const twin = train.find((t) => runKey(t) === runKey(r));
    return {
      ...base,
      status: 'PREDICTED',
      predicted,
      error_pct: (predicted / r.measured - 1) * 100,
      in_sample,
      in_sample_error_pct: (in_sample / r.measured - 1) * 100,
      within_tolerance: withinTolerance(
        /** @type {Exclude<CalibrationSpec['tolerance'], 'ratio-only'>} */ (r.spec.tolerance),
        r.measured,
        predicted,
      ),
      trained_on: train.map((t) => t.spec.id),
      params: fit.params.map((p) => ({ name: p.name, start: p.start, value: p.value })),
      train_rms_pct: fit.rms_pct,
      // The model runs this row exactly as a training row (e.g. two variants it models the
      // same way): its prediction is then that row's fit, not a test of anything else.
      same_run_as: twin ? twin.spec.id : null,
    };
  });
  return { rows, summary: summarise(rows), runs: runner.runs() };
}

/**
 * The preset's cost values the fit starts from (its own, before any fitting).
 * @param {SimulatorApi} wasm
 * @param {Resolved} r
 * @returns {Record<string, number>}
 */
function startCosts(wasm, r) {
  const { text } = readScenarioArg(r.model.scenario);
  const sim = new wasm.Simulator(text, [`machine=${r.spec.preset}`], 1);
  const costs = JSON.parse(sim.costsJson());
  sim.free();
  return costs;
}

/**
 * @param {LooRow[]} rows
 * @returns {LooReport['summary']}
 */
function summarise(rows) {
  /** @type {(list: LooRow[]) => Omit<LooStats, 'skipped'>} */
  const stats = (list) => {
    const e = list.map((r) => Math.abs(/** @type {number} */ (r.error_pct)));
    const i = list.map((r) => Math.abs(/** @type {number} */ (r.in_sample_error_pct)));
    return {
      predicted: list.length,
      mean_abs_error_pct: e.length ? e.reduce((a, v) => a + v, 0) / e.length : null,
      max_abs_error_pct: e.length ? Math.max(...e) : null,
      within_tolerance: list.some((r) => r.within_tolerance !== undefined)
        ? list.filter((r) => r.within_tolerance).length
        : null,
      in_sample_mean_abs_error_pct: i.length ? i.reduce((a, v) => a + v, 0) / i.length : null,
    };
  };
  const done = rows.filter((r) => r.status === 'PREDICTED');
  const presets = [...new Set(rows.map((r) => r.preset))];
  return {
    all: { ...stats(done), skipped: rows.length - done.length },
    by_preset: Object.fromEntries(
      presets.map((p) => [
        p,
        {
          ...stats(done.filter((r) => r.preset === p)),
          skipped: rows.filter((r) => r.preset === p && r.status !== 'PREDICTED').length,
        },
      ]),
    ),
  };
}

/** @type {(v: number | null | undefined) => string} */
const pct = (v) => (v === null || v === undefined ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(2)}%`);
/** @type {(v: number) => string} */
const num = (v) => String(Number(v.toPrecision(5)));

/** @param {LooReport} report */
export function formatLeaveOneOut(report) {
  const out = [
    'Leave-one-out: each row predicted by its preset with the free cost parameters fitted on the',
    "other rows of the same machine only (start: the preset's values; other costs stay as preset).",
    'in-sample = the preset as shipped, with no fitting.',
    '',
  ];
  const head = ['row', 'preset', 'measured', 'left-out pred.', 'error', 'in-sample', 'tolerance'];
  const lines = report.rows.map((r) => [
    r.id,
    r.preset,
    `${num(r.measured)} ${r.unit}`,
    r.status === 'PREDICTED' ? `${num(/** @type {number} */ (r.predicted))} ${r.unit}` : r.status,
    r.status === 'PREDICTED' ? pct(r.error_pct) : '',
    r.in_sample === undefined
      ? ''
      : pct(r.in_sample_error_pct ?? (r.in_sample / r.measured - 1) * 100),
    r.status === 'PREDICTED' && r.within_tolerance !== undefined
      ? `${r.tolerance} ${r.within_tolerance ? 'within' : 'OUTSIDE'}`
      : '',
  ]);
  out.push(textTable([head, ...lines]), '');
  for (const r of report.rows) {
    if (r.status !== 'PREDICTED') {
      out.push(`${r.id}: not predicted: ${r.why}`);
      continue;
    }
    const ps = (r.params ?? []).map((p) => `${p.name} ${p.start}→${p.value}`).join(', ');
    out.push(
      `${r.id}: fitted ${ps} on ${r.trained_on?.join(', ')} (training rms ${r.train_rms_pct?.toFixed(2)}%)` +
        (r.same_run_as ? `; the model runs it exactly as ${r.same_run_as}` : ''),
    );
  }
  out.push('', 'Summary (|error| of the left-out predictions):');
  /** @type {(name: string, s: LooStats) => string} */
  const line = (name, s) =>
    `  ${name}: ${s.predicted} predicted, mean ${s.mean_abs_error_pct === null ? '—' : `${s.mean_abs_error_pct.toFixed(2)}%`}, max ${s.max_abs_error_pct === null ? '—' : `${s.max_abs_error_pct.toFixed(2)}%`}${s.within_tolerance === null ? '' : `, ${s.within_tolerance} within tolerance`}; in-sample mean ${s.in_sample_mean_abs_error_pct === null ? '—' : `${s.in_sample_mean_abs_error_pct.toFixed(2)}%`}; ${s.skipped} not predicted`;
  for (const [p, s] of Object.entries(report.summary.by_preset)) out.push(line(p, s));
  out.push(line('all', report.summary.all));
  out.push(`(${report.runs} simulator runs)`);
  return `${out.join('\n')}\n`;
}

/**
 * `tlbscope fit <csv> --leave-one-out`: the same check on a dataset's rows. Rows are grouped by
 * their `machine` column; each is predicted by `fit` on the other rows of its machine (the
 * costs `fit` would free for them, or `params`), from the preset `fit` would start from.
 * @param {SimulatorApi} wasm
 * @param {readonly import('../src/model/fitCore.mjs').SelectedRow[]} selected
 * @param {{ params?: string[], machine?: string, maxRuns?: number, progress?: (line: string) => void }} [options]
 * @returns {LooReport}
 */
export function leaveOneOutDataset(
  wasm,
  selected,
  { params, machine, maxRuns = 150, progress = () => {} } = {},
) {
  let runs = 0;
  /** @type {(s: import('../src/model/fitCore.mjs').SelectedRow, preset: string, costs: string[]) => number} */
  const predict = (s, preset, costs) => {
    const { text, file } = readScenarioArg(s.scenario);
    runs++;
    const summary = runOnce(
      wasm,
      text,
      file,
      [`machine=${preset}`, ...s.overrides, ...costs],
      1,
    ).summary;
    const v = readSummaryPath(summary, s.summaryPath);
    if (v === null) throw new FitError(`${s.scenario}: the summary has no ${s.summaryPath}`);
    return v;
  };
  /** @type {LooRow[]} */
  const rows = selected.map((r) => {
    const preset = basePreset(wasm, [r], machine);
    const in_sample = predict(r, preset, []);
    /** @type {LooRow} */
    const base = {
      // The kernel is the same on every row of a local run: the rest says which row it is.
      id: `line ${r.line} ${r.benchmark} ${r.variant.replace(/(^|;)kernel=[^;]*;?/, '$1')}`,
      preset,
      benchmark: r.benchmark,
      variant: r.variant,
      metric: r.metric,
      unit: 'us',
      measured: r.measured / 1000,
      tolerance: '—',
      status: 'SKIP',
      in_sample: in_sample / 1000,
      in_sample_error_pct: (in_sample / r.measured - 1) * 100,
    };
    const train = selected.filter((o) => o !== r && o.machine === r.machine);
    if (train.length === 0) return { ...base, why: `no other row of ${r.machine} to fit on` };
    progress(`leave-one-out: line ${r.line}: fitting on ${train.length} rows of ${r.machine}`);
    const result = fit(wasm, train, { params, machine: preset, maxRuns });
    runs += result.runs;
    const costs = result.params.map((p) => `costs.${p.name}=${p.value}`);
    const predicted = predict(r, preset, costs);
    return {
      ...base,
      status: 'PREDICTED',
      predicted: predicted / 1000,
      error_pct: (predicted / r.measured - 1) * 100,
      within_tolerance: undefined,
      trained_on: train.map((t) => `line ${t.line}`),
      params: result.params.map((p) => ({ name: p.name, start: p.start, value: p.value })),
      train_rms_pct: result.rms_pct,
      same_run_as: null,
    };
  });
  return { rows, summary: summarise(rows), runs };
}
