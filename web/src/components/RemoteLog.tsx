// The event log when A or B (or both) stays in its worker (Trace.remote): the window's rows are
// asked of that worker a page at a time (workers/session.ts TraceWindow.log: the rows starting
// in the window, as events.ts rowsInWindow lists them for a run on the page), so the page holds
// one page of rows, never the run. One run pages through the window; A and B are listed like
// the page's log, their first rows merged by time.
import { startTransition, useDeferredValue, useEffect, useState } from 'react';
import { rowsInWindow } from '../model/events';
import { differingRows, inDifferingFlush, type FlushMatch } from '../model/flushMatch';
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

/**
 * `side`'s rows starting in [t0, t1] that belong to a flush whose match differs (the log's
 * "flushes that differ" filter), from the `offset`-th (at most LIMIT): a run on the page reads
 * each row's flush from the match (flushMatch.ts inDifferingFlush, as EventLog.tsx does), a run kept in its worker lists them
 * there (model/flushRows.ts, from the differing flushes' FlushRange rows).
 */
async function differingPageOf(
  side: Side,
  trace: Trace,
  [t0, t1]: [number, number],
  offset: number,
  match: FlushMatch,
): Promise<SidePage | null> {
  if (!trace.remote) {
    const rows = rowsInWindow(trace, t0, t1, Infinity).rows.filter((row) =>
      inDifferingFlush(match, side, row),
    );
    return {
      entries: rows.slice(offset, offset + LIMIT).map((row) => ({ side, row, trace, at: row })),
      total: rows.length,
    };
  }
  const client = traceWindowOf(trace);
  if (!client) return null;
  const page = await client.diffLog(differingFlushRows(match, side), t0, t1, offset, LIMIT);
  if (!page) return null;
  const rows = toTrace({ ...page.columns, cpus: trace.cpus, strings: [...trace.strings] });
  return {
    entries: Array.from(page.rows, (row, at) => ({ side, row, trace: rows, at })),
    total: page.total,
  };
}

// Each match's differing FlushRange rows per side, made once (sent with each log question).
const differingOf = new WeakMap<FlushMatch, { A: Int32Array; B: Int32Array }>();
function differingFlushRows(match: FlushMatch, side: Side): Int32Array {
  let d = differingOf.get(match);
  if (!d) {
    const { a, b } = differingRows(match);
    d = { A: Int32Array.from(a), B: Int32Array.from(b) };
    differingOf.set(match, d);
  }
  return d[side];
}
// A number per match, for the question's key.
const matchIds = new WeakMap<FlushMatch, number>();
let nextMatchId = 1;
function matchId(match: FlushMatch | null | undefined): number {
  if (!match) return 0;
  let id = matchIds.get(match);
  if (!id) matchIds.set(match, (id = nextMatchId++));
  return id;
}

interface Shown {
  key: string;
  entries: LogEntry[];
  total: number;
  offset: number;
}

export function RemoteLog(props: EventLogProps) {
  const { trace, window, selected, onSelect, b, selectedB = null, onSelectB, match } = props;
  const deferred = useDeferredValue(window);
  const [filter, setFilter] = useState<Filter>('both');
  const sides = (
    [
      ['A', trace],
      ['B', b],
    ] as [Side, Trace | null | undefined][]
  ).filter(
    (s): s is [Side, Trace] =>
      !!s[1] && (filter === 'both' || filter === 'differs' || filter === s[0]),
  );
  const differs = filter === 'differs' && match ? match : null;
  const key = `${deferred[0]},${deferred[1]},${filter},${trace.version},${b?.version ?? ''},${matchId(differs)}`;
  const [paging, setPaging] = useState({ key, offset: 0 });
  const offset = paging.key === key ? paging.offset : 0;
  const [shown, setShown] = useState<Shown | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all(
      sides.map(([side, t]) =>
        differs
          ? differingPageOf(side, t, deferred, offset, differs)
          : pageOf(side, t, deferred, offset),
      ),
    ).then(
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
    // `sides`, `deferred` and `differs` follow from key's parts.
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
      // The worker lists a kept run's rows of the flushes that differ (stepServer.ts).
      canDiffer={!!b && !!match}
      selected={selected}
      selectedB={selectedB}
      onSelect={onSelect}
      onSelectB={onSelectB}
      pager={pager}
      virtual
    />
  );
}
