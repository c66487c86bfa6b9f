// The dataset schema of content/datasets/README.md: column mapping, validation into
// measurements with provenance, and the datasets shipped with the site (bundled at build time).
import {
  flagCell,
  MAX_CELL_CHARS,
  MAX_ISSUES,
  moreProblems,
  notANumber,
  parseCsvText,
  parseNumber,
  type Issue,
  type LoadError,
  type Progress,
  type Table,
} from './csv';
import sourcesJson from '../../../content/datasets/sources.json';
import benchmarkTable from '../../../content/benchmarks.json';
import { SETTINGS } from '../app/settings';
import { REQUIRED, SCHEMA, suggestMapping, UNIT_ALIASES, type SchemaColumn } from './columns.mjs';

import type { ImportOptions } from './csvPrepare';
export { REQUIRED, SCHEMA, suggestMapping } from './columns.mjs';
export type { SchemaColumn } from './columns.mjs';

export const EXPECTED_TYPE: Record<SchemaColumn, 'text' | 'number' | 'integer'> = {
  arch: 'text',
  machine: 'text',
  cpus: 'integer',
  benchmark: 'text',
  variant: 'text',
  metric: 'text',
  value: 'number',
  unit: 'text',
  stddev: 'number',
  runs: 'integer',
  source: 'text',
};

/** Schema column → index of the file's column, or -1 when unmapped. */
export type Mapping = Record<SchemaColumn, number>;

export function missingColumns(m: Mapping): SchemaColumn[] {
  return REQUIRED.filter((c) => m[c] < 0);
}

export function missingColumnError(missing: readonly SchemaColumn[]): LoadError {
  const names = missing.map((c) => `\`${c}\``).join(', ');
  return {
    kind: 'missing-column',
    message: `Missing column${missing.length > 1 ? 's' : ''} ${names}: no column of the file is mapped to ${missing.length > 1 ? 'them' : 'it'}. Pick the matching column below, or add it to the file.`,
  };
}

/** Where a measurement came from inside the app (shipped with the site or imported). */
export interface Origin {
  kind: 'shipped' | 'imported';
  file: string;
}

/** One measured number with everything needed to say where it comes from. */
export interface Measurement {
  arch: string;
  machine: string;
  cpus: number | null;
  benchmark: string;
  variant: string;
  metric: string;
  value: number;
  unit: string;
  stddev: number | null;
  runs: number | null;
  source: string;
  origin: Origin;
  /** Spreadsheet rows of the file behind this number. */
  rows: number[];
  /** Set when mean and stddev were computed here from per-run rows. */
  aggregated: boolean;
}

export const UNITS = [...new Set(Object.values(UNIT_ALIASES))];

export interface Validated {
  measurements: Measurement[];
  issues: Issue[];
  /** Data rows accepted / excluded. */
  accepted: number;
  excluded: number;
  /** Measurements beyond MAX_MEASUREMENTS that were not kept. */
  truncated: number;
}

export const MAX_MEASUREMENTS = 20_000;

/** Architectures the model has. */
const ARCHES = ['x86', 'arm64'];
const TIME_UNITS = new Set(['ns', 'us', 'ms', 's', 'cycles']);

/**
 * Keys a `variant` may use: the settings vocabulary, the benchmarks' own settings and aliases
 * (content/benchmarks.json), `kernel` (describes the measured system) and `costs.<name>`.
 */
const VARIANT_KEYS = new Set<string>([
  ...SETTINGS.map((x) => x.key),
  'kernel',
  'cpus',
  'variant',
  ...Object.values(
    benchmarkTable as Record<string, { settings: object; aliases?: Record<string, string> }>,
  ).flatMap((b) => [
    ...Object.keys(b.settings),
    ...Object.keys(b.aliases ?? {}).map((a) => a.split('=')[0]),
  ]),
]);

/** Variant keys (`key=value` pairs split on `;`) that are not in VARIANT_KEYS. */
export function unknownVariantKeys(variant: string): string[] {
  if (variant.includes('->')) return [];
  return variant
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p.includes('='))
    .map((p) => p.split('=')[0].trim())
    .filter((k) => !VARIANT_KEYS.has(k) && !k.startsWith('costs.'));
}

