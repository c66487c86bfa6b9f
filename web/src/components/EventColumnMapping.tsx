// The event overlay's mapping step, for a per-event CSV whose columns are named otherwise: the
// first rows as the file has them, a column chosen for each of the overlay's columns (found by
// name or a known other name where possible), and values given for the whole file where it has
// no column (the machine, the tool). Nothing is drawn until the reader confirms.
import { useState } from 'react';
import {
  EVENT_COLUMNS,
  EVENT_FIXABLE,
  missingEventColumns,
  type EventColumn,
  type EventFixable,
  type EventReading,
} from '../content/eventCsv';

const SHOWN_ROWS = 5;

const MEANING: Record<EventColumn, string> = {
  time_ns: 'start, ns from the window’s start',
  cpu: 'CPU number',
  event: 'what happened',
  duration_ns: 'ns; none: instants',
  machine: 'where it was measured',
  source: 'the tool that recorded it',
};

export interface PendingEvents {
  file: string;
  text: string;
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  records: number;
  reading: EventReading;
}

export function EventColumnMapping({
  pending,
  onRead,
  onDiscard,
}: {
  pending: PendingEvents;
  onRead: (reading: EventReading) => void;
  onDiscard: () => void;
}) {
  const [reading, setReading] = useState<EventReading>(pending.reading);
  const missing = missingEventColumns(reading);
  const isFixable = (c: EventColumn): c is EventFixable =>
    (EVENT_FIXABLE as readonly string[]).includes(c);
  return (
    <div className="event-mapping" data-testid="event-mapping">
      <p role="status">
        <code>{pending.file}</code>: {pending.records.toLocaleString('en-US')} rows whose columns
        are not all named as the overlay names them. Choose a column for each, or a value for every
        row.
      </p>
      <div className="event-mapping-preview">
        <table>
          <thead>
            <tr>
              {pending.headers.map((h, i) => (
                <th key={i} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {pending.rows.slice(0, SHOWN_ROWS).map((r, i) => (
              <tr key={i}>
                {pending.headers.map((_, c) => (
                  <td key={c}>{r[c] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="event-mapping-columns">
        {EVENT_COLUMNS.map((c) => (
          <div key={c}>
            <dt>
              <label htmlFor={`event-col-${c}`}>
                <code>{c}</code> ({MEANING[c]})
              </label>
            </dt>
            <dd>
              <select
                id={`event-col-${c}`}
                aria-label={`Column for ${c}`}
                value={reading.mapping[c]}
                onChange={(e) =>
                  setReading({
                    ...reading,
                    mapping: { ...reading.mapping, [c]: Number(e.target.value) },
                  })
                }
              >
                <option value={-1}>{c === 'duration_ns' ? '— none —' : '— choose —'}</option>
                {pending.headers.map((h, i) => (
                  <option key={i} value={i}>
                    {h}
                  </option>
                ))}
              </select>
              {isFixable(c) && (
                <input
                  type="text"
                  aria-label={`Fixed ${c}`}
                  placeholder="or one value for every row"
                  value={reading.fixed[c] ?? ''}
                  onChange={(e) =>
                    setReading({ ...reading, fixed: { ...reading.fixed, [c]: e.target.value } })
                  }
                />
              )}
            </dd>
          </div>
        ))}
      </dl>
      {missing.length > 0 && (
        <p className="muted" data-testid="event-mapping-missing">
          Still needed: {missing.map((c) => `“${c}”`).join(', ')}.
        </p>
      )}
      <p>
        <button type="button" disabled={missing.length > 0} onClick={() => onRead(reading)}>
          Draw these events
        </button>{' '}
        <button type="button" onClick={onDiscard}>
          Discard
        </button>
      </p>
    </div>
  );
}
