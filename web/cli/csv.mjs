// The CLI's CSV output: the tidy schema of content/datasets/README.md (one measurement per
// row), so sweeps load into the web app next to measured data. Model output is labelled
// source=tlbscope-model: predicted, not measured.
import { SCHEMA as COLUMNS } from '../src/content/columns.mjs';
import { csvCell } from '../src/content/csvCell.mjs';

/** @import { CliRun } from './run.mjs' */

export { COLUMNS, csvCell };

/** @typedef {Record<string, string | number>} CsvRow */

/** The fields of a summary statistic that the CLI reports. */
export const STAT_FIELDS = ['mean', 'p50', 'p99', 'max'];

/**
 * Whether a summary value is a statistic (`{ count, mean, p50, … }`) rather than a number.
 * @param {unknown} v
 * @returns {v is Record<string, number>}
 */
export function isStat(v) {
  return !!v && typeof v === 'object' && !Array.isArray(v) && 'mean' in v;
}

/**
 * @param {string} scenarioId
 * @param {CliRun} run
 * @returns {CsvRow[]}
 */
export function toRows(scenarioId, run) {
  const s = run.summary;
  const base = {
    arch: run.arch ?? String(s.arch ?? ''),
    machine: String(s.machine ?? ''),
    cpus: run.cpus ?? '',
    benchmark: scenarioId,
    variant: run.overrides.join(';'),
    stddev: '',
    runs: 1,
    source: 'tlbscope-model',
  };
  /** @type {CsvRow[]} */
  const rows = [];
  for (const [key, value] of Object.entries(s)) {
    if (isStat(value)) {
      const metric = key.replace(/_ns$/, '');
      for (const f of STAT_FIELDS) {
        rows.push({
          ...base,
          metric: f === 'mean' ? metric : `${metric}_${f}`,
          value: value[f],
          unit: 'ns',
        });
      }
    } else if (typeof value === 'number') {
      const isNs = key.endsWith('_ns');
      rows.push({ ...base, metric: key.replace(/_ns$/, ''), value, unit: isNs ? 'ns' : 'count' });
    } else if (Array.isArray(value) && key === 'violations') {
      rows.push({ ...base, metric: 'violations', value: value.length, unit: 'count' });
    }
  }
  return rows;
}

/** @param {CsvRow[]} rows */
export function toCsv(rows) {
  return (
    [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => csvCell(r[c])).join(','))].join(
      '\n',
    ) + '\n'
  );
}
