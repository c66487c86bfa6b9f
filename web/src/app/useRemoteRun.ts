// What the legend, the summary and a guided step need of a run kept in its worker
// (Trace.remote), asked of that worker: the page holds none of its rows. The run's facts are
// asked once per run and shared (the worker answers the newest question of a type only).
import { useEffect, useState } from 'react';
import type { Columns, Trace } from '../trace/trace';
import { useKeptAnswer } from './useKeptAnswer';
import { traceWindowOf, type RunFactsAnswer } from '../workers/session';

const factsAsked = new WeakMap<Trace, Promise<RunFactsAnswer | null>>();
const drawn = new WeakMap<Trace, { done: Promise<void>; resolve: () => void }>();

function drawnOf(trace: Trace) {
  let d = drawn.get(trace);
  if (!d) {
    let resolve = () => {};
    const done = new Promise<void>((r) => (resolve = r));
    drawn.set(trace, (d = { done, resolve }));
  }
  return d;
}

/**
 * The remote timeline's first picture of `trace` is on screen: the whole-run passes the
 * legend and summary ask for start only then, so that picture never waits behind them.
 */
export function markRemoteDrawn(trace: Trace): void {
  drawnOf(trace).resolve();
}

/** The kinds, unpaired sends and first violations of a remote run (null until they come). */
export function useRunFacts(trace: Trace): RunFactsAnswer | null {
  const [got, setGot] = useState<{ trace: Trace; facts: RunFactsAnswer } | null>(null);
  useEffect(() => {
    if (!trace.remote) return;
    const client = traceWindowOf(trace);
    if (!client) return;
    let p = factsAsked.get(trace);
    if (!p)
      factsAsked.set(trace, (p = drawnOf(trace).done.then(() => client.facts().catch(() => null))));
    let live = true;
    p.then((facts) => {
      if (live && facts) setGot({ trace, facts });
    });
    return () => {
      live = false;
    };
  }, [trace]);
  return got?.trace === trace ? got.facts : null;
}

/** Rows a remote run's worker picked (model/guide.ts RowPicker) and their columns. */
export interface PickedRows {
  rows: Int32Array;
  columns: Columns;
}

export interface PickAsk {
  trace: Trace;
  kinds: readonly number[];
  cpus: readonly number[];
  window: readonly [number, number];
  limit: number;
}

/** The rows `ask` describes, picked in its run's worker; null while asked, or without `ask`. */
export function useRemotePick(ask: PickAsk | null): PickedRows | null {
  const key = ask
    ? `${ask.trace.version}|${ask.kinds.join()}|${ask.cpus.join()}|${ask.window.join()}|${ask.limit}`
    : '';
  return useKeptAnswer(ask?.trace ?? null, key, (client) =>
    ask
      ? client.pick(ask.kinds, ask.cpus, ask.window[0], ask.window[1], ask.limit)
      : Promise.resolve(null),
  );
}
