// The dataset schema's column names and the names other tools use for them, shared by the
// page's import (datasets.ts) and the CLI's `fit` (web/cli/mappedCsv.mjs), so a file the page
// maps is a file the CLI reads. Plain JavaScript so Node runs it without a build; types in
// columns.d.mts.

export const SCHEMA = [
  'arch',
  'machine',
  'cpus',
  'benchmark',
  'variant',
  'metric',
  'value',
  'unit',
  'stddev',
  'runs',
  'source',
];

/** Columns without which a row says nothing comparable; the others may be absent. */
export const REQUIRED = ['machine', 'benchmark', 'variant', 'metric', 'value', 'unit'];

export const SYNONYMS = {
  arch: ['arch', 'architecture', 'isa'],
  machine: ['machine', 'host', 'hostname', 'system', 'cpu_model'],
  cpus: ['cpus', 'ncpus', 'nproc', 'cores', 'cpu_count'],
  benchmark: ['benchmark', 'bench', 'test', 'workload'],
  variant: ['variant', 'config', 'configuration', 'setting', 'settings'],
  metric: ['metric', 'measure', 'quantity'],
  value: ['value', 'mean', 'avg', 'average', 'result'],
  unit: ['unit', 'units'],
  stddev: ['stddev', 'std', 'sd', 'stdev', 'std_dev', 'standard_deviation'],
  runs: ['runs', 'n', 'count_runs', 'repetitions', 'samples'],
  source: ['source', 'origin', 'provenance', 'reference'],
};

export const UNIT_ALIASES = {
  us: 'us',
  µs: 'us',
  μs: 'us',
  usec: 'us',
  ns: 'ns',
  nsec: 'ns',
  ms: 'ms',
  s: 's',
  cycles: 'cycles',
  count: 'count',
  million: 'million',
  percent: 'percent',
  '%': 'percent',
  x: 'x',
  per_s: 'per_s',
  '/s': 'per_s',
};

export const normalizeHeader = (h) =>
  h
    .trim()
    .toLowerCase()
    .replace(/\(.*\)$/, '')
    .trim()
    .replace(/[\s-]+/g, '_');

/** Exact names first, then known synonyms; a file column is used at most once. */
export function suggestMapping(headers) {
  const norm = headers.map(normalizeHeader);
  const used = new Set();
  const m = {};
  for (const col of SCHEMA) {
    const i = norm.findIndex((h, k) => !used.has(k) && h === col);
    m[col] = i;
    if (i >= 0) used.add(i);
  }
  for (const col of SCHEMA) {
    if (m[col] >= 0) continue;
    const i = norm.findIndex((h, k) => !used.has(k) && SYNONYMS[col].includes(h));
    m[col] = i;
    if (i >= 0) used.add(i);
  }
  return m;
}

/** A unit as the schema spells it, or undefined when unknown. */
export function canonicalUnit(raw) {
  return UNIT_ALIASES[raw.toLowerCase()] ?? UNIT_ALIASES[raw];
}
