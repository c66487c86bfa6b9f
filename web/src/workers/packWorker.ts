// Packs an own scenario's text for its link off the main thread: lz-string's compressor slows
// down badly on repetitive text (a long comment of one character takes seconds).
import { compressToEncodedURIComponent } from 'lz-string';

self.onmessage = (e: MessageEvent<{ id: number; text: string }>) => {
  self.postMessage({ id: e.data.id, packed: compressToEncodedURIComponent(e.data.text) });
};
