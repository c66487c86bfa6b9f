// Per-event measurements (content/datasets/README.md, "Per-event timings"): one row per measured
// event — a flush, an IPI handler — to draw on the explorer timeline as a "measured" lane
// overlay. Same conventions as the dataset importer: the bytes go through csv.ts (size, binary,
// encoding, quoting), columns are found by name, and every problem is located by row and column.
import {
  describeIssue,
  flagCell,
  isLoadError,
  MAX_ISSUES,
  notANumber,
  parseCsvText,
  parseNumber,
  type Issue,
  type LoadError,
} from './csv';

export const EVENT_COLUMNS = [
  'time_ns',
  'cpu',
  'event',
  'duration_ns',
  'machine',
  'source',
] as const;
export type EventColumn = (typeof EVENT_COLUMNS)[number];

/** `duration_ns` may be empty (an instant); every other column must have a value. */
const OPTIONAL: readonly EventColumn[] = ['duration_ns'];

/** The most events drawn: beyond it the file is refused as too dense to read on a timeline. */
export const MAX_EVENTS = 100_000;

export interface MeasuredEvent {
  /** Start, in ns from the start of the measured window (aligned with the model's 0). */
  time: number;
  cpu: number;
  event: string;
  /** 0 for an instant. */
  duration: number;
  machine: string;
  source: string;
  /** Spreadsheet row (header = 1). */
  row: number;
}

export interface MeasuredEvents {
  file: string;
  events: MeasuredEvent[];
  /** "measured on <machine> (<source>)" for each distinct pair, in order of appearance. */
  labels: string[];
  issues: Issue[];
}

const norm = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

export function measuredLabel(machine: string, source: string): string {
  return `measured on ${machine} (${source})`;
}

/**
 * Other names tools give the columns. Only names that say nanoseconds stand for the time
 * columns: a `timestamp` in seconds read as ns would put every event at the window's start,
 * so such a column is mapped by the reader, who knows its unit.
 */
const EVENT_SYNONYMS: Record<EventColumn, readonly string[]> = {
  time_ns: ['time_ns', 'ts_ns', 'timestamp_ns', 'start_ns', 't_ns', 'time_(ns)', 'start_(ns)'],
  cpu: ['cpu', 'core', 'cpu_id', 'cpuid', 'on_cpu'],
  event: ['event', 'name', 'event_name', 'tracepoint', 'kind', 'type'],
  duration_ns: ['duration_ns', 'dur_ns', 'duration_(ns)', 'latency_ns', 'len_ns', 'elapsed_ns'],
  machine: ['machine', 'host', 'hostname', 'system'],
  source: ['source', 'tool', 'tracer', 'origin'],
};

/** Each column's index in the file's header (-1: none), as the overlay's mapping shows it. */
export type EventMapping = Record<EventColumn, number>;

/** Columns a file may give one value for all its rows instead of a column. */
export const EVENT_FIXABLE = ['event', 'machine', 'source'] as const;
export type EventFixable = (typeof EVENT_FIXABLE)[number];

/** How to read a file whose columns are named otherwise: the mapping and fixed values. */
export interface EventReading {
  mapping: EventMapping;
  fixed: Partial<Record<EventFixable, string>>;
}

/** The columns found by name or a known other name; the first match wins. */
export function suggestEventMapping(headers: readonly string[]): EventMapping {
  const h = headers.map(norm);
  const out = {} as EventMapping;
  for (const c of EVENT_COLUMNS) {
    const exact = h.indexOf(c);
    out[c] = exact >= 0 ? exact : h.findIndex((x) => EVENT_SYNONYMS[c].includes(x));
  }
  return out;
}

const fixedValue = (reading: EventReading | undefined, c: EventColumn): string | undefined => {
  const v = (reading?.fixed as Partial<Record<EventColumn, string>> | undefined)?.[c]?.trim();
  return v ? v : undefined;
};

/** The required columns neither mapped nor given a fixed value. */
export function missingEventColumns(reading: EventReading): EventColumn[] {
  return EVENT_COLUMNS.filter(
    (c) => reading.mapping[c] < 0 && !OPTIONAL.includes(c) && !fixedValue(reading, c),
  );
}

