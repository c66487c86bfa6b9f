// The text-import step before a CSV is validated (as spreadsheets' text import wizards do it):
// which row is the header, which rows above it are titles and which row under it holds units,
// the separator and the decimal mark (detected, overridable), values fixed for the whole file,
// throughput converted to per-operation latency, and two tools' own outputs (`perf stat -x,`
// and will-it-scale's table) recognised without a mapping. Its output is CSV text the schema's
// validation reads; a file already in the schema's shape passes through unchanged, so its row
// numbers stay the file's. Pure: text and options in, text and what was done out.
import Papa from 'papaparse';
import { normalizeHeader, SYNONYMS } from './columns.mjs';
import type { SchemaColumn } from './columns.mjs';

export type Separator = ',' | ';' | '\t';
export type DecimalMark = '.' | ',';

/** Schema columns a file may give one value for all its rows. */
export const FIXABLE = ['machine', 'benchmark', 'metric', 'unit', 'variant'] as const;
export type Fixable = (typeof FIXABLE)[number];

export interface ImportOptions {
  /** null: detected. */
  separator: Separator | null;
  decimal: DecimalMark | null;
  /** The header's row, from 1 as a spreadsheet counts (comment lines included); null: detected. */
  headerRow: number | null;
  /** Values for the whole file (empty strings are ignored). */
  fixed: Partial<Record<Fixable, string>>;
}

export const DETECT: ImportOptions = { separator: null, decimal: null, headerRow: null, fixed: {} };

export type Format = 'table' | 'perf-stat' | 'will-it-scale';

export interface Prepared {
  format: Format;
  separator: Separator;
  decimal: DecimalMark;
  /** From 1; 0 for a file without a header row (perf stat). */
  headerRow: number;
  /** Rows above the header, and a units row under it, that were skipped (from 1). */
  skipped: number[];
  unitsRow: number | null;
  /** The first rows as parsed with the separator, for the preview (row numbers from 1). */
  raw: { row: number; cells: string[] }[];
  /** CSV text for the schema's validation (the input itself when nothing needed doing). */
  text: string;
  /** What was done, in words, for the preview. */
  notes: string[];
}

/** Latency from throughput: each of `threads` threads completes ops_per_sec / threads ops a second. */
export const THROUGHPUT_RULE =
  'latency per operation = threads / ops_per_sec (each of the threads completes ops_per_sec / threads operations a second)';

const RAW_ROWS = 12;
const RAW_COLUMNS = 24;
const SEPARATORS: Separator[] = [',', ';', '\t'];
const THROUGHPUT =
  /^(ops|operations|loops|iterations|iter)(\/s|\/sec|_per_sec|_per_second| per second)$/i;
const THREAD_HEADERS = ['threads', 'tasks', 'nr_threads', 'nthreads', 'nr_tasks'];
const UNIT_WORDS =
  /^(ns|us|µs|μs|usec|nsec|ms|s|cycles|count|million|percent|%|x|ops\/s|loops\/s|ops_per_sec|unit|units|\[.*\]|\(.*\))$/i;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;
const DOT_NUMBER = /^[+-]?\d*\.\d+$/;
const NUMERIC = /^[+-]?(\d+([.,]\d+)?|[.,]\d+)([eE][+-]?\d+)?$/;

function lines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
}

/** The separator the first lines use most consistently (same count on most lines). */
export function detectSeparator(head: readonly string[]): Separator {
  let best: Separator = ',';
  let bestScore = 0;
  for (const sep of SEPARATORS) {
    const counts = head
      .filter((l) => l.trim() && !l.startsWith('#'))
      .map((l) => l.split(sep).length - 1);
    const modal = mode(counts.filter((c) => c > 0));
    if (modal === 0) continue;
    // Lines agreeing on the count, weighted by it: a decimal comma gives `;` files a few
    // commas per line too, but never the same number on every line as the separator does.
    const score = counts.filter((c) => c === modal).length * 10 + modal;
    if (score > bestScore) {
      best = sep;
      bestScore = score;
    }
  }
  return best;
}

function mode(xs: readonly number[]): number {
  const n = new Map<number, number>();
  let best = 0;
  let bestN = 0;
  for (const x of xs) {
    const k = (n.get(x) ?? 0) + 1;
    n.set(x, k);
    if (k > bestN || (k === bestN && x > best)) {
      best = x;
      bestN = k;
    }
  }
  return best;
}

function parseRows(text: string, sep: Separator): string[][] {
  const r = Papa.parse<string[]>(text, { delimiter: sep, skipEmptyLines: false });
  return r.data;
}

