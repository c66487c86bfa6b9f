/// <reference lib="webworker" />
// The CSV import worker: reads, decodes, parses and validates off the main thread, reporting
// progress, so a 50 MB file never freezes the page. Cancelling is terminating the worker. The
// parsed table stays here; only a preview and the validated measurements cross to the page.
import {
  checkSize,
  clip,
  decodeCsv,
  detectTypes,
  isLoadError,
  parseCsvText,
  tooBig,
  type Delimiter,
  type DetectedType,
  type LoadError,
  type Table,
} from './csv';
import {
  missingColumnError,
  missingColumns,
  suggestMapping,
  toMeasurements,
  type Mapping,
  type Validated,
} from './datasets';
import { isPerEventHeader } from './eventHandoff';
import { DETECT, prepareCsv, type ImportOptions, type Prepared } from './csvPrepare';

// Messages between the page and this worker (the client is components/data/csvClient.ts).
export type CsvRequest =
  | { type: 'file'; id: number; name: string; file: Blob }
  | { type: 'text'; id: number; name: string; text: string }
  | { type: 'map'; id: number; mapping: Mapping }
  /** The text-import options changed: the kept text is prepared and parsed again. */
  | { type: 'prepare'; id: number; options: ImportOptions };

export type Phase = 'read' | 'parse' | 'validate';

export type CsvResponse =
  | { type: 'progress'; id: number; phase: Phase; fraction: number }
  | { type: 'error'; id: number; error: LoadError }
  | {
      type: 'parsed';
      id: number;
      name: string;
      headers: string[];
      delimiter: Delimiter;
      records: number;
      preview: string[][];
      previewRows: number[];
      types: DetectedType[];
      mapping: Mapping;
      /** What the text-import step detected and did (without its output text). */
      prepared: Omit<Prepared, 'text'>;
      options: ImportOptions;
      /** The text of a per-event CSV, for the explorer's event overlay (null otherwise). */
      events: string | null;
    }
  | { type: 'validated'; id: number; result: Validated; missing: LoadError | null };

const PREVIEW_ROWS = 50;
/** Characters of a per-event CSV handed to the explorer (sessionStorage holds a few MB). */
const MAX_HANDED = 2_000_000;
let current: { id: number; table: Table; name: string } | null = null;
/** The decoded file, kept so that changed text-import options can prepare it again. */
let source: { id: number; name: string; text: string; note?: string } | null = null;

function post(msg: CsvResponse) {
  (self as DedicatedWorkerGlobalScope).postMessage(msg);
}

async function readAll(file: Blob, progress: (f: number) => void): Promise<Uint8Array> {
  const bytes = new Uint8Array(file.size);
  const reader = file.stream().getReader();
  let at = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // A file that grew after it was picked is still held to the limit.
    if (at + value.byteLength > bytes.byteLength) throw new RangeError('grew');
    bytes.set(value, at);
    at += value.byteLength;
    progress(at / Math.max(1, file.size));
  }
  return bytes.subarray(0, at);
}

self.onmessage = async (e: MessageEvent<CsvRequest>) => {
  const req = e.data;
  const progress = (phase: Phase) => (fraction: number) =>
    post({ type: 'progress', id: req.id, phase, fraction });
  if (req.type === 'map') {
    if (!current || current.id !== req.id) return;
    const missing = missingColumns(req.mapping);
    // With a required column unmapped every row would fail the same way: report the column once.
    const result: Validated = missing.length
      ? {
          measurements: [],
          issues: [...current.table.issues],
          accepted: 0,
          excluded: current.table.records,
          truncated: 0,
        }
      : toMeasurements(
          current.table,
          req.mapping,
          { kind: 'imported', file: current.name },
          progress('validate'),
        );
    post({
      type: 'validated',
      id: req.id,
      result,
      missing: missing.length ? missingColumnError(missing) : null,
    });
    return;
  }
  if (req.type === 'prepare') {
    if (!source || source.id !== req.id) return;
    current = null;
    return load(source.id, source.name, source.text, source.note, req.options, progress('parse'));
  }
  current = null;
  source = null;
  let text: string;
  let note: string | undefined;
  if (req.type === 'file') {
    // The size check reads metadata only: nothing is read or decoded for a file that is too big.
    const sizeError = checkSize(req.file.size);
    if (sizeError) return post({ type: 'error', id: req.id, error: sizeError });
    let bytes: Uint8Array;
    try {
      bytes = await readAll(req.file, progress('read'));
    } catch (err) {
      const error =
        err instanceof RangeError
          ? tooBig(req.file.size)
          : { kind: 'not-csv' as const, message: `The file could not be read: ${String(err)}` };
      return post({ type: 'error', id: req.id, error });
    }
    const decoded = decodeCsv(bytes);
    if ('error' in decoded) return post({ type: 'error', id: req.id, error: decoded.error });
    text = decoded.text;
    note = decoded.note;
  } else {
    const size = new Blob([req.text]).size;
    const sizeError = checkSize(size);
    if (sizeError) return post({ type: 'error', id: req.id, error: sizeError });
    text = req.text;
  }
  source = { id: req.id, name: req.name, text, note };
  load(req.id, req.name, text, note, DETECT, progress('parse'));
};

function load(
  id: number,
  name: string,
  text: string,
  note: string | undefined,
  options: ImportOptions,
  onProgress: (f: number) => void,
) {
  const { text: prepared, ...what } = prepareCsv(text, options);
  const parsed = parseCsvText(prepared, onProgress);
  if (isLoadError(parsed)) return post({ type: 'error', id, error: parsed });
  const table: Table = note
    ? {
        ...parsed,
        issues: [
          { severity: 'warning', kind: 'encoding', row: 0, column: '', value: '', message: note },
          ...parsed.issues,
        ],
      }
    : parsed;
  current = { id, table, name };
  const preview: string[][] = [];
  const previewRows: number[] = [];
  for (let r = 0; r < Math.min(PREVIEW_ROWS, table.records); r++) {
    // Clipped: one 100 k-character cell must not become a 100 k-character table cell.
    preview.push(table.headers.map((_, c) => clip(table.cell(r, c))));
    previewRows.push(table.rowOf(r));
  }
  post({
    type: 'parsed',
    id,
    name,
    headers: [...table.headers],
    delimiter: table.delimiter,
    records: table.records,
    preview,
    previewRows,
    types: detectTypes(table),
    mapping: suggestMapping(table.headers),
    prepared: what,
    options,
    events: isPerEventHeader(table.headers) && text.length <= MAX_HANDED ? text : null,
  });
}
