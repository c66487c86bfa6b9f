// Untrusted CSV bytes → a table of cells, with every problem located by row, column and value.
// Pure and synchronous so it runs the same in the import worker (csvWorker.ts) and in tests.
//
// Order of checks, cheapest and most telling first (anchors D4; speedscope#478 "just tell me it's
// too big"):
//   1. size        — before a single byte is read or decoded: "too big", never "bad format"
//   2. binary      — NUL bytes or a known binary signature: "not a CSV"
//   3. encoding    — strict UTF-8 (fatal TextDecoder, BOM accepted): the first bad byte's row
//   4. structure   — the header line must have a delimiter: "not a CSV"
//   5. records     — RFC 4180 quoting; ragged, truncated and malformed rows become issues
// Cells are never interpreted beyond "is this a number": formulas and markup stay inert text and
// are flagged (see flagCell).
//
// Rows are counted as a spreadsheet shows them: the header is row 1, the first data row row 2.

/** The largest file the page loads: above it, the answer is "too big", not a parse attempt. */
export const MAX_BYTES = 50 * 1024 * 1024;
/** Columns read from a file; the dataset schema has 11, so more is never needed. */
export const MAX_COLUMNS = 256;
/** Data rows read from a file (a 50 MB file of short rows has about 2 M). */
export const MAX_RECORDS = 1_000_000;
/** Characters in one cell: no value, name or variant of the schema comes near it. */
export const MAX_CELL_CHARS = 4096;
/** Characters of a cell shown in the preview table (the full text stays in the file). */
export const SHOWN_CELL_CHARS = 200;

/** The start of a long text with an ellipsis and its length, for tables and messages. */
export function clip(s: string, max = SHOWN_CELL_CHARS): string {
  return s.length <= max
    ? s
    : `${s.slice(0, max)}… (${s.length.toLocaleString('en-US')} characters)`;
}

export type LoadErrorKind = 'too-big' | 'not-csv' | 'encoding' | 'empty' | 'missing-column';

/** Why a whole file was refused. Plain data: it crosses the worker boundary. */
export interface LoadError {
  kind: LoadErrorKind;
  message: string;
}

export type IssueKind =
  | 'quote'
  | 'ragged'
  | 'truncated'
  | 'type'
  | 'value'
  | 'formula'
  | 'html'
  | 'duplicate-header'
  | 'limit'
  | 'encoding';

/** One located problem. Errors exclude the row; warnings keep it (as inert text). */
export interface Issue {
  severity: 'error' | 'warning';
  kind: IssueKind;
  row: number;
  column: string;
  value: string;
  message: string;
}

/** The closing issue when a list of problems was cut short. */
export function moreProblems(dropped: number): Issue {
  return {
    severity: 'warning',
    kind: 'value',
    row: 0,
    column: '',
    value: '',
    message: `${dropped} more problems not listed`,
  };
}

export type Delimiter = ',' | ';' | '\t';

/**
 * Parsed records as offsets into the decoded text, not as strings: a 50 MB file has millions of
 * cells, and slicing them lazily keeps the worker's memory near the size of the text.
 */
export interface Table {
  readonly text: string;
  readonly delimiter: Delimiter;
  readonly headers: readonly string[];
  /** Data records (header excluded). */
  readonly records: number;
  /** Spreadsheet row of each data record (where the record starts). */
  rowOf(r: number): number;
  /** Number of fields in record r. */
  width(r: number): number;
  /** Cell text with quotes removed; '' beyond the record's width. */
  cell(r: number, c: number): string;
  /** Records excluded by a structural error (bad quoting, wrong field count). */
  readonly broken: ReadonlySet<number>;
  readonly issues: readonly Issue[];
}

export type Progress = (fraction: number) => void;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function tooBig(size: number): LoadError {
  return {
    kind: 'too-big',
    message: `Too big: the file is ${formatBytes(size)}; the page loads files up to ${formatBytes(MAX_BYTES)}. Split it, or drop per-run rows you do not need.`,
  };
}

/** Step 1: size, from metadata alone. */
export function checkSize(size: number): LoadError | null {
  return size > MAX_BYTES ? tooBig(size) : null;
}