const isNumeric = (s: string) => NUMERIC.test(s.trim());
const filled = (cells: readonly string[]) => cells.filter((c) => c.trim() !== '').length;

function isPerfStat(rows: readonly string[][]): boolean {
  const data = rows.filter((r) => filled(r) > 0);
  return (
    data.length > 0 &&
    data.every(
      (r) =>
        r.length >= 3 &&
        (isNumeric(r[0]!) || /^<not (counted|supported)>$/.test(r[0]!.trim())) &&
        /^[A-Za-z][\w\-.:/=,]*$/.test(r[2]!.trim()),
    )
  );
}

/** will-it-scale's columns of ops/s per mode, after its first (tasks or threads) column. */
const WIS_MODES = ['processes', 'threads', 'ops_per_sec', 'ops/s'];

function isWillItScale(header: readonly string[]): boolean {
  const h = header.map(normalizeHeader);
  return (
    ['tasks', 'threads', 'nr_threads'].includes(h[0] ?? '') &&
    h.slice(1).some((c) => WIS_MODES.includes(c))
  );
}

/** The header: the first row (not a comment) with as many filled cells as the widest rows and no number. */
function detectHeader(rows: readonly string[][]): number {
  const width = mode(rows.map(filled).filter((n) => n > 0));
  const i = rows.findIndex(
    (r) => filled(r) >= Math.max(2, width) && r.every((c) => !c.trim() || !isNumeric(c)),
  );
  return i < 0 ? 0 : i;
}

function detectDecimal(rows: readonly string[][], sep: Separator): DecimalMark {
  if (sep === ',') return '.';
  let comma = 0;
  let dot = 0;
  for (const r of rows)
    for (const c of r) {
      if (DECIMAL_COMMA.test(c.trim())) comma++;
      else if (DOT_NUMBER.test(c.trim())) dot++;
    }
  return comma > dot ? ',' : '.';
}

function toDot(s: string): string {
  const t = s.trim();
  // 1.234,5 (thousands dots and a decimal comma) as well as 0,412.
  if (/^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/.test(t)) return t.replace(/\./g, '').replace(',', '.');
  return DECIMAL_COMMA.test(t) ? t.replace(',', '.') : s;
}

function columnOf(headers: readonly string[], col: SchemaColumn): number {
  const norm = headers.map(normalizeHeader);
  const i = norm.indexOf(col);
  return i >= 0 ? i : norm.findIndex((h) => (SYNONYMS[col] as readonly string[]).includes(h));
}

function unparse(headers: string[], rows: string[][]): string {
  return `${Papa.unparse({ fields: headers, data: rows }, { newline: '\n' })}\n`;
}

const nsOf = (threads: number, opsPerSec: number) => (threads / opsPerSec) * 1e9;
const round = (x: number) => Number(x.toPrecision(6));

/** The first `n` lines of `text`, without splitting the rest (a file may be 50 MB). */
function headLines(text: string, n: number): string[] {
  let at = 0;
  for (let k = 0; k < n && at >= 0; k++) {
    at = text.indexOf('\n', at);
    if (at >= 0) at++;
  }
  return lines(at < 0 ? text : text.slice(0, at));
}

const HEAD_LINES = 200;

