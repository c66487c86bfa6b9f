// A dataset CSV read the way the page's import reads it: first the same text-import step
// (web/src/content/csvPrepare.ts: title and units rows, separator and decimal mark, perf stat
// and will-it-scale output, values fixed for the whole file), then columns found by name or a
// known synonym in any order (web/src/content/columns.mjs), extra columns ignored, units by
// alias, quoted cells parsed by papaparse. `--map column=header` names a column the synonyms
// miss, as the page's mapping dropdowns do; `--fix`, `--separator`, `--decimal` and
// `--header-row` are the page's text-import fields. Errors name the file, line and column;
// lines are those of the prepared text, as the page numbers its rows.
import Papa from 'papaparse';
import { DETECT, FIXABLE, prepareCsv } from '../src/content/csvPrepare';
import {
  canonicalUnit,
  normalizeHeader,
  REQUIRED,
  SCHEMA,
  suggestMapping,
} from '../src/content/columns.mjs';
import { DatasetError } from './calibrate.mjs';
/** @import { SchemaColumn } from '../src/content/columns.mjs' */
/** @import { DecimalMark, Fixable, ImportOptions, Separator } from '../src/content/csvPrepare' */

/** @type {(x: string) => x is SchemaColumn} */
const isColumn = (x) => /** @type {readonly string[]} */ (SCHEMA).includes(x);

/**
 * `--map` values (`value=latency_us`) as schema column → file header.
 * @param {string[]} maps
 * @param {string} file
 * @returns {Partial<Record<SchemaColumn, string>>}
 */
export function parseMaps(maps, file) {
  /** @type {Partial<Record<SchemaColumn, string>>} */
  const out = {};
  for (const m of maps) {
    const [col, header] = m.split('=');
    if (!isColumn(col) || !header) {
      throw new DatasetError(
        `${file}: --map ${m}: expected <column>=<header> with a column of ${SCHEMA.join(', ')}`,
      );
    }
    out[col] = header;
  }
  return out;
}

/** @type {(x: string) => x is Fixable} */
const isFixable = (x) => /** @type {readonly string[]} */ (FIXABLE).includes(x);

/** The words `--separator` takes, as a shell can pass them. */
const SEPARATOR_WORDS = /** @type {Record<string, Separator>} */ ({
  ',': ',',
  comma: ',',
  ';': ';',
  semicolon: ';',
  tab: '\t',
  '\t': '\t',
});

/**
 * The text-import options from the command line (`--fix`, `--separator`, `--decimal`,
 * `--header-row`); what is not given is detected, as the page does.
 * @param {{ fix?: string[], separator?: string, decimal?: string, headerRow?: number }} flags
 * @param {string} file
 * @returns {ImportOptions}
 */
export function importOptions(flags, file) {
  /** @type {Partial<Record<Fixable, string>>} */
  const fixed = {};
  for (const f of flags.fix ?? []) {
    const at = f.indexOf('=');
    const col = f.slice(0, Math.max(0, at));
    const value = f.slice(at + 1).trim();
    if (at < 0 || !isFixable(col) || !value) {
      throw new DatasetError(
        `${file}: --fix ${f}: expected <column>=<value> with a column of ${FIXABLE.join(', ')}`,
      );
    }
    fixed[col] = value;
  }
  /** @type {Separator | null} */
  let separator = null;
  if (flags.separator !== undefined) {
    separator = SEPARATOR_WORDS[flags.separator] ?? null;
    if (!separator)
      throw new DatasetError(`${file}: --separator ${flags.separator}: expected , or ; or tab`);
  }
  /** @type {DecimalMark | null} */
  let decimal = null;
  if (flags.decimal !== undefined) {
    if (flags.decimal !== '.' && flags.decimal !== ',')
      throw new DatasetError(`${file}: --decimal ${flags.decimal}: expected . or ,`);
    decimal = flags.decimal;
  }
  return { ...DETECT, separator, decimal, headerRow: flags.headerRow ?? null, fixed };
}

/**
 * @param {string} text
 * @param {Partial<Record<SchemaColumn, string>>} [maps]
 * @param {ImportOptions} [options]
 */
export function readMappedCsv(text, file = 'csv', maps = {}, options = DETECT) {
  const prepared = prepareCsv(text, options).text;
  const parsed = Papa.parse(prepared.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [headers = [], ...body] = /** @type {string[][]} */ (parsed.data);
  const mapping = suggestMapping(headers);
  for (const [col, header] of /** @type {[SchemaColumn, string][]} */ (Object.entries(maps))) {
    const i = headers.findIndex((h) => normalizeHeader(h) === normalizeHeader(header));
    if (i < 0) throw new DatasetError(`${file}:1: --map ${col}=${header}: no such column`);
    mapping[col] = i;
  }
  const missing = REQUIRED.filter((c) => mapping[c] < 0);
  if (missing.length) {
    throw new DatasetError(
      `${file}:1: no column for ${missing.map((c) => `\`${c}\``).join(', ')} (headers: ${headers.join(', ')}); rename one or pass --map ${missing[0]}=<header>`,
    );
  }
  return body.map((cells, k) => {
    const line = k + 2;
    /** @type {(col: SchemaColumn) => string} */
    const at = (col) => `${file}:${line}: column \`${headers[mapping[col]] ?? col}\``;
    /** @type {(col: SchemaColumn) => string} */
    const get = (col) => (mapping[col] >= 0 ? String(cells[mapping[col]] ?? '').trim() : '');
    /** @type {(col: SchemaColumn, optional?: boolean) => number | null} */
    const num = (col, optional) => {
      const raw = get(col);
      if (optional && raw === '') return null;
      const n = Number(raw);
      if (raw === '' || !Number.isFinite(n))
        throw new DatasetError(`${at(col)}: \`${raw}\` is not a number`);
      return n;
    };
    for (const col of REQUIRED) {
      if (col !== 'variant' && !get(col)) throw new DatasetError(`${at(col)}: empty`);
    }
    const unit = canonicalUnit(get('unit'));
    if (!unit) throw new DatasetError(`${at('unit')}: \`${get('unit')}\` is not a known unit`);
    return {
      arch: get('arch'),
      machine: get('machine'),
      benchmark: get('benchmark'),
      variant: get('variant'),
      metric: get('metric'),
      source: get('source'),
      unit,
      value: /** @type {number} */ (num('value')),
      stddev: num('stddev', true),
      cpus: num('cpus', true),
      runs: num('runs', true),
      line,
    };
  });
}