const SIGNATURES: [number[], string][] = [
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (an .xlsx or .ods spreadsheet is one)'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF'],
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x1f, 0x8b], 'gzip-compressed data'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'an old Office document (.xls)'],
  [[0x7f, 0x45, 0x4c, 0x46], 'an ELF binary'],
];

/**
 * UTF-16 by its byte-order mark, or (without one) by NUL bytes in every other position of the
 * first bytes, as ASCII text in UTF-16 has. Null if the bytes are not UTF-16.
 */
export function utf16Of(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const n = Math.min(bytes.length & ~1, 512);
  if (n < 4) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const half = n / 2;
  if (odd >= half * 0.9 && even === 0) return 'utf-16le';
  if (even >= half * 0.9 && odd === 0) return 'utf-16be';
  return null;
}

/** Steps 1–3: bytes → text, or why not. `note` says what was converted on the way. */
export function decodeCsv(
  bytes: Uint8Array,
): { text: string; note?: string } | { error: LoadError } {
  const sizeError = checkSize(bytes.byteLength);
  if (sizeError) return { error: sizeError };
  if (bytes.byteLength === 0) return { error: { kind: 'empty', message: 'The file is empty.' } };
  for (const [sig, what] of SIGNATURES) {
    if (sig.every((b, i) => bytes[i] === b)) {
      return { error: { kind: 'not-csv', message: `Not a CSV: the file is ${what}.` } };
    }
  }
  const utf16 = utf16Of(bytes);
  if (utf16) {
    try {
      const text = new TextDecoder(utf16, { fatal: true }).decode(bytes);
      const name = utf16 === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE';
      return { text, note: `the file is ${name} (not UTF-8); it was converted to UTF-8 to read` };
    } catch {
      return {
        error: {
          kind: 'encoding',
          message: `Wrong encoding: the file looks like UTF-16 but is not valid UTF-16. Save it as UTF-8 and load it again.`,
        },
      };
    }
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return {
      error: {
        kind: 'not-csv',
        message: `Not a CSV: the file contains binary data (a NUL byte at byte ${nul}, row ${rowAtByte(bytes, nul)}).`,
      },
    };
  }
  try {
    // fatal: invalid UTF-8 is an error, never silently replaced by U+FFFD. The BOM is dropped.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { text };
  } catch {
    const at = firstInvalidUtf8(bytes);
    const hex = bytes[at].toString(16).padStart(2, '0');
    // A lone byte 0x80–0xFF followed by ASCII is how Latin-1 / Windows-1252 text (é, µ, °)
    // fails UTF-8; anything else is named only as "not UTF-8".
    const latin1 = bytes[at] >= 0x80 && (at + 1 >= bytes.length || bytes[at + 1] < 0x80);
    const what = latin1
      ? 'the file looks like Latin-1 (ISO-8859-1 or Windows-1252), not UTF-8'
      : 'the file is not UTF-8';
    return {
      error: {
        kind: 'encoding',
        message: `Wrong encoding: ${what} (byte 0x${hex} at byte ${at}, row ${rowAtByte(bytes, at)}). Save it as UTF-8 (e.g. "CSV UTF-8" in a spreadsheet) and load it again.`,
      },
    };
  }
}

function rowAtByte(bytes: Uint8Array, at: number): number {
  let row = 1;
  for (let i = 0; i < at; i++) if (bytes[i] === 10) row++;
  return row;
}

/** Offset of the first byte that breaks UTF-8 (only called once decoding has failed). */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    const n =
      c < 0x80
        ? 0
        : c >= 0xc2 && c <= 0xdf
          ? 1
          : c >= 0xe0 && c <= 0xef
            ? 2
            : c >= 0xf0 && c <= 0xf4
              ? 3
              : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) if (i + k >= b.length || (b[i + k] & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return Math.max(0, b.length - 1);
}

const DELIMITERS: Delimiter[] = [',', ';', '\t'];

/** The delimiter the header line uses most (outside quotes), or null if it has none. */
export function detectDelimiter(headerLine: string): Delimiter | null {
  const counts = new Map<Delimiter, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch as Delimiter)) {
      counts.set(ch as Delimiter, (counts.get(ch as Delimiter) ?? 0) + 1);
    }
  }
  let best: Delimiter | null = null;
  for (const d of DELIMITERS)
    if ((counts.get(d) ?? 0) > (best ? (counts.get(best) ?? 0) : 0)) best = d;
  return best;
}

