// Stepping a run kept in its worker (Trace.remote): the worker steps its own store with the
// page's stepping (model/stepping.ts walkRows) and answers with the row reached and its time,
// so ◀ prev / next ▶, the keys and playback visit the rows a run on the page would. One
// question in flight: steps asked meanwhile wait and go as one question (count), so N presses
// are N steps; a selection made meanwhile (asking for its row's time) wins over them.
import { useCallback, useMemo, useRef } from 'react';
import type { RunResult } from '../sim/run';
import { traceWindowOf } from '../workers/session';

export interface KeptStep {
  /**
   * One step in `dir` from `from` (the selection) with the cursor at `t`; `queue`: while an
   * answer is on its way, take the step after it (a key) rather than drop it (a playback
   * tick). False when the run is not kept in a worker.
   */
  step(dir: 1 | -1, from: number | null, t: number | null, queue: boolean): boolean;
  /** Row `row`'s time and duration, then `then(time, dur)` (not if the run changes or a step wins). */
  timeOf(row: number, then: (time: number, dur: number) => void): void;
  /** Drop the answer on its way and the steps queued behind it (playback paused). */
  stop(): void;
}

interface Asking {
  busy: boolean;
  queued: (1 | -1)[];
  asked: number;
}

/** Forgets the answer on its way and the steps queued behind it; the new question's number. */
function drop(s: Asking): number {
  s.busy = false;
  s.queued = [];
  return ++s.asked;
}

export function useKeptStep(
  run: RunResult | null,
  /** A step reached `row`, which starts at `time` and lasts `dur`. */
  onRow: (row: number, time: number, dur: number) => void,
  /** A step found no row in its direction: the run's end (or start). */
  onEnd: () => void,
): KeptStep {
  const cb = useRef({ onRow, onEnd });
  cb.current = { onRow, onEnd };
  const state = useRef({ run, busy: false, queued: [] as (1 | -1)[], asked: 0 });
  // A new run drops what was asked of the last one (at once: an effect of the same render may
  // already ask about the new run).
  if (state.current.run !== run)
    state.current = { run, busy: false, queued: [], asked: state.current.asked + 1 };

  const ask = useCallback((from: number | null, t: number | null, dir: 1 | -1, count: number) => {
    const s = state.current;
    const client = s.run?.trace.remote ? traceWindowOf(s.run.trace) : null;
    if (!client) return false;
    const asked = ++s.asked;
    s.busy = true;
    const at = t ?? (dir > 0 ? -1 : Infinity);
    const settle = (answer: { row: number; time: number; dur: number } | null) => {
      if (state.current !== s || s.asked !== asked) return;
      s.busy = false;
      if (!answer) {
        s.queued = [];
        return;
      }
      if (answer.row < 0) {
        s.queued = [];
        cb.current.onEnd();
        return;
      }
      cb.current.onRow(answer.row, answer.time, answer.dur);
      if (!s.queued.length) return;
      // The steps pressed meanwhile: the leading ones of one direction in one question.
      const d = s.queued[0];
      let n = 0;
      while (n < s.queued.length && s.queued[n] === d) n++;
      s.queued = s.queued.slice(n);
      ask(answer.row, answer.time, d, n);
    };
    client.step(from, at, dir, count).then(settle, () => settle(null));
    return true;
  }, []);

  const step = useCallback(
    (dir: 1 | -1, from: number | null, t: number | null, queue: boolean) => {
      const s = state.current;
      if (!s.run?.trace.remote) return false;
      if (s.busy) {
        if (queue) s.queued.push(dir);
        return true;
      }
      return ask(from, t, dir, 1);
    },
    [ask],
  );

  const timeOf = useCallback((row: number, then: (time: number, dur: number) => void) => {
    const s = state.current;
    const client = s.run?.trace.remote ? traceWindowOf(s.run.trace) : null;
    if (!client) return;
    // A selection replaces any stepping under way.
    const asked = drop(s);
    client
      .step(row, 0, 1, 0)
      .then((a) => {
        if (state.current === s && s.asked === asked && a && a.row === row) then(a.time, a.dur);
      })
      .catch(() => {});
  }, []);

  const stop = useCallback(() => void drop(state.current), []);

  return useMemo(() => ({ step, timeOf, stop }), [step, timeOf, stop]);
}
