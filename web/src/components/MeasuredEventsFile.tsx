// Per-event measurements for the timeline: pick a CSV of measured events (one row per flush or
// IPI handler; content/datasets/README.md, "Per-event timings"). It stays in the browser; the
// rows are drawn under their CPU lanes as "measured" marks, and problems are named by row and
// column as for the datasets.
import { useState } from 'react';
import { describeEventIssues, parseMeasuredEvents, type MeasuredEvents } from '../content/eventCsv';
import { isLoadError } from '../content/csv';

interface Props {
  value: MeasuredEvents | null;
  onLoad: (m: MeasuredEvents | null) => void;
  /** Run A is kept in its worker: its timeline has a strip per CPU, not lanes. */
  kept?: boolean;
}

export function MeasuredEventsFile({ value, onLoad, kept = false }: Props) {
  const [error, setError] = useState<string | null>(null);
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
          const parsed = parseMeasuredEvents(await f.text(), f.name);
          if (isLoadError(parsed)) {
            setError(parsed.message);
            onLoad(null);
          } else {
            setError(null);
            onLoad(parsed);
          }
        }}
      />
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
