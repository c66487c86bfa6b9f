// Runs a scenario in a Web Worker whenever it, its seed or its overrides change; reports
// progress and can be cancelled. A newer request supersedes (cancels) the one in flight.
import { useCallback, useEffect, useRef, useState } from 'react';
import { perfRecord } from '../viz/perf';
import {
  RunCancelled,
  SimSession,
  SimulatorCrash,
  traceWindowOf,
  type CheckProgress,
} from '../workers/session';
import type { RunResult } from '../sim/run';

export type RunState =
  | { status: 'idle' }
  | { status: 'running'; events: number; nowNs: number; check?: CheckProgress }
  | { status: 'done'; result: RunResult }
  | { status: 'cancelled'; previous?: RunResult }
  | { status: 'error'; message: string; crashed?: boolean; previous?: RunResult };

export interface Run {
  state: RunState;
  cancel: () => void;
  /** Runs the same request again (after a cancel, say). */
  again: () => void;
  /** State snapshot JSON at `t` of the finished run (re-run in the worker up to t). */
  snapshot: (t: number) => Promise<string>;
}

// Which request each result answers, so the explorer can tell a fresh result from the one still
// on screen while a newer run is on its way (a link's window and selection wait for it).
const requests = new WeakMap<RunResult, { text: string; key: string; seed: number }>();

/** Whether `result` is the run (or check) of exactly this scenario text, overrides and seed. */
export function ranWith(
  result: RunResult,
  text: string | null | undefined,
  overrides: readonly string[],
  seed: number,
  check = false,
): boolean {
  const r = requests.get(result);
  return (
    !!r &&
    r.text === text &&
    r.key === overrides.join('\n') &&
    r.seed === seed &&
    !!result.check === check
  );
}

/** What the worker keeps of the run, per event, for the UI benchmark and DevTools. */
function recordWorkerMemory(result: RunResult): void {
  traceWindowOf(result.trace)
    ?.memory()
    .then((m) => {
      const p = perfRecord();
      if (p && m) p.worker = m;
    })
    .catch(() => {}); // the run was replaced meanwhile: its figures no longer matter
}

const NO_PROGRESS: CheckProgress = { states: 0, transitions: 0, depth: 0 };

/**
 * `text` null: nothing to run; undefined: the scenario does not exist. `check`: check every
 * interleaving instead (the result carries the verdict; its run is the counterexample's).
 */
export function useRun(
  text: string | null | undefined,
  overrides: readonly string[],
  seed: number,
  checkStep?: number,
  check = false,
  /** The link's `remote=`: keep a run of more rows than this in its worker. */
  remoteAbove?: number,
): Run {
  const [state, setState] = useState<RunState>({ status: 'running', events: 0, nowNs: 0 });
  const session = useRef<SimSession | null>(null);
  const key = overrides.join('\n');
  const [attempt, setAttempt] = useState(0);
  // The last run that finished: a cancelled or refused request leaves it on screen instead of
  // an empty page. Not a run kept in its worker: a new request ends that worker, and with it
  // every answer about the run.
  const lastDone = useRef<RunResult | null>(null);
  // The request the state answers. In the render where the inputs change the effect has not
  // yet started the new run, and the state is still the last run's: said to be running, so
  // that nothing (a test waiting for idle, a key press) takes the old run for the new one.
  const asked = [text, key, seed, checkStep, check, remoteAbove, attempt];
  const startedFor = useRef<unknown[] | null>(null);
  const stale = startedFor.current === null || asked.some((v, i) => v !== startedFor.current?.[i]);

  useEffect(() => {
    startedFor.current = [text, key, seed, checkStep, check, remoteAbove, attempt];
    const s = (session.current ??= new SimSession());
    s.cancel();
    if (text === null) {
      setState({ status: 'idle' });
      return;
    }
    setState({ status: 'running', events: 0, nowNs: 0 });
    performance.mark('tlbscope:run-start');
    const previous = lastDone.current ?? undefined;
    if (text === undefined) {
      setState({ status: 'error', message: 'Unknown scenario: pick one from the list.', previous });
      return;
    }
    let live = true;
    const list = key ? key.split('\n') : [];
    const started = check
      ? s.check(text, {
          overrides: list,
          seed,
          remoteAbove,
          onProgress: (p) => live && setState({ status: 'running', events: 0, nowNs: 0, check: p }),
        })
      : s.run(text, {
          overrides: list,
          seed,
          checkStep,
          remoteAbove,
          onProgress: (events, nowNs) => live && setState({ status: 'running', events, nowNs }),
        });
    if (check) setState({ status: 'running', events: 0, nowNs: 0, check: NO_PROGRESS });
    started.then(
      (result) => {
        if (!live) return;
        performance.mark('tlbscope:run-done');
        requests.set(result, { text, key, seed });
        lastDone.current = result.trace.remote ? null : result;
        setState({ status: 'done', result });
        recordWorkerMemory(result);
      },
      (e: unknown) => {
        if (!live) return;
        if (e instanceof RunCancelled) setState({ status: 'cancelled', previous });
        else
          setState({
            status: 'error',
            message: e instanceof Error ? e.message : String(e),
            crashed: e instanceof SimulatorCrash,
            previous,
          });
      },
    );
    return () => {
      live = false;
    };
  }, [text, key, seed, checkStep, check, remoteAbove, attempt]);

  useEffect(() => () => session.current?.dispose(), []);

  const cancel = useCallback(() => session.current?.cancel(), []);
  const again = useCallback(() => setAttempt((n) => n + 1), []);
  const snapshot = useCallback(
    (t: number) => session.current?.snapshot(t) ?? Promise.resolve('{}'),
    [],
  );
  return {
    state: stale && state.status !== 'running' ? { status: 'running', events: 0, nowNs: 0 } : state,
    cancel,
    again,
    snapshot,
  };
}