export function prepareCsv(input: string, options: ImportOptions = DETECT): Prepared {
  const head = headLines(input, HEAD_LINES).map((l) => (l.startsWith('#') ? '' : l));
  const separator = options.separator ?? detectSeparator(head.slice(0, 40));
  // Comment lines (`perf stat` starts with `# started on …`) are blanked, not removed, so every
  // row keeps the number a text editor shows for it. Only the head is parsed to decide; the
  // whole file only when something has to be done to it.
  const commented = input.includes('\n#') || input.startsWith('#');
  const sample = parseRows(head.join('\n'), separator);
  let full: string[][] | null = null;
  const allRows = () =>
    (full ??= parseRows(
      commented
        ? lines(input)
            .map((l) => (l.startsWith('#') ? '' : l))
            .join('\n')
        : input,
      separator,
    ));
  // Clipped: the preview of a 100,000-column file is its first columns, not 100,000 cells a row.
  const raw = sample
    .map((cells, i) => ({
      row: i + 1,
      cells: cells.slice(0, RAW_COLUMNS).map((c) => (c.length > 80 ? `${c.slice(0, 80)}…` : c)),
    }))
    .filter((r) => filled(r.cells) > 0)
    .slice(0, RAW_ROWS);
  const fixed = Object.fromEntries(
    Object.entries(options.fixed).filter(([, v]) => v !== undefined && v.trim() !== ''),
  ) as Partial<Record<Fixable, string>>;
  const decimal = options.decimal ?? detectDecimal(sample, separator);
  const notes: string[] = [];
  if (commented) notes.push('Lines starting with # are comments: skipped.');

  if (options.headerRow === null && isPerfStat(sample)) {
    return { ...perfStat(allRows(), fixed, decimal), separator, decimal, raw };
  }
  const headerIndex = options.headerRow === null ? detectHeader(sample) : options.headerRow - 1;
  const header = (sample[headerIndex] ?? []).map((h) => h.trim());
  const skipped: number[] = [];
  for (let i = 0; i < headerIndex; i++) if (filled(sample[i] ?? []) > 0) skipped.push(i + 1);
  const next = sample[headerIndex + 1];
  const unitsRow =
    next && filled(next) > 0 && next.every((c) => !c.trim() || UNIT_WORDS.test(c.trim()))
      ? headerIndex + 2
      : null;
  const units = unitsRow
    ? sample[unitsRow - 1]!.map((c) => c.trim().replace(/^[[(]|[\])]$/g, ''))
    : [];
  const body = () =>
    allRows()
      .slice(unitsRow ?? headerIndex + 1)
      .filter((r) => filled(r) > 0);

  if (isWillItScale(header)) {
    return {
      ...willItScale(header, body(), fixed, decimal),
      separator,
      decimal,
      headerRow: headerIndex + 1,
      skipped,
      unitsRow,
      raw,
      notes: [...notes, ...willItScaleNotes(fixed)],
    };
  }

  const plain =
    separator === ',' &&
    decimal === '.' &&
    headerIndex === 0 &&
    !unitsRow &&
    !Object.keys(fixed).length &&
    !notes.length;
  const valueCol = columnOf(header, 'value');
  const unitCol = columnOf(header, 'unit');
  const valueUnit = fixed.unit ?? units[valueCol] ?? header[valueCol]?.match(/\(([^)]*)\)$/)?.[1];
  // Decided on the head: a unit column of ops/s there is one all the way down.
  const throughputCells =
    unitCol >= 0 &&
    sample.slice(headerIndex + 1).some((r) => THROUGHPUT.test((r[unitCol] ?? '').trim()));
  const throughput = (valueUnit !== undefined && THROUGHPUT.test(valueUnit)) || throughputCells;
  if (plain && !throughput) {
    return {
      format: 'table',
      separator,
      decimal,
      headerRow: 1,
      skipped,
      unitsRow,
      raw,
      text: input,
      notes,
    };
  }
  if (skipped.length)
    notes.push(
      `Row${skipped.length > 1 ? 's' : ''} ${skipped.join(', ')} above the header: skipped.`,
    );
  if (unitsRow) notes.push(`Row ${unitsRow} holds units: used as the units of its columns.`);
  if (separator !== ',') notes.push(`Separator: ${separator === '\t' ? 'tab' : `“${separator}”`}.`);
  if (decimal === ',') notes.push('Decimal mark: comma (0,412 is 0.412).');

  const headers = [...header];
  let out = body().map((r) =>
    headers.map((_, c) => (decimal === ',' ? toDot(r[c] ?? '') : (r[c] ?? ''))),
  );
  // A value column without a unit column takes its unit from the units row or its header.
  if (unitCol < 0 && !fixed.unit && valueUnit) {
    headers.push('unit');
    out = out.map((r) => [...r, valueUnit]);
  }
  for (const [col, v] of Object.entries(fixed)) {
    const at = columnOf(headers, col as SchemaColumn);
    // The file's own column stays visible under another name; the fixed value is the one used.
    if (at >= 0) headers[at] = `file's ${headers[at]}`;
    headers.push(col);
    out = out.map((r) => [...r, v]);
    notes.push(`${col} = “${v}” for every row.`);
  }
  if (throughput) {
    const threadsCol = headers.findIndex((h) => THREAD_HEADERS.includes(normalizeHeader(h)));
    const v = columnOf(headers, 'value');
    const u = columnOf(headers, 'unit');
    out = out.map((r) => {
      const unit = u >= 0 ? (r[u] ?? '').trim() : (valueUnit ?? '');
      if (!THROUGHPUT.test(unit)) return r;
      const ops = Number(r[v]);
      const threads = threadsCol >= 0 ? Number(r[threadsCol]) : 1;
      if (!(ops > 0) || !(threads > 0)) return r;
      const copy = [...r];
      copy[v] = String(round(nsOf(threads, ops)));
      if (u >= 0) copy[u] = 'ns';
      return copy;
    });
    notes.push(
      `Throughput converted to latency: ${THROUGHPUT_RULE}, in ns${threadsCol >= 0 ? `, threads from the “${headers[threadsCol]}” column` : '; no threads column, so threads = 1'}.`,
    );
  }
  return {
    format: 'table',
    separator,
    decimal,
    headerRow: headerIndex + 1,
    skipped,
    unitsRow,
    raw,
    text: unparse(headers, out),
    notes,
  };
}

