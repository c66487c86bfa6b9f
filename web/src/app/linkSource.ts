// An own scenario's text as a link's `src=`, packed once per text (never on each rewrite of the
// address bar) and, past a small size, in a worker. A text that unpacks from a link is
// remembered with the `src=` it came from, so opening a link packs nothing.
import { compressToEncodedURIComponent } from 'lz-string';
import { useSyncExternalStore } from 'react';
import { packInWorker } from '../workers/linkText';
import { LINK_CAP, SOURCE_CAP } from './linkCap';

/** Shown where the own scenario is named, when its link cannot carry it. */
export const TOO_LARGE_TO_SHARE = 'scenario too large to share in a link; download it instead';

/** Texts this short pack in well under a millisecond, whatever they hold. */
const PACK_HERE = 8 * 1024;
const KEEP = 8;

type Packed = string | 'too large' | 'pending';
const packed = new Map<string, Packed>();
const listeners = new Set<() => void>();

function remember(text: string, value: Packed): void {
  packed.delete(text);
  packed.set(text, value);
  for (const k of packed.keys()) {
    if (packed.size <= KEEP) break;
    packed.delete(k);
  }
}

const fits = (src: string): Packed => (src.length > LINK_CAP ? 'too large' : src);

/** Records that `src` unpacks to `text` (a link just read). */
export function rememberSource(text: string, src: string): void {
  remember(text, src);
}

/**
 * The `src=` of `text`: the packed string, 'too large' (over the link or source cap: leave it
 * out of the link), or 'pending' while a worker packs it (listeners hear when it is done).
 */
export function sourceParam(text: string): Packed {
  const known = packed.get(text);
  if (known) return known;
  if (text.length > SOURCE_CAP) {
    remember(text, 'too large');
    return 'too large';
  }
  if (text.length <= PACK_HERE) {
    const value = fits(compressToEncodedURIComponent(text));
    remember(text, value);
    return value;
  }
  remember(text, 'pending');
  void packInWorker(text).then((src) => {
    remember(text, fits(src));
    for (const l of listeners) l();
  });
  return 'pending';
}

/** Calls `l` whenever a text packed in the worker is ready; returns the unsubscribe. */
export function onSourcePacked(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Whether the own scenario `text` is left out of links, as a hook that hears the worker. */
export function useTooLargeToShare(text: string | null): boolean {
  const state = useSyncExternalStore(onSourcePacked, () => (text ? sourceParam(text) : null));
  return state === 'too large';
}
