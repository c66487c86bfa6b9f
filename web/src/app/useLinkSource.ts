// The own scenario a link carries (`src=`), unpacked in a worker: at the link cap that takes a
// few hundred ms, too long to hold the page. The rest of the link applies at once; the text
// follows. Whatever is read is remembered with its `src=`, so the link is never packed again.
import { useEffect, useRef, useState } from 'react';
import { unpackInWorker } from '../workers/linkText';
import { rememberSource } from './linkSource';
import type { LinkSource, SourceRead } from './unpackSource';

/**
 * `first`: the opening link's source. `read(s)` starts another (a link brought by Back or
 * Forward), or with null stops waiting for the one being read; `onRead` hears each that arrives.
 */
export function useLinkSource(
  first: LinkSource | null,
  onRead: (source: LinkSource, read: SourceRead) => void,
): { reading: LinkSource | null; read: (s: LinkSource | null) => void } {
  const [reading, setReading] = useState(first);
  const hear = useRef(onRead);
  hear.current = onRead;
  useEffect(() => {
    if (!reading) return;
    let live = true;
    void unpackInWorker(reading.src).then((read) => {
      if (!live) return;
      if ('text' in read) rememberSource(read.text, reading.src);
      setReading(null);
      hear.current(reading, read);
    });
    return () => {
      live = false;
    };
  }, [reading]);
  return { reading, read: setReading };
}
