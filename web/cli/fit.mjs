// `tlbscope fit <csv>`: least-squares fit of a machine's free cost parameters to measured rows
// of benchmarks the simulator has a scenario for (content/benchmarks.json). Levenberg–Marquardt
// over the simulator itself, with forward-difference Jacobians: bounded, deterministic (costs
// are integers, every run is seeded), and capped in simulator runs.
import { readFileSync } from 'node:fs';
import {
  BENCHMARKS_FILE,
  loadJson,
  parseDataset,
  readSummaryPath,
  toModelUnit,
} from './calibrate.mjs';
import { runOnce, ScenarioFailure } from './run.mjs';
import { readScenarioArg } from './wasm.mjs';

const TIME_UNITS = new Set(['ns', 'us', 'ms', 's']);
/** Variant keys that describe the measured system rather than a setting of the model. */
const DESCRIPTIVE_KEYS = new Set(['kernel']);

export class FitError extends Error {}

/**
 * The rows of `rows` a scenario can predict, as runs: per (benchmark, variant) the mean
 * (`op_latency`) if the file has it, else the best run (`op_latency_best`).
 */
export function selectRows(rows, { benchmark, benchmarks = loadJson(BENCHMARKS_FILE) } = {}) {
  const selected = [];
  const skipped = [];
  const candidates = rows.filter((r) => !benchmark || r.benchmark === benchmark);
  if (benchmark && candidates.length === 0) {
    throw new FitError(`no rows of benchmark ${benchmark} in the file`);
  }
  const hasMean = new Set(
    candidates.filter((r) => r.metric === 'op_latency').map((r) => `${r.benchmark}|${r.variant}`),
  );
  for (const r of candidates) {
    const model = benchmarks[r.benchmark];
    const skip = (reason) => skipped.push({ line: r.line, row: r, reason });
    if (!model) {
      skip(`no scenario models ${r.benchmark}`);
      continue;
    }
    if (r.metric !== 'op_latency' && r.metric !== 'op_latency_best') {
      skip(`metric ${r.metric} is not fitted (op_latency, op_latency_best are)`);
      continue;
    }
    if (r.metric === 'op_latency_best' && hasMean.has(`${r.benchmark}|${r.variant}`)) {
      skip('the mean of the same variant is used instead of its best run');
      continue;
    }
    if (!TIME_UNITS.has(r.unit)) {
      skip(`unit ${r.unit} is not a time`);
      continue;
    }
    if (r.variant.includes('->')) {
      skip('relative comparisons are not fitted');
      continue;
    }
    const overrides = [];
    const aliased = [];
    let bad = null;
    for (const pair of r.variant.split(';').filter(Boolean)) {
      // The same aliases the Data view applies (content/benchmarks.json), e.g. an unpatched
      // kernel without PCID runs as pcid=off.
      const use = model.aliases?.[pair] ?? pair;
      if (use !== pair) aliased.push({ from: pair, to: use });
      const [k, v = ''] = use.split('=');
      if (DESCRIPTIVE_KEYS.has(k)) continue;
      const re = model.settings[k];
      if (re && new RegExp(re).test(v)) overrides.push(`${k}=${v}`);
      else bad ??= `${pair} is not a setting of the model`;
    }
    if (bad) {
      skip(bad);
      continue;
    }
    selected.push({
      line: r.line,
      benchmark: r.benchmark,
      variant: r.variant,
      metric: r.metric,
      machine: r.machine,
      measured: toModelUnit(r.value, r.unit),
      unit: r.unit,
      scenario: model.scenario,
      summaryPath: model.summaryPath,
      overrides,
      aliased,
    });
  }
  return { selected, skipped };
}

/** Default parameters: each selected benchmark's `fitParams` in turn, at most one per row. */
export function defaultParams(selected, benchmarks = loadJson(BENCHMARKS_FILE)) {
  const lists = [...new Set(selected.map((s) => s.benchmark))].map(
    (b) => benchmarks[b].fitParams ?? [],
  );
  const out = [];
  for (let round = 0; lists.some((l) => l.length > round); round++) {
    for (const l of lists) if (l[round] && !out.includes(l[round])) out.push(l[round]);
  }
  const rows = new Set(selected.map((s) => `${s.benchmark}|${s.variant}`)).size;
  return out.slice(0, Math.max(1, rows));
}

function tryPreset(wasm, text, machine) {
  try {
    const sim = new wasm.Simulator(text, [`machine=${machine}`], 1);
    sim.free();
    return true;
  } catch {
    return false;
  }
}

/** The preset every run starts from: --machine, else the file's machine if it is a preset,
 * else the first scenario's own preset. */
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

function startCosts(wasm, scenario, preset) {
  const { text } = readScenarioArg(scenario);
  const sim = new wasm.Simulator(text, [`machine=${preset}`], 1);
  const costs = JSON.parse(sim.costsJson());
  sim.free();
  return costs;
}

function solve(A, b) {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    if (Math.abs(M[c][c]) < 1e-300) return null;
    for (let r = c + 1; r < n; r++) {
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r][n];
    for (let k = r + 1; k < n; k++) s -= M[r][k] * x[k];
    x[r] = s / M[r][r];
  }
  return x;
}

