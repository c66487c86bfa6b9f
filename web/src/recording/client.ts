// The page's side of the recording worker: one parse at a time, progress, cancel.
import type { ParsedRecording, RecordingMessage } from './protocol';

export class ParseCancelled extends Error {
  constructor() {
    super('Import cancelled');
    this.name = 'ParseCancelled';
  }
}

export interface ParseJob {
  done: Promise<ParsedRecording>;
  cancel: () => void;
}

export function parseInWorker(
  input: Blob | string,
  name: string,
  onProgress: (bytes: number, total: number, lines: number) => void,
): ParseJob {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  let reject: (e: Error) => void = () => {};
  const done = new Promise<ParsedRecording>((res, rej) => {
    reject = rej;
    worker.onmessage = (e: MessageEvent<RecordingMessage>) => {
      const m = e.data;
      if (m.type === 'progress') return onProgress(m.bytes, m.total, m.lines);
      worker.terminate();
      if (m.type === 'done') res(m.recording);
      else rej(new Error(m.message));
    };
    worker.onerror = (e) => {
      worker.terminate();
      rej(new Error(`${name}: the import worker failed: ${e.message || 'unknown error'}`));
    };
  });
  worker.postMessage({ type: 'parse', name, input });
  return {
    done,
    cancel: () => {
      worker.terminate();
      reject(new ParseCancelled());
    },
  };
}
