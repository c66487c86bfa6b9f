// Runs one fit in its own worker (fitWorker.ts); cancelling terminates it.
import type { FitResult, FitRow } from '../model/fitCore.mjs';
import type { FitReply, FitRequest } from './fitProtocol';

export interface Fitted {
  result: FitResult;
  skipped: { line: number; reason: string }[];
}

export function fitInWorker(
  rows: FitRow[],
  texts: Record<string, string>,
  onProgress: (line: string) => void,
  maxRuns = 400,
): { done: Promise<Fitted>; cancel: () => void } {
  const worker = new Worker(new URL('./fitWorker.ts', import.meta.url), { type: 'module' });
  let cancel = () => worker.terminate();
  const done = new Promise<Fitted>((resolve, reject) => {
    cancel = () => {
      worker.terminate();
      reject(new Error('fit cancelled'));
    };
    worker.onmessage = (e: MessageEvent<FitReply>) => {
      const m = e.data;
      if (m.type === 'progress') return onProgress(m.line);
      worker.terminate();
      if (m.type === 'fitted') resolve({ result: m.result, skipped: m.skipped });
      else reject(new Error(m.message));
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(`the fit worker failed: ${e.message || 'unknown error'}`));
    };
  });
  const req: FitRequest = { id: 1, rows, texts, maxRuns };
  worker.postMessage(req);
  return { done, cancel };
}
