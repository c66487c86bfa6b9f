// The client of linkTextWorker.ts: one worker, made when first needed, answering in order.
// Without a worker (none could be made, or it failed) each request is answered here instead.
import { compressToEncodedURIComponent } from 'lz-string';
import { unpackSource, type SourceRead } from '../app/unpackSource';

export type LinkTextRequest = { id: number } & ({ pack: string } | { unpack: string });
type Answer = { id: number; packed?: string; read?: SourceRead };

let worker: Worker | null = null;
let next = 0;
const waiting = new Map<number, (answer: Answer | null) => void>();

function ask(request: { pack: string } | { unpack: string }): Promise<Answer | null> {
  if (typeof Worker === 'undefined') return Promise.resolve(null);
  if (!worker) {
    worker = new Worker(new URL('./linkTextWorker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<Answer>) => {
      waiting.get(e.data.id)?.(e.data);
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
    worker?.postMessage({ id, ...request });
  });
}

/** `text` packed as a link's `src=`. */
export async function packInWorker(text: string): Promise<string> {
  return (await ask({ pack: text }))?.packed ?? compressToEncodedURIComponent(text);
}

/** A link's `src=` unpacked and checked (app/unpackSource.ts). */
export async function unpackInWorker(src: string): Promise<SourceRead> {
  return (await ask({ unpack: src }))?.read ?? unpackSource(src);
}