/**
 * Parses a per-event CSV, or says why the whole file is refused. Without `reading` the columns
 * are found by name (what a link hand-off or an exact file needs); with it, as mapped.
 */
export function parseMeasuredEvents(
  text: string,
  file = 'events.csv',
  reading?: EventReading,
): MeasuredEvents | LoadError {
  const table = parseCsvText(text);
  if (isLoadError(table)) return table;
  const at = new Map<string, number>();
  if (reading) {
    for (const c of EVENT_COLUMNS)
      if (reading.mapping[c] >= 0 && !fixedValue(reading, c)) at.set(c, reading.mapping[c]);
  } else {
    table.headers.forEach((h, i) => {
      if (!at.has(norm(h))) at.set(norm(h), i);
    });
  }
  const missing = EVENT_COLUMNS.filter(
    (c) => !at.has(c) && !OPTIONAL.includes(c) && !fixedValue(reading, c),
  );
  if (missing.length) {
    return {
      kind: 'missing-column',
      message: reading
        ? `${file}: no column chosen for ${missing.map((c) => `\`${c}\``).join(', ')}; pick one${missing.some((c) => (EVENT_FIXABLE as readonly string[]).includes(c)) ? ' or give a value for every row' : ''}.`
        : `${file}: no ${missing.map((c) => `\`${c}\``).join(', ')} column; the header needs ${EVENT_COLUMNS.join(',')} (duration_ns may be left out).`,
    };
  }
  const issues: Issue[] = [...table.issues];
  const add = (i: Issue) => {
    if (issues.length < MAX_ISSUES) issues.push(i);
  };
  const events: MeasuredEvent[] = [];
  const labels: string[] = [];
  for (let r = 0; r < table.records; r++) {
    if (table.broken.has(r)) continue;
    const row = table.rowOf(r);
    const cell = (c: EventColumn) => {
      const f = fixedValue(reading, c);
      if (f !== undefined) return f;
      const j = at.get(c);
      return j === undefined ? '' : table.cell(r, j).trim();
    };
    let ok = true;
    const error = (column: EventColumn, value: string, kind: Issue['kind'], message: string) => {
      ok = false;
      add({ severity: 'error', kind, row, column, value, message });
    };
    const num = (c: EventColumn, integer: boolean): number => {
      const s = cell(c);
      if (s === '') {
        if (OPTIONAL.includes(c)) return 0;
        error(c, s, 'value', 'is empty');
        return 0;
      }
      const n = parseNumber(s);
      if (n === null) {
        error(c, s, 'type', notANumber(s));
        return 0;
      }
      if (n < 0 || (integer && !Number.isInteger(n))) {
        error(c, s, 'value', integer ? 'must be a whole number ≥ 0' : 'must be ≥ 0');
      }
      return n;
    };
    const time = num('time_ns', false);
    const cpu = num('cpu', true);
    const duration = num('duration_ns', false);
    const textCell = (c: EventColumn) => {
      const s = cell(c);
      if (s === '') error(c, s, 'value', 'is empty');
      const flag = flagCell(s);
      if (flag)
        add({
          severity: 'warning',
          kind: flag.kind,
          row,
          column: c,
          value: s,
          message: flag.message,
        });
      return s;
    };
    const event = textCell('event');
    const machine = textCell('machine');
    const source = textCell('source');
    if (!ok) continue;
    if (events.length >= MAX_EVENTS) {
      return {
        kind: 'too-big',
        message: `${file}: more than ${MAX_EVENTS.toLocaleString('en-US')} events; a timeline cannot show them one by one. Cut the trace to the window you want to compare.`,
      };
    }
    events.push({ time, cpu, event, duration, machine, source, row });
    const label = measuredLabel(machine, source);
    if (!labels.includes(label)) labels.push(label);
  }
  events.sort((a, b) => a.time - b.time || a.cpu - b.cpu);
  return { file, events, labels, issues };
}

/** One line per issue, for the sidebar: "row 3, column `cpu`: …". */
export function describeEventIssues(m: MeasuredEvents, max = 5): string[] {
  return m.issues.slice(0, max).map(describeIssue);
}