/**
 * Fits `params` (cost names) so that the selected rows' predictions match their measurements,
 * minimising the sum of squared relative residuals. Returns the fitted values and residuals.
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
  const x0 = names.map((p) => Math.max(1, start[p] ?? costs[p]));
  const lo = x0.map(() => 1);
  const hi = x0.map((v) => Math.max(20 * v, 1000));
  const clamp = (x) => x.map((v, j) => Math.min(hi[j], Math.max(lo[j], Math.round(v))));
  const texts = new Map();
  const cache = new Map();
  let runs = 0;
  const predict = (x) => {
    const key = x.join(',');
    if (cache.has(key)) return cache.get(key);
    const out = selected.map((s) => {
      if (!texts.has(s.scenario)) texts.set(s.scenario, readScenarioArg(s.scenario));
      const { text, file } = texts.get(s.scenario);
      const overrides = [
        `machine=${preset}`,
        ...s.overrides,
        ...names.map((p, j) => `costs.${p}=${x[j]}`),
      ];
      runs++;
      const v = readSummaryPath(runOnce(wasm, text, file, overrides, seed).summary, s.summaryPath);
      if (v === null)
        throw new ScenarioFailure(`${s.scenario}: the summary has no ${s.summaryPath}`);
      return v;
    });
    cache.set(key, out);
    return out;
  };
  const residuals = (x) => predict(x).map((v, i) => v / selected[i].measured - 1);
  const sq = (r) => r.reduce((a, v) => a + v * v, 0);

  let x = clamp(x0);
  let r = residuals(x);
  let cost = sq(r);
  let lambda = 1e-2;
  let iter = 0;
  const frozen = new Set();
  progress(`fit: ${names.join(', ')} from ${preset}; start rms ${rms(r)}`);
  while (iter < 50 && runs + selected.length * (names.length + 1) <= maxRuns) {
    iter++;
    // Forward-difference Jacobian at x (steps of 5 %, at least one unit, inside the bounds).
    const J = selected.map(() => new Array(names.length).fill(0));
    const active = [];
    for (let j = 0; j < names.length; j++) {
      if (frozen.has(j)) continue;
      let h = Math.max(1, Math.round(0.05 * x[j]));
      if (x[j] + h > hi[j]) h = -h;
      const xj = [...x];
      xj[j] += h;
      const rj = residuals(clamp(xj));
      let any = false;
      for (let i = 0; i < selected.length; i++) {
        J[i][j] = (rj[i] - r[i]) / h;
        if (J[i][j] !== 0) any = true;
      }
      if (any) active.push(j);
      else frozen.add(j);
    }
    if (active.length === 0) break;
    const JtJ = active.map((a) =>
      active.map((b) => selected.reduce((s, _, i) => s + J[i][a] * J[i][b], 0)),
    );
    const Jtr = active.map((a) => selected.reduce((s, _, i) => s + J[i][a] * r[i], 0));
    let improved = false;
    for (let tries = 0; tries < 8 && runs + selected.length <= maxRuns; tries++) {
      const A = JtJ.map((row, i) => row.map((v, k) => (i === k ? v * (1 + lambda) + 1e-12 : v)));
      const d = solve(
        A,
        Jtr.map((v) => -v),
      );
      if (!d) break;
      const cand = [...x];
      active.forEach((j, k) => (cand[j] += d[k]));
      const xc = clamp(cand);
      if (xc.every((v, j) => v === x[j])) {
        lambda *= 4;
        continue;
      }
      const rc = residuals(xc);
      const cc = sq(rc);
      if (cc < cost) {
        const gain = (cost - cc) / Math.max(cost, 1e-30);
        x = xc;
        r = rc;
        cost = cc;
        lambda = Math.max(lambda / 3, 1e-7);
        improved = gain > 1e-4;
        break;
      }
      lambda *= 4;
    }
    progress(`fit: iteration ${iter}, rms ${rms(r)}, ${runs} runs`);
    if (!improved) break;
  }
  const pred = predict(x);
  return {
    preset,
    runs,
    iterations: iter,
    params: names.map((p, j) => ({
      name: p,
      start: costs[p],
      value: x[j],
      bounds: [lo[j], hi[j]],
      identifiable: !frozen.has(j),
    })),
    residuals: selected.map((s, i) => ({
      line: s.line,
      benchmark: s.benchmark,
      variant: s.variant,
      modelled_as: s.aliased.map((a) => a.to),
      metric: s.metric,
      measured_ns: s.measured,
      predicted_ns: pred[i],
      residual_ns: pred[i] - s.measured,
      residual_pct: (pred[i] / s.measured - 1) * 100,
    })),
    rms_pct: Math.sqrt(cost / selected.length) * 100,
  };
}

function rms(r) {
  return `${(Math.sqrt(r.reduce((a, v) => a + v * v, 0) / r.length) * 100).toFixed(3)}%`;
}

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

/** The fitted machine as a TOML snippet that `--costs <file>` (or `--set`) applies. */
export function toToml(result, what) {
  const lines = [
    `# Fitted by \`tlbscope fit ${what}\`: rms residual ${result.rms_pct.toFixed(3)}% over ${result.residuals.length} rows.`,
    `# Use: tlbscope run <scenario> --costs <this file>  (= --set machine=${result.preset} --set costs.<name>=<value> ...)`,
    '[machine]',
    `preset = "${result.preset}"`,
    '',
    '[costs]',
    ...result.params.map((p) => `${p.name} = ${p.value}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** `--costs <file>`: a `[machine] preset` and `[costs]` integers, as `--set` overrides. */
export function costsFileOverrides(text, file) {
  const out = [];
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

export function readCsv(path) {
  return parseDataset(readFileSync(path, 'utf8'), path);
}