/** Growable Uint32Array: record offsets for millions of cells without boxing. */
class U32 {
  a = new Uint32Array(1024);
  n = 0;
  push(v: number) {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

export const MAX_ISSUES = 500;
const QUOTE = 34;
const LF = 10;
const CR = 13;

/** Steps 4–5: text → table. Returns a LoadError only when there is no table at all. */
export function parseCsvText(input: string, onProgress?: Progress): Table | LoadError {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.trim() === '') return { kind: 'empty', message: 'The file is empty.' };
  let controls = 0;
  for (let k = 0; k < Math.min(text.length, 65536); k++) {
    const c = text.charCodeAt(k);
    // C0 controls other than tab, LF, VT, FF and CR (and DEL) do not occur in text.
    if ((c >= 1 && c <= 8) || (c >= 14 && c <= 31) || c === 127) controls++;
  }
  if (controls > 8) {
    return {
      kind: 'not-csv',
      message: `Not a CSV: the file holds ${controls} control characters in its first 64 KB (binary data).`,
    };
  }
  const nl = text.indexOf('\n');
  const delimiter = detectDelimiter(nl < 0 ? text : text.slice(0, nl));
  if (!delimiter) {
    return {
      kind: 'not-csv',
      message:
        'Not a CSV: the first line has no comma, semicolon or tab separating column names. The first line must be a header such as arch,machine,cpus,benchmark,…',
    };
  }
  const D = delimiter.charCodeAt(0);
  const issues: Issue[] = [];
  let dropped = 0;
  const issue = (i: Issue) => (issues.length < MAX_ISSUES ? issues.push(i) : dropped++);

  const start = new U32();
  const end = new U32();
  const quotedBits = new U32(); // 1 if the field was quoted (needs "" → " on read)
  const first = new U32(); // index of each record's first field
  const rows = new U32();
  const broken = new Set<number>();
  const n = text.length;
  let i = 0;
  let row = 1;
  let nextReport = 1 << 20;

  let cutAtRow = 0;
  while (i < n) {
    if (rows.n > MAX_RECORDS) {
      cutAtRow = row;
      break;
    }
    const recordRow = row;
    const recordFirst = start.n;
    let bad = false;
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        const s = i + 1;
        let j = s;
        for (;;) {
          j = text.indexOf('"', j);
          if (j < 0 || text.charCodeAt(j + 1) !== QUOTE) break;
          j += 2;
        }
        if (j < 0) {
          issue({
            severity: 'error',
            kind: 'truncated',
            row: recordRow,
            column: '',
            value: text.slice(s, s + 40),
            message: `a quoted field opens here and is never closed — the file looks truncated or has a stray quote`,
          });
          bad = true;
          i = n;
          start.push(s);
          end.push(n);
          quotedBits.push(1);
          break;
        }
        for (let k = text.indexOf('\n', s); k >= 0 && k < j; k = text.indexOf('\n', k + 1)) row++;
        start.push(s);
        end.push(j);
        quotedBits.push(1);
        i = j + 1;
        const c = text.charCodeAt(i);
        if (i < n && c !== D && c !== LF && c !== CR) {
          let k = i;
          while (k < n && text.charCodeAt(k) !== D && text.charCodeAt(k) !== LF) k++;
          issue({
            severity: 'error',
            kind: 'quote',
            row: recordRow,
            column: String(start.n - recordFirst - 1),
            value: text.slice(s - 1, Math.min(k, s + 60)),
            message: `text after a closing quote`,
          });
          bad = true;
          i = k;
        }
      } else {
        const s = i;
        const issueAt = bad ? -1 : issues.length;
        let c: number;
        while (i < n && (c = text.charCodeAt(i)) !== D && c !== LF && c !== CR) {
          if (c === QUOTE && !bad) {
            issue({
              severity: 'error',
              kind: 'quote',
              row: recordRow,
              column: String(start.n - recordFirst),
              value: '',
              message:
                'a quote inside an unquoted field (quote the whole field and double inner quotes)',
            });
            bad = true;
          }
          i++;
        }
        if (issueAt >= 0 && issues[issueAt]) issues[issueAt].value = text.slice(s, i);
        start.push(s);
        end.push(i);
        quotedBits.push(0);
      }
      const c = text.charCodeAt(i);
      if (i < n && c === D) {
        i++;
        if (i === n) {
          start.push(n);
          end.push(n);
          quotedBits.push(0);
        }
        continue;
      }
      if (c === CR) i++;
      if (text.charCodeAt(i) === LF) i++;
      row++;
      break;
    }
    const width = start.n - recordFirst;
    if (width === 1 && end.a[recordFirst] === start.a[recordFirst] && !quotedBits.a[recordFirst]) {
      // A blank line: not a record.
      start.n = end.n = quotedBits.n = recordFirst;
      continue;
    }
    if (bad) broken.add(first.n);
    first.push(recordFirst);
    rows.push(recordRow);
    if (i >= nextReport) {
      onProgress?.(i / n);
      nextReport = i + (1 << 20);
    }
  }
  first.push(start.n);

  const cellOf = (r: number, c: number): string => {
    const f = first.a[r] + c;
    if (f >= first.a[r + 1]) return '';
    const s = text.slice(start.a[f], end.a[f]);
    return quotedBits.a[f] ? s.replaceAll('""', '"') : s;
  };
  const widthOf = (r: number) => first.a[r + 1] - first.a[r];
  const headerWidth = widthOf(0);
  const headers = Array.from({ length: Math.min(headerWidth, MAX_COLUMNS) }, (_, c) =>
    clip(cellOf(0, c).trim(), SHOWN_CELL_CHARS),
  );
  const records = rows.n - 1;
  if (records === 0) {
    return {
      kind: 'empty',
      message: `Only a header: the file names ${headerWidth.toLocaleString('en-US')} columns (${headers.slice(0, 6).join(', ')}${headerWidth > 6 ? ', …' : ''}) but has no data rows.`,
    };
  }
  const limits: Issue[] = [];
  const limit = (message: string) =>
    limits.push({ severity: 'warning', kind: 'limit', row: 0, column: '', value: '', message });
  if (headerWidth > MAX_COLUMNS) {
    limit(
      `the file has ${headerWidth.toLocaleString('en-US')} columns; only the first ${MAX_COLUMNS} (the column limit) were read`,
    );
  }
  if (cutAtRow) {
    limit(
      `the file has more than ${MAX_RECORDS.toLocaleString('en-US')} data rows (the row limit); the first ${MAX_RECORDS.toLocaleString('en-US')} were read, from row ${cutAtRow.toLocaleString('en-US')} on nothing was`,
    );
  }

  // Column indexes in the issues above were field positions; name them now that headers exist.
  for (const x of issues)
    if (/^\d+$/.test(x.column)) x.column = headers[+x.column] ?? `#${+x.column + 1}`;
  const seen = new Set<string>();
  for (const h of headers) {
    if (seen.has(h)) {
      issue({
        severity: 'warning',
        kind: 'duplicate-header',
        row: 1,
        column: h,
        value: h,
        message: `the column name \`${h}\` appears twice; only the first is used`,
      });
    }
    seen.add(h);
  }
  for (let r = 1; r <= records; r++) {
    const w = widthOf(r);
    if (w === headerWidth || broken.has(r)) continue;
    broken.add(r);
    const last = r === records && !/\n\s*$/.test(text.slice(-2));
    issue({
      severity: 'error',
      kind: last && w < headerWidth ? 'truncated' : 'ragged',
      row: rows.a[r],
      column: '',
      value: '',
      message:
        last && w < headerWidth
          ? `the last row has ${w} of ${headerWidth} fields and no line end — the file looks truncated`
          : `has ${w} fields, the header has ${headerWidth}`,
    });
  }
  onProgress?.(1);
  if (dropped) issues.push(moreProblems(dropped));
  issues.unshift(...limits);
  return {
    text,
    delimiter,
    headers,
    records,
    // Record 0 is the header: data record r is internal record r + 1.
    rowOf: (r) => rows.a[r + 1],
    width: (r) => widthOf(r + 1),
    cell: (r, c) => cellOf(r + 1, c),
    broken: new Set([...broken].filter((r) => r > 0).map((r) => r - 1)),
    issues,
  };
}

