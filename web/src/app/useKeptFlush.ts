// The flush a kept run's selected row belongs to (its FlushRange row), asked of the run's
// worker (stepServer.ts 'flushof'): a run kept there has no per-row flushOf on the page, and
// A/B outlines the other run's flush matched with the selection's.
import { useEffect, useState } from 'react';
import type { RunResult } from '../sim/run';
import { traceWindowOf } from '../workers/session';

/** Row `row`'s flush in `run` (-1: none), once the worker has answered; else null. */
export function useKeptFlush(run: RunResult | null, row: number | null): number | null {
  const [got, setGot] = useState<{ run: RunResult; row: number; flush: number } | null>(null);
  useEffect(() => {
    if (!run?.trace.remote || row === null) return;
    const client = traceWindowOf(run.trace);
    if (!client) return;
    let live = true;
    client.flushOf(row).then(
      (flush) => {
        if (live && flush !== null) setGot({ run, row, flush });
      },
      () => {}, // the run was replaced meanwhile
    );
    return () => {
      live = false;
    };
  }, [run, row]);
  return got && got.run === run && got.row === row ? got.flush : null;
}
