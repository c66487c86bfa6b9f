// The event log's table and its controls, shared by the log of a run on the page (EventLog.tsx)
// and the log of a run kept in its worker (RemoteLog.tsx), so both filter, select and scroll
// the same way.
import { useEffect, useRef, type ReactNode } from 'react';
import { describeRow } from '../model/events';
import type { FlushMatch } from '../model/flushMatch';
import { kindName, type Trace } from '../trace/trace';
import { formatNs } from '../viz/scales';

/** Most rows the log lists at once (a run kept in its worker lists them a page at a time). */
export const LIMIT = 300;

export interface EventLogProps {
  trace: Trace;
  window: [number, number];
  selected: number | null;
  onSelect: (row: number) => void;
  /** A/B: the other run, its selection, and the flushes matched between the two. */
  b?: Trace | null;
  selectedB?: number | null;
  onSelectB?: (row: number) => void;
  match?: FlushMatch | null;
}

export type Side = 'A' | 'B';
export type Filter = 'both' | 'A' | 'B' | 'differs';

/** One listed row: `row` is its number in its run, `at` its index in `trace` (a page's own). */
export interface LogEntry {
  side: Side;
  row: number;
  trace: Trace;
  at: number;
}

interface Props {
  entries: readonly LogEntry[];
  /** The count line under the heading. */
  status: ReactNode;
  compare: boolean;
  filter: Filter;
  onFilter: (f: Filter) => void;
  /** Offer "flushes that differ" (only when the runs' flushes are matched). */
  canDiffer: boolean;
  selected: number | null;
  selectedB: number | null;
  onSelect: (row: number) => void;
  onSelectB?: (row: number) => void;
  /** Paging controls, below the count line. */
  pager?: ReactNode;
}

export function LogTable(props: Props) {
  const { entries, compare, filter, selected, selectedB, onSelect, onSelectB } = props;
  const listRef = useRef<HTMLTableSectionElement>(null);
  // The selected row is scrolled into the log's own view only: the page stays where the reader
  // (or a guided step that selects an event) put it.
  useEffect(() => {
    const row = listRef.current?.querySelector<HTMLElement>('[aria-selected="true"]');
    const box = row?.closest<HTMLElement>('.log-scroll');
    if (!row || !box) return;
    const top = row.getBoundingClientRect().top - box.getBoundingClientRect().top;
    const head = box.querySelector('thead')?.getBoundingClientRect().height ?? 0;
    if (top < head) box.scrollTop += top - head;
    else if (top + row.offsetHeight > box.clientHeight)
      box.scrollTop += top + row.offsetHeight - box.clientHeight;
  }, [selected, selectedB, entries]);
  const isSelected = (s: Side, row: number) => (s === 'A' ? row === selected : row === selectedB);
  return (
    <section className="event-log" aria-label="Event log">
      <h2>Event log</h2>
      {compare && (
        <label className="muted log-filter">
          Show events of{' '}
          <select value={filter} onChange={(e) => props.onFilter(e.target.value as Filter)}>
            <option value="both">A and B</option>
            <option value="A">A only</option>
            <option value="B">B only</option>
            {props.canDiffer && <option value="differs">flushes that differ (A and B)</option>}
          </select>
        </label>
      )}
      <p className="muted" data-testid="log-status">
        {props.status}
      </p>
      {props.pager}
      <div className="log-scroll" tabIndex={0} role="region" aria-label="Events in view">
        <table>
          <thead>
            <tr>
              {compare && <th scope="col">Run</th>}
              <th scope="col">Time</th>
              <th scope="col">CPU</th>
              <th scope="col">Event</th>
              <th scope="col">What happened</th>
            </tr>
          </thead>
          <tbody ref={listRef}>
            {entries.map(({ side, row, trace: t, at: i }) => {
              const sel = isSelected(side, row);
              return (
                <tr
                  key={`${side}${row}`}
                  data-row={row}
                  data-side={side}
                  aria-selected={sel}
                  className={sel ? 'selected' : undefined}
                  onClick={() => (side === 'A' ? onSelect(row) : onSelectB?.(row))}
                >
                  {compare && <td className={`run-${side}`}>{side}</td>}
                  <td>{formatNs(t.time[i])}</td>
                  <td>{t.cpu[i]}</td>
                  <td>{kindName(t.kind[i])}</td>
                  <td>
                    {describeRow(t, i)}
                    {t.dur[i] > 0 ? ` (${formatNs(t.dur[i])})` : ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