/**
 * Mapped rows → measurements. Rows with an error are excluded (and listed); formula- or
 * markup-bearing text is kept inert and flagged. Several rows that differ only in value and
 * carry no stddev are per-run values: they become one mean ± sample stddev with runs = rows.
 */
export function toMeasurements(
  table: Table,
  mapping: Mapping,
  origin: Origin,
  onProgress?: Progress,
): Validated {
  const issues: Issue[] = [...table.issues];
  let dropped = 0;
  const issue = (i: Issue) => (issues.length < MAX_ISSUES ? issues.push(i) : dropped++);
  const groups = new Map<string, { m: Measurement; values: number[] }[]>();
  let accepted = 0;
  let excluded = table.broken.size;
  const cell = (r: number, c: SchemaColumn) => (mapping[c] >= 0 ? table.cell(r, mapping[c]) : '');
  const columnName = (c: SchemaColumn) =>
    mapping[c] >= 0 && table.headers[mapping[c]] !== c ? `${c} (${table.headers[mapping[c]]})` : c;

  for (let r = 0; r < table.records; r++) {
    if (r % 65536 === 0) onProgress?.(r / Math.max(1, table.records));
    if (table.broken.has(r)) continue;
    const row = table.rowOf(r);
    let ok = true;
    const fail = (c: SchemaColumn, value: string, message: string) => {
      ok = false;
      issue({ severity: 'error', kind: 'value', row, column: columnName(c), value, message });
    };
    const text: Partial<Record<SchemaColumn, string>> = {};
    for (const c of SCHEMA) {
      const v = cell(r, c);
      text[c] = v;
      if (v.length > MAX_CELL_CHARS) {
        fail(
          c,
          v.slice(0, 40),
          `is ${v.length.toLocaleString('en-US')} characters long, over the ${MAX_CELL_CHARS.toLocaleString('en-US')}-character cell limit`,
        );
        text[c] = '';
        continue;
      }
      if (EXPECTED_TYPE[c] !== 'text') continue;
      const flag = flagCell(v);
      if (flag) {
        issue({
          severity: 'warning',
          kind: flag.kind,
          row,
          column: columnName(c),
          value: v,
          message: flag.message,
        });
      }
    }
    for (const c of REQUIRED)
      if (!text[c]?.trim()) fail(c, '', 'empty, but the column is required');
    const num = (c: SchemaColumn, integer: boolean, min: number): number | null => {
      const v = (text[c] ?? '').trim();
      if (!v) return null;
      const x = parseNumber(v);
      if (x === null) {
        fail(c, v, notANumber(v));
        return null;
      }
      if ((integer && !Number.isInteger(x)) || x < min) {
        fail(c, v, `\`${v}\` must be ${integer ? 'a whole number' : 'a number'} ≥ ${min}`);
        return null;
      }
      return x;
    };
    const value = text.value?.trim() ? num('value', false, -Infinity) : null;
    const stddev = num('stddev', false, 0);
    const runs = num('runs', true, 1);
    const cpus = num('cpus', true, 1);
    const rawUnit = (text.unit ?? '').trim();
    const unit = UNIT_ALIASES[rawUnit.toLowerCase()] ?? UNIT_ALIASES[rawUnit];
    if (rawUnit && !unit) {
      fail('unit', rawUnit, `\`${rawUnit}\` is not a known unit (${UNITS.join(', ')})`);
    }
    if (!ok || value === null) {
      excluded++;
      continue;
    }
    const warn = (c: SchemaColumn, v: string, message: string) =>
      issue({ severity: 'warning', kind: 'value', row, column: columnName(c), value: v, message });
    if (value < 0 && TIME_UNITS.has(unit!)) {
      warn('value', text.value!.trim(), `is a negative ${unit} latency; kept, but check it`);
    }
    if (stddev !== null && stddev > Math.abs(value) && value !== 0) {
      warn(
        'stddev',
        text.stddev!.trim(),
        `is larger than the value (${value}); kept, but the runs vary more than the mean`,
      );
    }
    const arch = (text.arch ?? '').trim();
    if (arch && !ARCHES.includes(arch)) {
      warn(
        'arch',
        arch,
        `\`${arch}\` is not an architecture the model has (x86, arm64); kept, not predicted`,
      );
    }
    const unknown = unknownVariantKeys(text.variant ?? '');
    if (unknown.length) {
      warn(
        'variant',
        text.variant!.trim(),
        `uses ${unknown.map((k) => `\`${k}\``).join(', ')}, not a setting of the model; kept, not predicted`,
      );
    }
    accepted++;
    const m: Measurement = {
      arch: (text.arch ?? '').trim(),
      machine: text.machine!.trim(),
      cpus,
      benchmark: text.benchmark!.trim(),
      variant: text.variant!.trim(),
      metric: text.metric!.trim(),
      value,
      unit: unit!,
      stddev,
      runs,
      source: (text.source ?? '').trim() || origin.file,
      origin,
      rows: [row],
      aggregated: false,
    };
    const key = [
      m.source,
      m.arch,
      m.machine,
      m.cpus,
      m.benchmark,
      m.variant,
      m.metric,
      m.unit,
    ].join('\u0000');
    const list = groups.get(key) ?? [];
    list.push({ m, values: [value] });
    groups.set(key, list);
  }

  const measurements: Measurement[] = [];
  let truncated = 0;
  const keep = (m: Measurement) =>
    measurements.length < MAX_MEASUREMENTS ? measurements.push(m) : truncated++;
  for (const list of groups.values()) {
    const perRun =
      list.length > 1 &&
      list.every((x) => x.m.stddev === null && (x.m.runs === null || x.m.runs === 1));
    if (!perRun) {
      for (const x of list) keep(x.m);
      continue;
    }
    const values = list.map((x) => x.m.value);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1));
    keep({
      ...list[0].m,
      value: mean,
      stddev: sd,
      runs: values.length,
      rows:
        list.length <= 3
          ? list.map((x) => x.m.rows[0])
          : [list[0].m.rows[0], list[list.length - 1].m.rows[0]],
      aggregated: true,
    });
  }
  onProgress?.(1);
  if (dropped) issues.push(moreProblems(dropped));
  return { measurements, issues, accepted, excluded, truncated };
}

/** A source's provenance as content/datasets/sources.json records it (null: not stated). */
export interface Source {
  kind: 'patch-mail' | 'local';
  excerpt_file: string | null;
  also_reported_in?: { excerpt_file: string; title: string; date: string | null }[];
  title: string;
  mail: string | null;
  author: string | null;
  date: string | null;
  machine: string | null;
  kernel_baseline: string | null;
  conditions: string | null;
  runs: number | null;
  notes: string | null;
  raw_runs_us?: Record<string, number[]>;
}

export const sources = sourcesJson as Record<string, Source>;

const files = import.meta.glob('../../../content/datasets/*.csv', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export interface Dataset {
  file: string;
  measurements: Measurement[];
  issues: Issue[];
  /** How an import read its file (text-import options, what they did, the column mapping). */
  imported?: ImportRecipe;
  /**
   * The last machine fitted to it, kept with it so that a reload still shows the fit. Opaque
   * here (the fit's types live above content/); the fit panel reads it back.
   */
  fit?: unknown;
}

/** What an import did to its file, kept with the dataset so that it can be told and redone. */
export interface ImportRecipe {
  options: ImportOptions;
  notes: string[];
  /** File header → schema column, as mapped. */
  mapping: Partial<Record<SchemaColumn, string>>;
}

/** Parses one shipped file with the same code path as an import (so the two cannot drift). */
export function parseDataset(file: string, text: string, kind: Origin['kind']): Dataset {
  const table = parseCsvText(text);
  if ('kind' in table) {
    const e = table as LoadError;
    return {
      file,
      measurements: [],
      issues: [
        { severity: 'error', kind: 'value', row: 0, column: '', value: '', message: e.message },
      ],
    };
  }
  const v = toMeasurements(table, suggestMapping(table.headers), { kind, file });
  return { file, measurements: v.measurements, issues: v.issues };
}

/** Every CSV in content/datasets/, sorted by file name. */
export const shippedDatasets: readonly Dataset[] = Object.entries(files)
  .map(([path, text]) => parseDataset(path.replace(/^.*\//, ''), text, 'shipped'))
  .sort((a, b) => a.file.localeCompare(b.file));
