// The own scenario a link carries (`src=`) unpacked and checked, as the page accepts it. Pure and
// synchronous; the page runs it in the link-text worker (workers/linkTextWorker.ts), since a
// `src=` at the link cap takes a few hundred ms to unpack. Imports no React and nothing of the
// page: the worker bundles it (web/eslint.config.js lets workers/ import this one file).
import { kib, SOURCE_CAP } from './linkCap';
import { decompressBounded } from './lzBounded';
import { ownScenarioProblem } from './ownScenario';

/** A link's own scenario before it is unpacked: `file=` and `src=`. */
export interface LinkSource {
  name: string;
  src: string;
}

/** The scenario text, or why the link's `src=` was not used. */
export type SourceRead = { text: string } | { problem: string };

export function unpackSource(src: string): SourceRead {
  // Bounded while unpacking: lz-string alone would unpack without limit.
  const text = decompressBounded(src, SOURCE_CAP);
  if (typeof text === 'string' && text) {
    const problem = ownScenarioProblem(text);
    return problem ? { problem } : { text };
  }
  if (text)
    return {
      problem: `the scenario text unpacks to more than the ${kib(SOURCE_CAP)} a link may carry`,
    };
  return { problem: 'the scenario text is damaged (cut short?) and cannot be unpacked' };
}
