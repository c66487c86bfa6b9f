// The client of packWorker.ts: one worker, made when first needed, answering in order.
let worker: Worker | null = null;
let next = 0;
const waiting = new Map<number, (packed: string | null) => void>();

/** `text` packed as a link's `src=`, or null if no worker could be made. */
export function packInWorker(text: string): Promise<string | null> {
  if (typeof Worker === 'undefined') return Promise.resolve(null);
  if (!worker) {
    worker = new Worker(new URL('./packWorker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<{ id: number; packed: string }>) => {
      waiting.get(e.data.id)?.(e.data.packed);
      waiting.delete(e.data.id);
    };
    worker.onerror = () => {
      for (const done of waiting.values()) done(null);
      waiting.clear();
      worker = null;
    };
  }
  const id = next++;
  return new Promise((done) => {
    waiting.set(id, done);
    worker?.postMessage({ id, text });
  });
}