export function isLoadError(x: unknown): x is LoadError {
  return typeof x === 'object' && x !== null && 'kind' in x && 'message' in x && !('cell' in x);
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/** Largest magnitude a number may have: sums and error bars of such numbers stay finite. */
export const MAX_MAGNITUDE = 1e15;

/** A plain decimal (no thousands separators, no locale comma) of at most MAX_MAGNITUDE, or null. */
export function parseNumber(s: string): number | null {
  const t = s.trim();
  if (!NUMBER.test(t)) return null;
  const x = Number(t);
  return Math.abs(x) <= MAX_MAGNITUDE ? x : null;
}

/** Why a non-empty cell is not a number, phrased for the user. */
export function notANumber(s: string): string {
  const t = s.trim();
  if (NUMBER.test(t)) {
    return Number.isFinite(Number(t))
      ? `\`${t}\` is out of range (numbers up to ${MAX_MAGNITUDE.toExponential()} in size)`
      : `\`${t}\` is too large to be a finite number`;
  }
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) return `\`${t}\` has a thousands separator`;
  if (/^[+-]?\d+,\d+$/.test(t))
    return `\`${t}\` uses a decimal comma; write ${t.replace(',', '.')}`;
  return `\`${t}\` is not a number`;
}

export type ColumnType = 'empty' | 'integer' | 'number' | 'text';

