// Packs an own scenario's text for its link, and unpacks a link's, off the main thread:
// lz-string's compressor slows down badly on repetitive text (a long comment of one character
// takes seconds), and unpacking a `src=` at the link cap takes a few hundred ms.
import { compressToEncodedURIComponent } from 'lz-string';
import { unpackSource } from '../app/unpackSource';
import type { LinkTextRequest } from './linkText';

self.onmessage = (e: MessageEvent<LinkTextRequest>) => {
  const r = e.data;
  self.postMessage(
    'pack' in r
      ? { id: r.id, packed: compressToEncodedURIComponent(r.pack) }
      : { id: r.id, read: unpackSource(r.unpack) },
  );
};
