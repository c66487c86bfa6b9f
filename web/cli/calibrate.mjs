// `tlbscope calibrate`: runs content/calibration.json on the WASM build and compares every
// patch-mail measurement with the preset's prediction. The table says which run predicts which row;
// the measured numbers are read from the dataset CSVs, the scenarios from content/benchmarks.json.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readScenarioArg } from './wasm.mjs';
import { boundOverrides } from '../src/model/band';
import { runOnce } from './run.mjs';
import { COLUMNS as DATASET_COLUMNS } from './csv.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CALIBRATION_FILE = resolve(REPO, 'content/calibration.json');
export const BENCHMARKS_FILE = resolve(REPO, 'content/benchmarks.json');
const DATASET_DIR = resolve(REPO, 'content/datasets');

// One header for every CSV the CLI reads or writes (content/datasets/README.md).
export { DATASET_COLUMNS };

/** @import { SimulatorApi } from '../src/sim/run' */
/** @import { Summary } from '../src/trace/summary' */

export class DatasetError extends Error {}

/** @import { SchemaColumn } from '../src/content/columns.mjs' */

/**
 * One row of a dataset CSV: the text columns as written, the numeric ones parsed.
 * @typedef {Record<Exclude<SchemaColumn, 'value' | 'stddev' | 'cpus' | 'runs'>, string> & {
 *   value: number, stddev: number | null, cpus: number | null, runs: number | null, line: number
 * }} DatasetRow
 */

/** @typedef {'ratio-only' | { range?: [number, number], relative_pct: number }} Tolerance */

/**
 * A row of content/calibration.json: which measurement, predicted by which run.
 * @typedef {object} CalibrationSpec
 * @property {string} id
 * @property {string} dataset
 * @property {string} source
 * @property {string} benchmark
 * @property {string} variant
 * @property {string} metric
 * @property {string} preset
 * @property {string[]} set
 * @property {{ before: string[], after: string[] }} [speedup]
 * @property {string} [predicted_unit]
 * @property {Tolerance} tolerance
 * @property {string} [note]
 */

/**
 * A derived check of content/calibration.json: a ratio or difference of two rows.
 * @typedef {object} CheckSpec
 * @property {string} name
 * @property {string} of
 * @property {string} vs
 * @property {'ratio' | 'percent'} value
 * @property {Exclude<Tolerance, 'ratio-only'>} tolerance
 * @property {string} [known_gap]
 */

/** @typedef {{ rows: CalibrationSpec[], checks: CheckSpec[] }} CalibrationTable */

/**
 * A benchmark of content/benchmarks.json: the scenario that models it and what to read.
 * @typedef {object} BenchmarkModel
 * @property {string} scenario
 * @property {string} summaryPath
 * @property {Record<string, { summaryPath: string, perIteration: string }>} [counts]
 */

/**
 * Parses a CSV in the dataset schema (content/datasets/README.md); errors name line and column.
 * @param {string} text
 * @returns {DatasetRow[]}
 */
export function parseDataset(text, file = 'csv') {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((h) => h.trim());
  if (header.join(',') !== DATASET_COLUMNS.join(',')) {
    throw new DatasetError(
      `${file}:1: the header must be exactly ${DATASET_COLUMNS.join(',')}; got ${lines[0] ?? '(empty file)'}`,
    );
  }
  /** @type {DatasetRow[]} */
  const rows = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    const cells = line.split(',');
    const at = `${file}:${i + 1}`;
    if (cells.length !== DATASET_COLUMNS.length) {
      throw new DatasetError(
        `${at}: expected ${DATASET_COLUMNS.length} fields, got ${cells.length}`,
      );
    }
    const r = /** @type {Record<SchemaColumn, string>} */ (
      Object.fromEntries(DATASET_COLUMNS.map((c, j) => [c, cells[j].trim()]))
    );
    /** @type {(col: SchemaColumn, optional?: boolean) => number | null} */
    const num = (col, optional) => {
      if (optional && r[col] === '') return null;
      const n = Number(r[col]);
      if (r[col] === '' || !Number.isFinite(n)) {
        throw new DatasetError(`${at}: column \`${col}\`: \`${r[col]}\` is not a number`);
      }
      return n;
    };
    for (const col of /** @type {const} */ (['benchmark', 'metric', 'unit'])) {
      if (!r[col]) throw new DatasetError(`${at}: column \`${col}\` is empty`);
    }
    rows.push({
      ...r,
      value: /** @type {number} */ (num('value')),
      stddev: num('stddev', true),
      cpus: num('cpus', true),
      runs: num('runs', true),
      line: i + 1,
    });
  }
  return rows;
}