export interface DetectedType {
  type: ColumnType;
  /** Non-empty cells looked at. */
  filled: number;
  /** Of those, how many fit `type`. */
  fitting: number;
}

/** Share of non-empty cells that must be numbers for a column to be numeric (Datawrapper-style). */
export const TYPE_MAJORITY = 0.8;

/**
 * Majority vote with tolerance: a column is numeric when at least TYPE_MAJORITY of its non-empty
 * cells parse as numbers, so a few typos show up as located issues instead of turning the whole
 * column into text (rawgraphs#375).
 */
export function detectType(cells: Iterable<string>): DetectedType {
  let filled = 0;
  let numbers = 0;
  let integers = 0;
  for (const s of cells) {
    const t = s.trim();
    if (!t) continue;
    filled++;
    if (NUMBER.test(t)) {
      numbers++;
      if (INTEGER.test(t)) integers++;
    }
  }
  if (!filled) return { type: 'empty', filled, fitting: 0 };
  if (numbers / filled >= TYPE_MAJORITY) {
    return integers === numbers
      ? { type: 'integer', filled, fitting: integers }
      : { type: 'number', filled, fitting: numbers };
  }
  return { type: 'text', filled, fitting: filled };
}

export function detectTypes(table: Table): DetectedType[] {
  return table.headers.map((_, c) => {
    function* cells() {
      for (let r = 0; r < table.records; r++) if (!table.broken.has(r)) yield table.cell(r, c);
    }
    return detectType(cells());
  });
}

/**
 * Cells a spreadsheet would execute (`=cmd|…`, `+`, `-`, `@`, tab, CR: OWASP's CSV injection
 * list) or a browser would render as markup. Numbers such as -1.5 are neither.
 */
export function flagCell(s: string): { kind: 'formula' | 'html'; message: string } | null {
  if (/^[=+\-@\t\r]/.test(s) && parseNumber(s) === null) {
    return {
      kind: 'formula',
      message: `starts with ${JSON.stringify(s[0]).slice(1, -1)} like a spreadsheet formula; kept as inert text, never evaluated`,
    };
  }
  if (/<\/?[a-z!?]|javascript:|&#x?[0-9a-f]+;/i.test(s)) {
    return { kind: 'html', message: 'contains HTML/script markup; shown as plain text only' };
  }
  return null;
}

/** "row 14, column value: `abc` is not a number" — where first, then what. */
export function describeIssue(i: Issue): string {
  const where = [i.row > 0 ? `row ${i.row}` : '', i.column ? `column ${i.column}` : '']
    .filter(Boolean)
    .join(', ');
  const v = i.value.length > 60 ? `${i.value.slice(0, 57)}…` : i.value;
  const what = v && !i.message.includes('`') ? `\`${v}\` ${i.message}` : i.message;
  return where ? `${where}: ${what}` : what;
}
