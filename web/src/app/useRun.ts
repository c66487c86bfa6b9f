// Runs the selected scenario whenever it, its seed or its overrides change.
import { useEffect, useState } from 'react';
import { runScenario, type RunResult } from '../sim/session';
import { loadSimulator } from '../sim/wasm';

export type RunState =
  | { status: 'running' }
  | { status: 'done'; result: RunResult }
  | { status: 'error'; message: string };

export function useRun(text: string | undefined, overrides: string[], seed: number): RunState {
  const [state, setState] = useState<RunState>({ status: 'running' });
  const key = overrides.join('\n');
  useEffect(() => {
    let cancelled = false;
    setState({ status: 'running' });
    loadSimulator()
      .then(() => {
        if (text === undefined) throw new Error('Unknown scenario: pick one from the list.');
        return runScenario(text, { overrides: key ? key.split('\n') : [], seed });
      })
      .then(
        (result) => !cancelled && setState({ status: 'done', result }),
        (e: unknown) =>
          !cancelled &&
          setState({ status: 'error', message: e instanceof Error ? e.message : String(e) }),
      );
    return () => {
      cancelled = true;
    };
  }, [text, key, seed]);
  return state;
}
