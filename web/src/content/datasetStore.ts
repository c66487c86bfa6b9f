// Imported datasets kept in the browser (IndexedDB) until the reader removes them, so a reload
// does not lose an import. Nothing leaves the machine. Where IndexedDB is unavailable (some
// private windows) every call rejects with a message the page shows; the import still works
// for this visit.
import type { Dataset } from './datasets';

const DB_NAME = 'tlbscope';
const STORE = 'imported-datasets';

export interface DatasetStore {
  /** Every kept dataset, by file name. */
  list(): Promise<Dataset[]>;
  /** Keeps `d`, replacing a kept dataset of the same file name; resolves once committed. */
  put(d: Dataset): Promise<void>;
  remove(file: string): Promise<void>;
}

/**
 * A dataset as kept: one JSON string. IndexedDB's structured clone of 20,000 measurement
 * objects took 60-90 ms on the page's thread; stringifying them is a third of that and the
 * clone of one string is a copy. Records kept as objects (before this format) still read.
 */
type Kept = { file: string; json: string } | Dataset;

function fromKept(r: Kept): Dataset {
  return 'json' in r ? (JSON.parse(r.json) as Dataset) : r;
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

/**
 * Resolves when `t` has committed. A request's success is not a commit: a reload between the
 * two loses the write, so "kept" is only said once the transaction completes.
 */
function committed(t: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    t.oncomplete = () => resolve();
    t.onerror = () => reject(t.error ?? new Error('IndexedDB transaction failed'));
    t.onabort = () => reject(t.error ?? new Error('IndexedDB transaction aborted'));
  });
}

function open(idb: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = idb.open(DB_NAME, 1);
    r.onupgradeneeded = () => {
      if (!r.result.objectStoreNames.contains(STORE))
        r.result.createObjectStore(STORE, { keyPath: 'file' });
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('cannot open IndexedDB'));
    r.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  });
}

export function openDatasetStore(idb: IDBFactory | undefined = globalThis.indexedDB): DatasetStore {
  const db: Promise<IDBDatabase> = idb
    ? open(idb)
    : Promise.reject(new Error('this browser offers no IndexedDB'));
  // A rejected open is reported by the first call, not as an unhandled rejection.
  db.catch(() => undefined);
  const tx = async (mode: IDBTransactionMode) =>
    (await db).transaction(STORE, mode).objectStore(STORE);
  const write = async (f: (s: IDBObjectStore) => IDBRequest) => {
    const s = await tx('readwrite');
    const done = committed(s.transaction);
    // A failed request also fails the transaction; the request's error is the one reported.
    done.catch(() => undefined);
    await request(f(s));
    await done;
  };
  return {
    async list() {
      const all = (await request((await tx('readonly')).getAll())) as Kept[];
      return all.map(fromKept).sort((a, b) => a.file.localeCompare(b.file));
    },
    async put(d) {
      const record: Kept = { file: d.file, json: JSON.stringify(d) };
      await write((s) => s.put(record));
    },
    async remove(file) {
      await write((s) => s.delete(file));
    },
  };
}
