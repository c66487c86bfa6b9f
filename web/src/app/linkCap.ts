// How large a link (and what it carries) may be before the page refuses it. A link holds the
// whole view, an own scenario included, so it can be made arbitrarily long; past these caps the
// decoding alone (lz-string, a PNG's text, an SVG's metadata) would hold the page for seconds.

/** The longest link the page follows or writes: far above any view the app makes itself. */
export const LINK_CAP = 128 * 1024;
/** The longest own-scenario text a link's `src=` may decompress to. */
export const SOURCE_CAP = 1024 * 1024;

export const kib = (n: number): string => `${Math.round(n / 1024).toLocaleString('en')} KiB`;

/** Why a link of `length` characters is refused, or null when it is within the cap. */
export function linkTooLong(length: number, what = 'the link'): string | null {
  return length > LINK_CAP
    ? `${what} is ${kib(length)}, over the ${kib(LINK_CAP)} a tlbscope link may have; it was not opened`
    : null;
}