/**
 * @param {string} file
 * @returns {any} the file's JSON, as the caller's JSDoc types it
 */
export function loadJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** @type {Record<string, number>} */
const NS_PER = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };
/** @type {Record<string, number>} */
const MISSES_PER = { count: 1, million: 1e6 };

/**
 * A measured value in the unit the simulator reports (ns for times, a count for misses).
 * @param {number} value
 * @param {string} unit
 */
export function toModelUnit(value, unit) {
  if (unit in NS_PER) return value * NS_PER[unit];
  if (unit in MISSES_PER) return value * MISSES_PER[unit];
  return value;
}

/**
 * The number at a dotted path of a summary (e.g. `flush_latency_ns.p50`), or null.
 * @param {unknown} summary
 * @param {string} path
 * @returns {number | null}
 */
export function readSummaryPath(summary, path) {
  let v = summary;
  for (const k of path.split('.')) {
    if (typeof v !== 'object' || v === null || !(k in v)) return null;
    v = /** @type {Record<string, unknown>} */ (v)[k];
  }
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * Runs scenarios once per distinct (scenario, overrides), on one loaded WASM module.
 * @param {SimulatorApi} wasm
 */
export function makeRunner(wasm, seed = 1) {
  /** @type {Map<string, import('./run.mjs').CliRun>} */
  const cache = new Map();
  let runs = 0;
  /** @type {(scenario: string, overrides: string[]) => import('./run.mjs').CliRun} */
  const once = (scenario, overrides) => {
    const key = `${scenario}|${overrides.join(';')}`;
    if (!cache.has(key)) {
      const { text, file } = readScenarioArg(scenario);
      runs++;
      cache.set(key, runOnce(wasm, text, file, overrides, seed));
    }
    return /** @type {import('./run.mjs').CliRun} */ (cache.get(key));
  };
  /**
   * The run itself, or (`end`) the same run with every estimated cost at that end of its
   * range (model/band.ts), for the band around a prediction.
   * @type {(scenario: string, overrides: string[], end?: 'low' | 'high') => Summary}
   */
  const run = (scenario, overrides, end) => {
    const central = once(scenario, overrides);
    if (!end) return central.summary;
    return once(scenario, [...overrides, ...boundOverrides(central.costs, overrides)[end]]).summary;
  };
  return { run, runs: () => runs };
}

/**
 * @param {Exclude<Tolerance, 'ratio-only'>} tol
 * @param {number} measured
 * @param {number} predicted
 */
export function withinTolerance(tol, measured, predicted) {
  if (tol.range) return predicted >= tol.range[0] && predicted <= tol.range[1];
  return Math.abs(predicted - measured) <= (Math.abs(measured) * tol.relative_pct) / 100;
}

/** @param {Tolerance} tol */
export function describeTolerance(tol) {
  if (tol === 'ratio-only') return 'ratio only';
  if (tol.range) return `[${tol.range[0]}, ${tol.range[1]}]`;
  return `±${tol.relative_pct}%`;
}

/**
 * Runs the calibration table. `costs` (optional) are extra `costs.<name>=<v>` overrides applied
 * to every run, for checking a fitted machine against the patch mails.
 */
/**
 * @param {SimulatorApi} wasm
 * @param {{ table?: CalibrationTable, extra?: string[], band?: boolean }} [options]
 *   `band`: also predict each row with every estimated cost at each end of its range
 */
export function calibrate(
  wasm,
  { table = loadJson(CALIBRATION_FILE), extra = [], band = false } = {},
) {
  /** @type {Record<string, BenchmarkModel>} */
  const benchmarks = loadJson(BENCHMARKS_FILE);
  const dataset = datasetLoader();
  const runner = makeRunner(wasm);
  /** @type {Map<string, { measured: number, predicted: number, predicted_unit: string }>} */
  const byId = new Map();
  const rows = table.rows.map((spec) => {
    const { m, model } = measuredRow(spec, dataset, benchmarks);
    const { predicted, predictedUnit } = predictRow(runner, spec, model, m.unit, extra);
    const ends = band
      ? /** @type {const} */ (['low', 'high']).map(
          (end) => predictRow(runner, spec, model, m.unit, extra, end).predicted,
        )
      : null;
    const measured = m.value;
    const unit = m.unit;
    const tolerance = spec.tolerance;
    const ratioOnly = tolerance === 'ratio-only';
    const row = {
      kind: 'row',
      id: spec.id,
      source: spec.source,
      benchmark: spec.benchmark,
      variant: spec.variant,
      metric: spec.metric,
      unit,
      measured,
      stddev: m.stddev,
      predicted,
      predicted_unit: predictedUnit,
      error_pct: ratioOnly ? null : ((predicted - measured) / measured) * 100,
      tolerance: describeTolerance(spec.tolerance),
      scenario: model.scenario,
      preset: spec.preset,
      set: spec.speedup ? [spec.speedup.before, spec.speedup.after] : spec.set,
      status: ratioOnly
        ? 'INFO'
        : withinTolerance(tolerance, measured, predicted)
          ? 'PASS'
          : 'FAIL',
      note: spec.note ?? null,
      ...(ends
        ? {
            band_low: Math.min(predicted, ...ends),
            band_high: Math.max(predicted, ...ends),
          }
        : {}),
    };
    byId.set(spec.id, row);
    return row;
  });
  const checks = table.checks.map((c) => {
    const of = byId.get(c.of);
    const vs = byId.get(c.vs);
    if (!of || !vs)
      throw new Error(`content/calibration.json: check \`${c.name}\` names an unknown row`);
    /** @type {(a: number, b: number) => number} */
    const f = c.value === 'ratio' ? (a, b) => a / b : (a, b) => ((a - b) / b) * 100;
    const measured = f(of.measured, vs.measured);
    // A prediction of 0 in the denominator (e.g. no misses at all) makes the ratio unbounded
    // (or, over 0 too, undefined): report it as such, with null in JSON and CSV, never as
    // Infinity or NaN.
    const raw = f(of.predicted, vs.predicted);
    const predicted = Number.isFinite(raw) ? raw : null;
    const ok = predicted !== null && withinTolerance(c.tolerance, measured, predicted);
    return {
      kind: 'check',
      name: c.name,
      of: c.of,
      vs: c.vs,
      unit: c.value === 'ratio' ? 'x' : 'percent',
      measured,
      predicted,
      unbounded: predicted === null && !Number.isNaN(raw),
      predicted_of: of.predicted,
      predicted_vs: vs.predicted,
      operand_unit: of.predicted_unit,
      error_pct:
        c.value === 'ratio' && predicted !== null
          ? ((predicted - measured) / measured) * 100
          : null,
      tolerance: describeTolerance(c.tolerance),
      status: ok ? 'PASS' : c.known_gap ? 'GAP' : 'FAIL',
      note: ok ? null : (c.known_gap ?? null),
    };
  });
  const all = [...rows, ...checks];
  return {
    rows,
    checks,
    runs: runner.runs(),
    pass: all.every((r) => r.status === 'PASS' || r.status === 'INFO' || r.status === 'GAP'),
    gaps: all.filter((r) => r.status === 'GAP').length,
    failures: all.filter((r) => r.status === 'FAIL').length,
  };
}

/** A reader of content/datasets/<name>, each file parsed once. */
export function datasetLoader() {
  /** @type {Map<string, DatasetRow[]>} */
  const datasets = new Map();
  /** @type {(name: string) => DatasetRow[]} */
  return (name) => {
    if (!datasets.has(name)) {
      const file = resolve(DATASET_DIR, name);
      datasets.set(name, parseDataset(readFileSync(file, 'utf8'), `content/datasets/${name}`));
    }
    return /** @type {DatasetRow[]} */ (datasets.get(name));
  };
}

/**
 * The dataset row a calibration row compares with, and the benchmark model that predicts it.
 * @param {CalibrationSpec} spec
 * @param {(name: string) => DatasetRow[]} dataset
 * @param {Record<string, BenchmarkModel>} benchmarks
 */
export function measuredRow(spec, dataset, benchmarks) {
  const m = dataset(spec.dataset).find(
    (r) =>
      r.source === spec.source &&
      r.benchmark === spec.benchmark &&
      r.variant === spec.variant &&
      r.metric === spec.metric,
  );
  if (!m) {
    throw new Error(
      `content/calibration.json: row ${spec.id}: no ${spec.benchmark} ${spec.variant} ${spec.metric} in ${spec.dataset}`,
    );
  }
  const model = benchmarks[spec.benchmark];
  if (!model) {
    throw new Error(
      `content/calibration.json: row ${spec.id}: ${spec.benchmark} is not in content/benchmarks.json`,
    );
  }
  return { m, model };
}

/**
 * The model's prediction of one calibration row, in the row's unit (`predictedUnit` differs
 * only for count metrics). `extra` overrides go on top of the row's own settings.
 * @param {ReturnType<typeof makeRunner>} runner
 * @param {CalibrationSpec} spec
 * @param {BenchmarkModel} model
 * @param {string} unit the measured unit
 * @param {string[]} extra
 * @param {'low' | 'high'} [end] every estimated cost at this end of its range (the band)
 */
export function predictRow(runner, spec, model, unit, extra, end) {
  const base = [`machine=${spec.preset}`];
  // What to read from a run is benchmarks.json's, as for fit and the Data view: a count
  // metric's own path divided by its iterations, else the benchmark's summaryPath.
  const count = model.counts?.[spec.metric];
  const path = count?.summaryPath ?? model.summaryPath;
  /** @type {(set: string[]) => number} */
  const value = (set) => {
    const v = readSummaryPath(runner.run(model.scenario, [...base, ...set, ...extra], end), path);
    if (v === null) throw new Error(`row ${spec.id}: the summary has no ${path}`);
    return v;
  };
  if (spec.speedup) {
    return {
      predicted: value(spec.speedup.before) / value(spec.speedup.after),
      predictedUnit: unit,
    };
  }
  if (count) {
    // A rate the mail cannot give (its iteration count is unstated), e.g. misses per round
    // trip: compared only through ratios of rows in the same unit.
    const per = readSummaryPath(
      runner.run(model.scenario, [...base, ...spec.set, ...extra], end),
      count.perIteration,
    );
    if (!per) throw new Error(`row ${spec.id}: the summary has no nonzero ${count.perIteration}`);
    return {
      predicted: value(spec.set) / per,
      predictedUnit: spec.predicted_unit ?? `per ${count.perIteration}`,
    };
  }
  const per = NS_PER[unit] ?? MISSES_PER[unit] ?? 1;
  return { predicted: value(spec.set) / per, predictedUnit: unit };
}

/** @type {(v: number | null | undefined, digits?: number) => string} */
const fmt = (v, digits = 4) => {
  if (v === null || v === undefined) return '—';
  const a = Math.abs(v);
  if (a >= 1e5) return v.toExponential(3);
  return Number(v.toPrecision(digits)).toString();
};
/** @type {(v: number | null) => string} */
const pct = (v) => (v === null ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(2)}%`);

/** @typedef {ReturnType<typeof calibrate>} Report */

/** @param {Report} report */
export function formatReport(report) {
  /** @type {string[]} */
  const out = [];
  const head = [
    'source',
    'benchmark',
    'variant',
    'metric',
    'measured',
    'predicted',
    'error',
    'tolerance',
    'status',
  ];
  const banded = report.rows.some((r) => r.band_low !== undefined);
  const lines = report.rows.map((r) => [
    r.source,
    r.benchmark,
    r.variant,
    r.metric,
    `${fmt(r.measured, 5)} ${r.unit}${r.stddev !== null && r.stddev !== undefined ? ` ±${r.stddev}` : ''}`,
    `${fmt(r.predicted, 5)} ${r.predicted_unit ?? r.unit}`,
    pct(r.error_pct),
    r.tolerance,
    r.status,
    ...(banded ? [bandCell(r)] : []),
  ]);
  out.push(textTable([banded ? [...head, 'band (low – high, width)'] : head, ...lines]));
  out.push('');
  out.push('Derived checks');
  /** @type {(c: Report['checks'][number]) => string} */
  const predictedCheck = (c) => {
    if (c.predicted === null) {
      const what = c.unbounded ? 'unbounded' : 'undefined';
      return `predicted ${what} (${fmt(c.predicted_of)} / ${fmt(c.predicted_vs)} ${c.operand_unit})`;
    }
    return `predicted ${c.unit === 'x' ? `${fmt(c.predicted)}x` : pct(c.predicted)}`;
  };
  const ch = report.checks.map((c) => [
    c.name,
    `measured ${c.unit === 'x' ? `${fmt(c.measured)}x` : pct(c.measured)}`,
    predictedCheck(c),
    c.error_pct === null ? '' : `error ${pct(c.error_pct)}`,
    `tolerance ${c.tolerance}${c.unit === 'x' ? '' : ' %'}`,
    c.status,
  ]);
  out.push(textTable(ch));
  const notes = [...report.rows, ...report.checks].filter((r) => r.note && r.status !== 'PASS');
  const rowNotes = report.rows.filter((r) => r.note && r.status === 'PASS');
  if (rowNotes.length || notes.length) out.push('');
  for (const r of rowNotes) out.push(`note (${r.id}): ${r.note}`);
  for (const r of notes) out.push(`${r.status} (${'name' in r ? r.name : r.id}): ${r.note}`);
  out.push('');
  const n = report.rows.length + report.checks.length;
  out.push(
    `${n - report.failures - report.gaps} of ${n} pass` +
      (report.gaps ? `, ${report.gaps} known gap(s) documented in content/calibration.json` : '') +
      (report.failures ? `, ${report.failures} FAIL` : '') +
      ` (${report.runs} simulator runs)`,
  );
  return `${out.join('\n')}\n`;
}

/**
 * A row's band, its width (high ÷ low) and whether the measurement is inside it.
 * @param {Report['rows'][number]} r
 */
function bandCell(r) {
  if (r.band_low === undefined || r.band_high === undefined) return '';
  const width = r.band_low > 0 ? ` ×${fmt(r.band_high / r.band_low, 3)}` : '';
  // A row compared only through ratios is in another unit than its measurement.
  const comparable = r.status !== 'INFO' && (r.predicted_unit ?? r.unit) === r.unit;
  const inside = r.band_low <= r.measured && r.measured <= r.band_high;
  const where = comparable ? (inside ? ' in' : ' OUT') : '';
  return `${fmt(r.band_low, 4)} – ${fmt(r.band_high, 4)}${width}${where}`;
}

/** @param {(string | number)[][]} rows */
export function textTable(rows) {
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => String(r[j]).length)));
  return rows
    .map((r) =>
      r
        .map((c, j) => String(c).padEnd(widths[j]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** @param {Report} report */
export function reportCsv(report) {
  const cols = [
    'kind',
    'name',
    'benchmark',
    'variant',
    'metric',
    'unit',
    'measured',
    'stddev',
    'predicted',
    'predicted_unit',
    'error_pct',
    'tolerance',
    'status',
    // Only with --band.
    ...(report.rows.some((r) => r.band_low !== undefined) ? ['band_low', 'band_high'] : []),
  ];
  /** @type {(v: unknown) => string} */
  const cell = (v) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [...report.rows, ...report.checks].map((r) => {
    const fields = /** @type {Record<string, unknown>} */ (r);
    return cols.map((c) => cell(c === 'name' ? (fields.name ?? fields.id) : fields[c])).join(',');
  });
  return `${[cols.join(','), ...lines].join('\n')}\n`;
}
