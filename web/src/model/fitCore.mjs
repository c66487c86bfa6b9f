// The pure part of fitting a machine's cost parameters to measured rows, shared by the CLI
// (`tlbscope fit`, web/cli/fit.mjs) and the page (the simulator worker): which rows a scenario
// can predict, which parameters to free, and a bounded Levenberg–Marquardt over a `predict`
// function the caller supplies (it runs the simulator; this module never does). Plain
// JavaScript so Node runs it without a build; types in fitCore.d.mts.

export const NS_PER_UNIT = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };
const TIME_UNITS = new Set(Object.keys(NS_PER_UNIT));
/** Variant keys that describe the measured system rather than a setting of the model. */
const DESCRIPTIVE_KEYS = new Set(['kernel']);

export class FitError extends Error {}

/**
 * The rows of `rows` a scenario can predict, as runs: per (benchmark, variant) the mean
 * (`op_latency`) if the file has it, else the best run (`op_latency_best`).
 */
export function selectRows(rows, { benchmark, benchmarks }) {
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
      measured: r.value * NS_PER_UNIT[r.unit],
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
export function defaultParams(selected, benchmarks) {
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
 * Fits `names` (cost parameters, starting from `costs`) so that `predict(x)` (one prediction
 * per selected row, in ns) matches the rows' measurements, minimising the sum of squared
 * relative residuals. Integer costs within [1, max(20 × start, 1000)]; at most `maxRuns`
 * predictions of one row each. Returns the fitted values, each row's residual and the rms.
 */
export function fitCosts({
  selected,
  names,
  costs,
  preset,
  predict: predictAll,
  maxRuns = 400,
  progress = () => {},
  start = {},
}) {
  if (selected.length === 0) throw new FitError('no rows to fit');
  const x0 = names.map((p) => Math.max(1, start[p] ?? costs[p]));
  const lo = x0.map(() => 1);
  const hi = x0.map((v) => Math.max(20 * v, 1000));
  const clamp = (x) => x.map((v, j) => Math.min(hi[j], Math.max(lo[j], Math.round(v))));
  const cache = new Map();
  let runs = 0;
  const predict = (x) => {
    const key = x.join(',');
    if (cache.has(key)) return cache.get(key);
    runs += selected.length;
    const out = predictAll(x);
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