function willItScaleNotes(fixed: Partial<Record<Fixable, string>>): string[] {
  return [
    'Recognised will-it-scale output (tasks, then ops/s per mode): each row becomes one op_latency per mode, its variant threads=<tasks> with processes=on (processes mode) or off (threads mode), as the kit’s wis-tlb-flush rows say it.',
    `Throughput converted to latency: ${THROUGHPUT_RULE}, in ns, with threads = the row's tasks.`,
    ...(fixed.machine ? [] : ['No machine given: set one below (it is “unstated” until then).']),
    ...Object.entries(fixed).map(([col, v]) => `${col} = “${v}” for every row.`),
  ];
}

function willItScale(
  header: readonly string[],
  body: readonly string[][],
  fixed: Partial<Record<Fixable, string>>,
  decimal: DecimalMark,
): Pick<Prepared, 'format' | 'text'> {
  const h = header.map(normalizeHeader);
  const modes = WIS_MODES.filter((m) => h.indexOf(m) > 0);
  const out: string[][] = [];
  for (const r of body) {
    const cell = (i: number) => (decimal === ',' ? toDot(r[i] ?? '') : (r[i] ?? '')).trim();
    const tasks = Number(cell(0));
    for (const m of modes) {
      const ops = Number(cell(h.indexOf(m)));
      if (!(tasks > 0) || !(ops > 0)) continue;
      out.push([
        fixed.machine ?? 'unstated',
        fixed.benchmark ?? 'will-it-scale',
        // In the words of the kit's wis-tlb-flush1/2 rows (content/benchmarks.json), so a
        // will-it-scale table with its benchmark fixed fits as it is.
        [
          fixed.variant,
          `threads=${tasks}`,
          m === 'processes' ? 'processes=on' : m === 'threads' ? 'processes=off' : '',
        ]
          .filter(Boolean)
          .join(';'),
        fixed.metric ?? 'op_latency',
        String(round(nsOf(tasks, ops))),
        'ns',
        String(tasks),
      ]);
    }
  }
  return {
    format: 'will-it-scale',
    text: unparse(['machine', 'benchmark', 'variant', 'metric', 'value', 'unit', 'cpus'], out),
  };
}

/** perf's own unit words, as the schema spells them. */
const PERF_UNITS: Record<string, string> = { msec: 'ms', usec: 'us', nsec: 'ns', sec: 's' };

function perfStat(
  rows: readonly string[][],
  fixed: Partial<Record<Fixable, string>>,
  decimal: DecimalMark,
): Omit<Prepared, 'separator' | 'decimal' | 'raw'> {
  const out: string[][] = [];
  const notCounted: string[] = [];
  for (const r of rows) {
    if (filled(r) === 0) continue;
    const event = r[2]!.trim();
    const v = r[0]!.trim();
    if (v.startsWith('<')) {
      notCounted.push(`${event} (${v})`);
      continue;
    }
    out.push([
      fixed.machine ?? 'unstated',
      fixed.benchmark ?? 'perf-stat',
      fixed.variant ?? 'default',
      fixed.metric ?? event,
      decimal === ',' ? toDot(v) : v,
      fixed.unit ?? PERF_UNITS[r[1]!.trim()] ?? (r[1]!.trim() || 'count'),
    ]);
  }
  const notes = [
    'Recognised `perf stat -x,` output: value, unit, event per line; each event is a metric (count when no unit is given).',
  ];
  if (notCounted.length) notes.push(`Not counted, so left out: ${notCounted.join(', ')}.`);
  if (!fixed.machine) notes.push('No machine given: set one below (it is “unstated” until then).');
  return {
    format: 'perf-stat',
    headerRow: 0,
    skipped: [],
    unitsRow: null,
    text: unparse(['machine', 'benchmark', 'variant', 'metric', 'value', 'unit'], out),
    notes,
  };
}
