// One question to the worker that keeps a run (Trace.remote), asked again only when `key`
// changes: the key says everything the answer depends on, the run's version first. The answer
// is returned while the key is still the one it was asked under; one overtaken by a newer
// question of its kind, or about a run replaced meanwhile, is dropped.
import { useEffect, useRef, useState } from 'react';
import type { Trace } from '../trace/trace';
import { traceWindowOf, type TraceWindow } from '../workers/session';

export function useKeptAnswer<T>(
  trace: Trace | null,
  key: string,
  ask: (client: TraceWindow) => Promise<T | null>,
): T | null {
  const [got, setGot] = useState<{ key: string; value: T } | null>(null);
  // The question of the render that set the key (its closure holds what the key names).
  const askRef = useRef(ask);
  askRef.current = ask;
  useEffect(() => {
    const client = trace ? traceWindowOf(trace) : null;
    if (!client) return;
    let live = true;
    askRef
      .current(client)
      .then((value) => {
        if (live && value !== null) setGot({ key, value });
      })
      .catch(() => {}); // the run was replaced: its answer is not wanted
    return () => {
      live = false;
    };
    // The key says everything the question depends on.
  }, [key]);
  return got?.key === key ? got.value : null;
}
