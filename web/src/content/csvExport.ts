// Writes measurements back out as a dataset CSV (the schema of content/datasets/README.md),
// safe to open in a spreadsheet: a cell that a spreadsheet would run as a formula is written
// with a leading apostrophe, which spreadsheets read as "this is text".
import type { Dataset, Measurement } from './datasets';
import { cliFlags } from './cliFlags';
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

/** A comment line: one line whatever the file's name holds, and never a formula. */
const comment = (s: string) => `# ${s.replace(/[\r\n]+/g, ' ')}`;

/**
 * A kept dataset as a file to import again: its measurements in the schema (so the page and
 * `tlbscope fit` read it back without a mapping), after `#` comment lines (which both readers
 * skip) saying how the original file was read and the `tlbscope fit` flags that read it so.
 */
export function datasetToCsv(d: Pick<Dataset, 'file' | 'measurements' | 'imported'>): string {
  const lines = [
    comment(
      `tlbscope export of ${d.file}: ${d.measurements.length} measurements in the dataset schema, read back as they are by the Data view and tlbscope fit.`,
    ),
  ];
  if (d.imported) {
    const columns = Object.entries(d.imported.mapping)
      .map(([col, header]) => `${col} <- "${header}"`)
      .join(', ');
    lines.push(
      comment(
        `How ${d.file} was read: ${[...d.imported.notes, columns && `Columns: ${columns}.`].filter(Boolean).join(' ')}`,
      ),
    );
    const flags = cliFlags(d.imported);
    lines.push(
      comment(
        `The CLI reads ${d.file} the same way: tlbscope fit <file>${flags ? ` ${flags}` : ''}`,
      ),
    );
  }
  return `${lines.join('\r\n')}\r\n${measurementsToCsv(d.measurements)}`;
}
