// A text log of the events in the visible window, in step with the timeline: for screen
// readers, for copy-paste, and for reading exact numbers. With a comparison it lists A's and
// B's events on one time line, filterable by run and to the flushes that differ.
import { memo, useDeferredValue, useEffect, useRef, useState } from 'react';
import { describeRow, rowsInWindow } from '../model/events';
import type { FlushMatch } from '../model/flushMatch';
import { kindName, type Trace } from '../trace/trace';
import { formatNs } from '../viz/scales';

const LIMIT = 300;

type Side = 'A' | 'B';
type Filter = 'both' | 'A' | 'B' | 'differs';

interface Props {
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

/** Rows of both runs in the window, merged by time (A first at equal times). */
function mergedRows(
  runs: { side: Side; trace: Trace; keep: ((row: number) => boolean) | null }[],
  [t0, t1]: [number, number],
): { rows: { side: Side; row: number }[]; total: number } {
  let total = 0;
  const lists = runs.map((r) => {
    const { rows, total: inView } = rowsInWindow(r.trace, t0, t1, r.keep ? Infinity : LIMIT);
    const kept = r.keep ? rows.filter(r.keep) : rows;
    total += r.keep ? kept.length : inView;
    // Each list's first LIMIT rows hold the merged list's first LIMIT.
    return kept.slice(0, LIMIT).map((row) => ({ side: r.side, row, t: r.trace.time[row] }));
  });
  const all = lists.flat().sort((x, y) => x.t - y.t || (x.side < y.side ? -1 : 1) || x.row - y.row);
  return { rows: all.slice(0, LIMIT), total };
}

// Memoised and fed a deferred window: zoom frames redraw the timeline first and this table
// catches up when the main thread is free.
export const EventLog = memo(function EventLog(props: Props) {
  if (props.trace.remote) return <RemoteLog rows={props.trace.remote.rows} />;
  return <LocalLog {...props} />;
});

/** A run kept in its worker is not on the page to list: say so, and how to see its events. */
function RemoteLog({ rows }: { rows: number }) {
  return (
    <section className="event-log" aria-label="Event log">
      <h2>Event log</h2>
      <p className="muted" data-testid="remote-log">
        This run's {rows.toLocaleString('en-US')} events stay in the simulator's worker (runs above
        2,000,000 rows do): the log lists smaller runs. Zoom the timeline in until its events are
        drawn, and click one to inspect it.
      </p>
    </section>
  );
}

function LocalLog(props: Props) {
  const { trace, window, selected, onSelect, b, selectedB = null, onSelectB, match } = props;
  const deferred = useDeferredValue(window);
  const [filter, setFilter] = useState<Filter>('both');
  const compare = !!b;
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
  }, [selected, selectedB]);

  let rows: { side: Side; row: number }[];
  let total: number;
  if (!b) {
    const r = rowsInWindow(trace, deferred[0], deferred[1], LIMIT);
    rows = r.rows.map((row) => ({ side: 'A', row }));
    total = r.total;
  } else {
    // Rows of a flush whose match differs (model/flushMatch.ts), for the "differ" filter.
    const differing = (flushOf?: Int32Array, pairOf?: ReadonlyMap<number, number>) =>
      filter !== 'differs' || !match
        ? null
        : (row: number) => {
            const f = flushOf?.[row] ?? -1;
            const p = f >= 0 ? pairOf?.get(f) : undefined;
            return p !== undefined && match.pairs[p].diffs.length > 0;
          };
    const runs = [
      { side: 'A' as const, trace, keep: differing(match?.flushOfA, match?.pairOfA) },
      { side: 'B' as const, trace: b, keep: differing(match?.flushOfB, match?.pairOfB) },
    ].filter((r) => filter === 'both' || filter === 'differs' || filter === r.side);
    ({ rows, total } = mergedRows(runs, deferred));
  }
  const traceOf = (s: Side) => (s === 'B' && b ? b : trace);
  const isSelected = (s: Side, row: number) => (s === 'A' ? row === selected : row === selectedB);
  return (
    <section className="event-log" aria-label="Event log">
      <h2>Event log</h2>
      {compare && (
        <label className="muted log-filter">
          Show events of{' '}
          <select value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
            <option value="both">A and B</option>
            <option value="A">A only</option>
            <option value="B">B only</option>
            <option value="differs">flushes that differ (A and B)</option>
          </select>
        </label>
      )}
      <p className="muted">
        {total.toLocaleString('en-US')} events in view
        {total > LIMIT ? `; the first ${LIMIT} listed (zoom in for more)` : ''}.
      </p>
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
            {rows.map(({ side, row: i }) => {
              const t = traceOf(side);
              const sel = isSelected(side, i);
              return (
                <tr
                  key={`${side}${i}`}
                  data-row={i}
                  data-side={side}
                  aria-selected={sel}
                  className={sel ? 'selected' : undefined}
                  onClick={() => (side === 'A' ? onSelect(i) : onSelectB?.(i))}
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
