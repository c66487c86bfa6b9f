// lz-string as an ES module for the fuzzer's worker: the package is CommonJS whose exports
// Node's ES loader cannot name, and web/src/app/url.ts imports two of them by name (Vite and
// Vitest convert it themselves).
import { createRequire } from 'node:module';

const lz = createRequire(import.meta.url)('lz-string');

export const { compressToEncodedURIComponent, decompressFromEncodedURIComponent } = lz;
export default lz;
