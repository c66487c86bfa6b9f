// The flush a kept run's selected row belongs to (its FlushRange row), asked of the run's
// worker (stepServer.ts 'flushof'): a run kept there has no per-row flushOf on the page, and
// A/B outlines the other run's flush matched with the selection's.
import type { RunResult } from '../sim/run';
import { useKeptAnswer } from './useKeptAnswer';

/** Row `row`'s flush in `run` (-1: none), once the worker has answered; else null. */
export function useKeptFlush(run: RunResult | null, row: number | null): number | null {
  const trace = run?.trace.remote && row !== null ? run.trace : null;
  const key = trace ? `${trace.version}|${row}` : '';
  return useKeptAnswer(trace, key, (client) => client.flushOf(row as number));
}
