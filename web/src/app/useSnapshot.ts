// The machine state at the cursor, fetched from the worker's last run (debounced: a re-run up
// to the cursor costs up to a full run, so scrubbing asks only once it settles).
import { useEffect, useState } from 'react';
import { parseSnapshot, type Snapshot } from '../model/snapshot';

const DEBOUNCE_MS = 120;

export function useSnapshot(
  fetch: (t: number) => Promise<string>,
  cursor: number | null,
  runVersion: number | null,
): Snapshot | null {
  const [snap, setSnap] = useState<Snapshot | null>(null);
  useEffect(() => {
    if (cursor === null || runVersion === null) {
      setSnap(null);
      return;
    }
    let live = true;
    const id = setTimeout(() => {
      fetch(cursor).then(
        (json) => live && setSnap(parseSnapshot(json)),
        () => live && setSnap(null),
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(id);
    };
  }, [fetch, cursor, runVersion]);
  return snap;
}
