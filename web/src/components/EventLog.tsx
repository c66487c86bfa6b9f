// A text log of the events in the visible window, in step with the timeline: for screen
// readers, for copy-paste, and for reading exact numbers. With a comparison it lists A's and
// B's events on one time line, filterable by run and to the flushes that differ.
import { memo, useDeferredValue, useState } from 'react';
import { rowsInWindow } from '../model/events';
import { inDifferingFlush } from '../model/flushMatch';
import type { Trace } from '../trace/trace';
import { LIMIT, LogTable, type EventLogProps as Props, type Filter, type Side } from './LogTable';
import { RemoteLog } from './RemoteLog';

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
  if (props.trace.remote || props.b?.remote) return <RemoteLog {...props} />;
  return <LocalLog {...props} />;
});

function LocalLog(props: Props) {
  const { trace, window, selected, onSelect, b, selectedB = null, onSelectB, match } = props;
  const deferred = useDeferredValue(window);
  const [filter, setFilter] = useState<Filter>('both');
  let rows: { side: Side; row: number }[];
  let total: number;
  if (!b) {
    const r = rowsInWindow(trace, deferred[0], deferred[1], LIMIT);
    rows = r.rows.map((row) => ({ side: 'A', row }));
    total = r.total;
  } else {
    // Rows of a flush whose match differs (model/flushMatch.ts), for the "differ" filter.
    const differing = (side: Side) =>
      filter !== 'differs' || !match ? null : (row: number) => inDifferingFlush(match, side, row);
    const runs = [
      { side: 'A' as const, trace, keep: differing('A') },
      { side: 'B' as const, trace: b, keep: differing('B') },
    ].filter((r) => filter === 'both' || filter === 'differs' || filter === r.side);
    ({ rows, total } = mergedRows(runs, deferred));
  }
  const traceOf = (s: Side) => (s === 'B' && b ? b : trace);
  return (
    <LogTable
      entries={rows.map(({ side, row }) => ({ side, row, trace: traceOf(side), at: row }))}
      status={
        <>
          {total.toLocaleString('en-US')} events in view
          {total > LIMIT ? `; the first ${LIMIT} listed (zoom in for more)` : ''}.
        </>
      }
      compare={!!b}
      filter={filter}
      onFilter={setFilter}
      canDiffer
      selected={selected}
      selectedB={selectedB}
      onSelect={onSelect}
      onSelectB={onSelectB}
    />
  );
}
