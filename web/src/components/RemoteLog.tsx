// The event log when A or B (or both) stays in its worker (Trace.remote): the window's rows are
// asked of that worker a page at a time (workers/session.ts TraceWindow.log: the rows starting
// in the window, as events.ts rowsInWindow lists them for a run on the page), so the page holds
// one page of rows, never the run. One run pages through the window; A and B are listed like
// the page's log, their first rows merged by time.
import { startTransition, useDeferredValue, useEffect, useState } from 'react';
import { rowsInWindow } from '../model/events';
import { toTrace, type Trace } from '../trace/trace';
import { traceWindowOf } from '../workers/session';
import {
  LIMIT,
  LogTable,
  type EventLogProps,
  type Filter,
  type LogEntry,
  type Side,
} from './LogTable';

interface SidePage {
  entries: LogEntry[];
  total: number;
}

/** `side`'s rows starting in [t0, t1] from the `offset`-th (at most LIMIT), wherever they are. */
async function pageOf(
  side: Side,
  trace: Trace,
  [t0, t1]: [number, number],
  offset: number,
): Promise<SidePage | null> {
  if (!trace.remote) {
    const { rows, total } = rowsInWindow(trace, t0, t1, offset + LIMIT);
    return {
      entries: rows.slice(offset).map((row) => ({ side, row, trace, at: row })),
      total,
    };
  }
  const client = traceWindowOf(trace);
  if (!client) return null;
  const page = await client.log(t0, t1, offset, LIMIT);
  if (!page) return null;
  // The page's rows as a small trace of their own, to be described like any trace's rows.
  const rows = toTrace({ ...page.columns, cpus: trace.cpus, strings: [...trace.strings] });
  return {
    entries: Array.from({ length: rows.n }, (_, at) => ({
      side,
      row: page.first + at,
      trace: rows,
      at,
    })),
    total: page.total,
  };
}

interface Shown {
  key: string;
  entries: LogEntry[];
  total: number;
  offset: number;
}

export function RemoteLog(props: EventLogProps) {
  const { trace, window, selected, onSelect, b, selectedB = null, onSelectB } = props;
  const deferred = useDeferredValue(window);
  const [filter, setFilter] = useState<Filter>('both');
  const sides = (
    [
      ['A', trace],
      ['B', b],
    ] as [Side, Trace | null | undefined][]
  ).filter((s): s is [Side, Trace] => !!s[1] && (filter === 'both' || filter === s[0]));
  const key = `${deferred[0]},${deferred[1]},${filter},${trace.version},${b?.version ?? ''}`;
  const [paging, setPaging] = useState({ key, offset: 0 });
  const offset = paging.key === key ? paging.offset : 0;
  const [shown, setShown] = useState<Shown | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all(sides.map(([side, t]) => pageOf(side, t, deferred, offset))).then(
      (pages) => {
        // null: a newer question overtook this one; its answer is on its way.
        if (!live || pages.some((p) => p === null)) return;
        const all = (pages as SidePage[]).flatMap((p) => p.entries);
        all.sort(
          (x, y) =>
            x.trace.time[x.at] - y.trace.time[y.at] ||
            (x.side < y.side ? -1 : x.side > y.side ? 1 : 0) ||
            x.row - y.row,
        );
        const total = (pages as SidePage[]).reduce((s, p) => s + p.total, 0);
        // A transition: React renders the new page in slices that yield to input, so a page
        // arriving mid-zoom costs no long task.
        startTransition(() => {
          setShown({ key, entries: all.slice(0, LIMIT), total, offset });
          setFailed(null);
        });
      },
      (err: unknown) => live && setFailed(String(err)),
    );
    return () => {
      live = false;
    };
    // `sides` and `deferred` follow from key's parts.
  }, [key, offset]);

  const current = shown?.key === key && shown.offset === offset;
  const total = shown?.total ?? 0;
  const paged = sides.length === 1;
  const from = shown ? shown.offset : 0;
  const status = failed ? (
    <>The worker could not list this window: {failed}</>
  ) : !shown ? (
    <>Reading the window's events from the simulator's worker…</>
  ) : (
    <>
      {total.toLocaleString('en-US')} events in view
      {paged && total > LIMIT
        ? `; events ${(from + 1).toLocaleString('en-US')} to ${(from + shown.entries.length).toLocaleString('en-US')} listed`
        : total > LIMIT
          ? `; the first ${LIMIT} listed (zoom in for more)`
          : ''}
      {current ? '.' : ' (reading the new window…)'}
    </>
  );
  const pager =
    paged && total > LIMIT ? (
      <p className="log-pager">
        <button
          type="button"
          disabled={offset === 0}
          onClick={() => setPaging({ key, offset: Math.max(0, offset - LIMIT) })}
        >
          ← Earlier {LIMIT}
        </button>{' '}
        <button
          type="button"
          disabled={offset + LIMIT >= total}
          onClick={() => setPaging({ key, offset: offset + LIMIT })}
        >
          Later {LIMIT} →
        </button>
      </p>
    ) : undefined;
  return (
    <LogTable
      entries={shown?.entries ?? []}
      status={status}
      compare={!!b}
      filter={filter}
      onFilter={setFilter}
      // Matching a run kept in its worker with the other run is not done on the page.
      canDiffer={false}
      selected={selected}
      selectedB={selectedB}
      onSelect={onSelect}
      onSelectB={onSelectB}
      pager={pager}
      virtual
    />
  );
}
