// Per-event measurements for the timeline: pick a CSV of measured events (one row per flush or
// IPI handler; content/datasets/README.md, "Per-event timings"). It stays in the browser; the
// rows are drawn under their CPU lanes as "measured" marks, and problems are named by row and
// column as for the datasets. A file named otherwise is mapped first (EventColumnMapping), as
// the Data view maps a dataset's columns.
import { useState } from 'react';
import {
  describeEventIssues,
  parseMeasuredEvents,
  suggestEventMapping,
  type EventReading,
  type MeasuredEvents,
} from '../content/eventCsv';
import { clip, isLoadError, parseCsvText } from '../content/csv';
import { EventColumnMapping, type PendingEvents } from './EventColumnMapping';

interface Props {
  value: MeasuredEvents | null;
  onLoad: (m: MeasuredEvents | null) => void;
  /** Run A is kept in its worker: its timeline has a strip per CPU, not lanes. */
  kept?: boolean;
}

const PREVIEW_ROWS = 5;

/** The mapping step's input: the header and first rows, or why the file cannot be read at all. */
function pendingOf(text: string, file: string): PendingEvents | string {
  const table = parseCsvText(text);
  if (isLoadError(table)) return table.message;
  const rows: string[][] = [];
  for (let r = 0; r < Math.min(PREVIEW_ROWS, table.records); r++)
    rows.push(table.headers.map((_, c) => clip(table.cell(r, c), 40)));
  return {
    file,
    text,
    headers: table.headers.map((h) => clip(h, 40)),
    rows,
    records: table.records,
    reading: { mapping: suggestEventMapping(table.headers), fixed: {} },
  };
}

export function MeasuredEventsFile({ value, onLoad, kept = false }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingEvents | null>(null);
  const show = (parsed: ReturnType<typeof parseMeasuredEvents>) => {
    if (isLoadError(parsed)) {
      setError(parsed.message);
      onLoad(null);
    } else {
      setError(null);
      onLoad(parsed);
    }
  };
  return (
    <div className="measured-file">
      <label htmlFor="measured-events-input">Measured events on the timeline (.csv)</label>
      <input
        id="measured-events-input"
        type="file"
        accept=".csv,text/csv,text/plain"
        onChange={async (e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (!f) return;
          const text = await f.text();
          setPending(null);
          const parsed = parseMeasuredEvents(text, f.name);
          // Columns named otherwise: the reader maps them instead of renaming the file.
          if (isLoadError(parsed) && parsed.kind === 'missing-column') {
            const p = pendingOf(text, f.name);
            if (typeof p === 'string') return show({ kind: 'not-csv', message: p });
            setError(null);
            setPending(p);
            return;
          }
          show(parsed);
        }}
      />
      {pending && (
        <EventColumnMapping
          key={pending.file + pending.text.length}
          pending={pending}
          onRead={(reading: EventReading) => {
            const parsed = parseMeasuredEvents(pending.text, pending.file, reading);
            if (!isLoadError(parsed)) setPending(null);
            show(parsed);
          }}
          onDiscard={() => setPending(null)}
        />
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {value && (
        <div className="muted" data-testid="measured-summary">
          <p>
            {value.events.length.toLocaleString('en-US')} events from <code>{value.file}</code>,{' '}
            {kept ? 'drawn over each CPU’s strip' : 'drawn under each CPU lane'}:{' '}
            {value.labels.join('; ')}{' '}
            <button type="button" className="linklike" onClick={() => onLoad(null)}>
              remove
            </button>
          </p>
          {value.issues.length > 0 && (
            <ul>
              {describeEventIssues(value).map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
