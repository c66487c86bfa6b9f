// Race ids (R1–R18) and invariant ids (I1–I18) are explained in the model's documentation, one
// anchor per id; wherever the page shows an id it links there. Pure: the base URL is passed in.

/** A race or invariant id the documentation has an anchor for. */
const ID = /^[RI](?:1[0-8]|[1-9])$/;
/** The same ids inside running text, as whole words ("I3", not "I30" or "PID3"). */
const IN_TEXT = /\b[RI](?:1[0-8]|[1-9])\b/g;

export function isDocId(id: string): boolean {
  return ID.test(id);
}

/** `docs/model.html#r8` under the site's base (`/`, `./` or `/tlbscope/`), or null for no id. */
export function docHref(id: string, base: string): string | null {
  if (!isDocId(id)) return null;
  const root = base.endsWith('/') ? base : `${base}/`;
  return `${root}docs/model.html#${id.toLowerCase()}`;
}

/** The path the CLI prints beside an id, relative to the repository. */
export function docPath(id: string): string | null {
  return isDocId(id) ? `docs/model.md#${id.toLowerCase()}` : null;
}

export type TextPart = { text: string } | { id: string };

/** Splits prose into plain text and the ids in it, in order, so each id can become a link. */
export function splitIds(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(IN_TEXT)) {
    const at = m.index ?? 0;
    if (at > last) parts.push({ text: text.slice(last, at) });
    parts.push({ id: m[0] });
    last = at + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
