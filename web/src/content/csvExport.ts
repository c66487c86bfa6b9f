// Writes measurements back out as a dataset CSV (the schema of content/datasets/README.md),
// safe to open in a spreadsheet: a cell that a spreadsheet would run as a formula is written
// with a leading apostrophe, which spreadsheets read as "this is text".
import type { Measurement } from './datasets';
import { csvCell } from './csvCell.mjs';
import { SCHEMA } from './columns.mjs';

/** The dataset schema's columns, in order (content/datasets/README.md). */
export const DATASET_COLUMNS = SCHEMA;

/** One cell, escaped against formula injection and quoted where CSV needs it. */
export const escapeCell = csvCell;

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
