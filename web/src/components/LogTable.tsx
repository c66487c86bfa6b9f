// The event log's table and its controls, shared by the log of a run on the page (EventLog.tsx)
// and the log of a run kept in its worker (RemoteLog.tsx), so both filter, select and scroll
// the same way.
import { useEffect, useRef, useState, type ReactNode } from 'react';
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
  /**
   * Render only the rows scrolled into view (one line each, VIRTUAL_ROW px tall): a page of a
   * run kept in its worker arrives mid-zoom, and laying out all of it is a long task.
   */
  virtual?: boolean;
}

/** Height of a row of a virtual log, in px (app.css .event-log.virtual). */
export const VIRTUAL_ROW = 24;
/** Rows rendered beyond the scrolled view, each side. */
const OVERSCAN = 12;

export function LogTable(props: Props) {
  const { entries, compare, filter, selected, selectedB, onSelect, onSelectB } = props;
  const isSelected = (s: Side, row: number) => (s === 'A' ? row === selected : row === selectedB);
  const listRef = useRef<HTMLTableSectionElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const virtual = !!props.virtual;
  const [view, setView] = useState({ top: 0, height: 400 });
  useEffect(() => {
    if (!virtual) return;
    const box = boxRef.current;
    if (!box) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setView((v) =>
        v.top === box.scrollTop && v.height === box.clientHeight
          ? v
          : { top: box.scrollTop, height: box.clientHeight },
      );
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(read);
    };
    read();
    box.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      box.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [virtual]);
  // A virtual log scrolls the selected row into view by its index (it may not be rendered).
  useEffect(() => {
    if (!virtual) return;
    const box = boxRef.current;
    const at = entries.findIndex((e) => isSelected(e.side, e.row));
    if (!box || at < 0) return;
    const head = box.querySelector('thead')?.getBoundingClientRect().height ?? VIRTUAL_ROW;
    const top = at * VIRTUAL_ROW;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (top + VIRTUAL_ROW > box.scrollTop + box.clientHeight - head)
      box.scrollTop = top + VIRTUAL_ROW - box.clientHeight + head;
    // isSelected follows from the selections.
  }, [virtual, selected, selectedB, entries]);
  const first = virtual ? Math.max(0, Math.floor(view.top / VIRTUAL_ROW) - OVERSCAN) : 0;
  const last = virtual
    ? Math.min(entries.length, Math.ceil((view.top + view.height) / VIRTUAL_ROW) + OVERSCAN)
    : entries.length;
  // The selected row is scrolled into the log's own view only: the page stays where the reader
  // (or a guided step that selects an event) put it.
  useEffect(() => {
    if (virtual) return;
    const row = listRef.current?.querySelector<HTMLElement>('[aria-selected="true"]');
    const box = row?.closest<HTMLElement>('.log-scroll');
    if (!row || !box) return;
    const top = row.getBoundingClientRect().top - box.getBoundingClientRect().top;
    const head = box.querySelector('thead')?.getBoundingClientRect().height ?? 0;
    if (top < head) box.scrollTop += top - head;
    else if (top + row.offsetHeight > box.clientHeight)
      box.scrollTop += top + row.offsetHeight - box.clientHeight;
  }, [virtual, selected, selectedB, entries]);
  return (
    <section className={virtual ? 'event-log virtual' : 'event-log'} aria-label="Event log">
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
      <div
        className="log-scroll"
        ref={boxRef}
        tabIndex={0}
        role="region"
        aria-label="Events in view"
      >
        <table aria-rowcount={virtual ? entries.length + 1 : undefined}>
          <thead>
            <tr>
              {compare && (
                <th scope="col" className="run-col">
                  Run
                </th>
              )}
              <th scope="col">Time</th>
              <th scope="col">CPU</th>
              <th scope="col">Event</th>
              <th scope="col">What happened</th>
            </tr>
          </thead>
          <tbody ref={listRef}>
            {first > 0 && <tr aria-hidden="true" style={{ height: first * VIRTUAL_ROW }} />}
            {entries.slice(first, last).map(({ side, row, trace: t, at: i }, j) => {
              const sel = isSelected(side, row);
              const what = `${describeRow(t, i)}${t.dur[i] > 0 ? ` (${formatNs(t.dur[i])})` : ''}`;
              return (
                <tr
                  key={`${side}${row}`}
                  aria-rowindex={virtual ? first + j + 2 : undefined}
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
                  <td title={virtual ? what : undefined}>{what}</td>
                </tr>
              );
            })}
            {last < entries.length && (
              <tr aria-hidden="true" style={{ height: (entries.length - last) * VIRTUAL_ROW }} />
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
