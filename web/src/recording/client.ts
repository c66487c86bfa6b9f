// The page's side of the recording worker: one parse at a time, progress, cancel. A recording
// the worker kept (above `remoteAbove` rows) comes back with a RecordingWindow: the worker
// stays alive to answer window questions until keepOnly() lets it go.
import type { ImportProgress, ParsedRecording, RecordingMessage } from './protocol';
import { RecordingWindow } from './window';

export class ParseCancelled extends Error {
  constructor() {
    super('Import cancelled');
    this.name = 'ParseCancelled';
  }
}

/** A parsed recording; `window` is set when its rows stayed in the worker. */
export interface ImportedRecording extends ParsedRecording {
  window?: RecordingWindow;
}

export interface ParseJob {
  done: Promise<ImportedRecording>;
  cancel: () => void;
}

export function parseInWorker(
  input: Blob | string,
  name: string,
  onProgress: (p: ImportProgress) => void,
  remoteAbove?: number,
): ParseJob {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  let reject: (e: Error) => void = () => {};
  const done = new Promise<ImportedRecording>((res, rej) => {
    reject = rej;
    worker.onmessage = (e: MessageEvent<RecordingMessage>) => {
      const m = e.data;
      if (m.type === 'progress') return onProgress(m);
      if (m.type === 'done' && m.recording.remote) {
        // The worker keeps the rows: it now answers the timeline's questions.
        res({ ...m.recording, window: new RecordingWindow(worker) });
        return;
      }
      worker.terminate();
      if (m.type === 'done') res(m.recording);
      else if (m.type === 'error') rej(new Error(m.message));
      else rej(new Error(`${name}: the import worker answered '${m.type}' before it was done`));
    };
    worker.onerror = (e) => {
      worker.terminate();
      rej(new Error(`${name}: the import worker failed: ${e.message || 'unknown error'}`));
    };
  });
  worker.postMessage({ type: 'parse', name, input, remoteAbove });
  return {
    done,
    cancel: () => {
      worker.terminate();
      reject(new ParseCancelled());
    },
  };
}

// The one recording kept in a worker that the explorer shows: a newer import (or going back
// to the model) ends the old one's worker, whose memory is the point of keeping it there.
let kept: RecordingWindow | null = null;

/** Ends every kept recording's worker but `w`'s (null: ends them all). */
export function keepOnly(w: RecordingWindow | null | undefined): void {
  if (kept && kept !== w) kept.dispose();
  kept = w ?? null;
}
