// A text log of the events in the visible window, in step with the timeline: for screen
// readers, for copy-paste, and for reading exact numbers.
import { memo, useDeferredValue, useEffect, useRef } from 'react';
import { describeRow, rowsInWindow } from '../model/events';
import { kindName, type Trace } from '../trace/trace';
import { formatNs } from '../viz/scales';

const LIMIT = 300;

interface Props {
  trace: Trace;
  window: [number, number];
  selected: number | null;
  onSelect: (row: number) => void;
}

// Memoised and fed a deferred window: zoom frames redraw the timeline first and this table
// catches up when the main thread is free.
export const EventLog = memo(function EventLog({ trace, window, selected, onSelect }: Props) {
  const deferred = useDeferredValue(window);
  const { rows, total } = rowsInWindow(trace, deferred[0], deferred[1], LIMIT);
  const listRef = useRef<HTMLTableSectionElement>(null);
  useEffect(() => {
    listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  return (
    <section className="event-log" aria-label="Event log">
      <h2>Event log</h2>
      <p className="muted">
        {total.toLocaleString('en-US')} events in view
        {total > LIMIT ? `; the first ${LIMIT} listed (zoom in for more)` : ''}.
      </p>
      <div className="log-scroll" tabIndex={0} role="region" aria-label="Events in view">
        <table>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">CPU</th>
              <th scope="col">Event</th>
              <th scope="col">What happened</th>
            </tr>
          </thead>
          <tbody ref={listRef}>
            {rows.map((i) => (
              <tr
                key={i}
                data-row={i}
                aria-selected={i === selected}
                className={i === selected ? 'selected' : undefined}
                onClick={() => onSelect(i)}
              >
                <td>{formatNs(trace.time[i])}</td>
                <td>{trace.cpu[i]}</td>
                <td>{kindName(trace.kind[i])}</td>
                <td>
                  {describeRow(trace, i)}
                  {trace.dur[i] > 0 ? ` (${formatNs(trace.dur[i])})` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
});
