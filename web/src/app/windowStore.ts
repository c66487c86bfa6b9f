// The timelines' visible window (ns), kept outside React state. It changes on every zoom and
// pan frame, and then only the timelines need it: they draw themselves from it. Held in
// React state, each frame re-rendered the whole explorer (sidebar, summary, inspector) for
// nothing, about 3 ms of a 16 ms frame at a million events. Views that follow the window
// but need not keep up with a gesture (the event log) read it once it rests.
import { useEffect, useState } from 'react';

export type Span = [number, number];
type Listener = (w: Span, from: unknown) => void;

export interface WindowStore {
  get(): Span;
  /** `from` identifies the writer, so it can ignore its own change. */
  set(w: Span, from?: unknown): void;
  subscribe(fn: Listener): () => void;
}

export function createWindowStore(initial: Span = [0, 1]): WindowStore {
  let current = initial;
  const listeners = new Set<Listener>();
  return {
    get: () => current,
    set(w, from) {
      if (w[0] === current[0] && w[1] === current[1]) return;
      current = w;
      for (const fn of [...listeners]) fn(w, from);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/** The store's window once it has stopped changing for `ms` (at once when idle before). */
export function useSettledWindow(store: WindowStore, ms = 150): Span {
  const [settled, setSettled] = useState(store.get);
  useEffect(() => {
    let id: ReturnType<typeof setTimeout> | undefined;
    setSettled(store.get());
    const off = store.subscribe(() => {
      clearTimeout(id);
      id = setTimeout(() => setSettled(store.get()), ms);
    });
    return () => {
      off();
      clearTimeout(id);
    };
  }, [store, ms]);
  return settled;
}
