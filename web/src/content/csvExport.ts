// Writes measurements back out as a dataset CSV (the schema of content/datasets/README.md),
// safe to open in a spreadsheet: a cell that a spreadsheet would run as a formula is written
// with a leading apostrophe, which spreadsheets read as "this is text".
import type { Measurement } from './datasets';

export const DATASET_COLUMNS = [
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
] as const;

const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * One cell, escaped against formula injection (OWASP's list: = + - @ tab CR at the start) and
 * quoted when it holds a delimiter, a quote or a line break. Plain numbers such as -1.5 are
 * numbers to a spreadsheet, not formulas, and are written as they are.
 */
export function escapeCell(value: string): string {
  let s = value;
  if (/^[=+\-@\t\r]/.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((r) => r.map(escapeCell).join(',')).join('\r\n') + '\r\n';
}

const cell = (v: string | number | null): string => (v === null ? '' : String(v));

/** The measurements of a dataset as the CSV they can be imported from again. */
export function measurementsToCsv(ms: readonly Measurement[]): string {
  return toCsv(
    DATASET_COLUMNS,
    ms.map((m) => DATASET_COLUMNS.map((c) => cell(m[c]))),
  );
}
