// The kernel history table's runs: the workload replayed under every kernel, one after the
// other in a simulator worker of its own (the explorer's worker keeps A's run for the
// inspector). Only summaries are read. Results are kept per workload, so moving the slider,
// which changes only the kernel, runs nothing here.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  figuresOf,
  kernelOverrides,
  type KernelResult,
  type KernelStep,
} from '../model/kernelHistory';
import { RunCancelled, SimSession } from '../workers/session';

export interface HistoryProgress {
  /** The kernel running now (index into the kernels). */
  index: number;
  events: number;
}

export interface KernelHistory {
  results: KernelResult[];
  /** Null once every kernel has run (or nothing runs). */
  progress: HistoryProgress | null;
  cancelled: boolean;
  cancel: () => void;
  /** Runs the kernels again after a cancel. */
  resume: () => void;
}

/**
 * `text` null: nothing to run (the panel is closed, or the run is not x86). `workload`: the
 * reader's overrides without those the slider owns.
 */
export function useKernelHistory(
  kernels: readonly KernelStep[],
  text: string | null | undefined,
  workload: readonly string[],
  seed: number,
): KernelHistory {
  const key = text ? `${seed}\n${workload.join('\n')}\n${text}` : null;
  const [results, setResults] = useState<{ key: string | null; list: KernelResult[] }>({
    key: null,
    list: [],
  });
  const [progress, setProgress] = useState<HistoryProgress | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const session = useRef<SimSession | null>(null);
  const done = useRef(new Map<string, KernelResult[]>());
  const workloadKey = workload.join('\n');

  useEffect(() => {
    setCancelled(false);
    if (!key || !text) {
      setProgress(null);
      return;
    }
    const kept = done.current.get(key);
    if (kept) {
      setResults({ key, list: kept });
      setProgress(null);
      return;
    }
    const s = (session.current ??= new SimSession());
    const list: KernelResult[] = kernels.map(() => ({ status: 'pending' }));
    setResults({ key, list });
    let live = true;
    (async () => {
      for (let i = 0; i < kernels.length; i++) {
        if (!live) return;
        setProgress({ index: i, events: 0 });
        try {
          const run = await s.run(text, {
            overrides: kernelOverrides(kernels, workloadKey ? workloadKey.split('\n') : [], i),
            seed,
            summaryOnly: true,
            onProgress: (events) => live && setProgress({ index: i, events }),
          });
          list[i] = run.budgetError
            ? { status: 'error', message: run.budgetError }
            : { status: 'done', figures: figuresOf(run.summary) };
        } catch (e) {
          if (e instanceof RunCancelled) {
            if (live) {
              setCancelled(true);
              setProgress(null);
            }
            return;
          }
          list[i] = { status: 'error', message: e instanceof Error ? e.message : String(e) };
        }
        if (live) setResults({ key, list: [...list] });
      }
      if (!live) return;
      done.current.set(key, list);
      setProgress(null);
    })();
    return () => {
      live = false;
      s.cancel();
    };
  }, [kernels, key, text, workloadKey, seed, attempt]);

  useEffect(
    () => () => {
      session.current?.dispose();
      session.current = null;
    },
    [],
  );

  const cancel = useCallback(() => session.current?.cancel(), []);
  const resume = useCallback(() => setAttempt((n) => n + 1), []);
  return {
    results: results.key === key ? results.list : [],
    progress,
    cancelled,
    cancel,
    resume,
  };
}
