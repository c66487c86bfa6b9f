// What a picture dropped on the page leads to, from its bytes: the view its state link reopens,
// or the message saying why there is none. Pure, so that the fuzzer runs the page's own
// decoding of dropped files (useSvgDrop.ts reads the file and acts on the answer).
import { reopenTarget, svgStateLink } from '../viz/exportSvg';
import { PNG_LINK_KEY } from '../viz/exportTimeline';
import { readPngText } from '../viz/pngText';
import { LINK_CAP, linkTooLong } from './linkCap';

export type DropAnswer = { href: string } | { message: string };

/**
 * `bytes` of a dropped file `name` of `size` bytes (of an SVG only the head, svgHeadBytes), a
 * PNG or not, read on the page at `here`.
 */
export function dropAnswer(
  name: string,
  png: boolean,
  bytes: Uint8Array,
  size: number,
  here: string,
): DropAnswer {
  // Both readers stop at the link cap without decoding what lies past it.
  const found = png
    ? readPngText(bytes, PNG_LINK_KEY, LINK_CAP)
    : svgStateLink(bytes, LINK_CAP, size);
  if (!found) {
    return {
      message: `${name} has no tlbscope state link in its ${png ? 'PNG text' : '<metadata>'}: it was not exported by tlbscope, so there is no view to reopen.`,
    };
  }
  if ('tooLarge' in found)
    return { message: `${name}: ${linkTooLong(found.tooLarge, 'its state link')}.` };
  const link = 'text' in found ? found.text : found.link;
  const long = linkTooLong(link.length, 'its state link');
  if (long) return { message: `${name}: ${long}.` };
  const to = reopenTarget(link, here);
  return 'error' in to ? { message: `${name}: ${to.error}` } : to;
}
