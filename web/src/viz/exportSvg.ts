// An exported diagram: one standalone SVG with a title, a legend, the diagram itself and a
// caption saying where its numbers come from. The page's state link travels in the SVG's
// <metadata> (Dublin Core `source`), so dropping the file back on tlbscope reopens the view it
// was made from. No React, no window: the caller hands in the document and the diagram's
// layers, already self-contained (see inlineStyles).

export const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const DC_NS = 'http://purl.org/dc/elements/1.1/';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

export interface LegendSwatch {
  label: string;
  /** A filled box (span marks), a line (arrows) or a character (a chart's point symbols). */
  swatch: 'rect' | 'line' | 'glyph';
  glyph?: string;
  color: string;
  opacity?: number;
  dash?: string;
  /** A span's band of its lane, top and bottom as fractions (model/markShape.ts). */
  band?: readonly [number, number];
}

export interface DiagramParts {
  title: string;
  subtitle?: string;
  legend: readonly LegendSwatch[];
  /** Provenance: which model, preset, scenario and settings produced what is drawn. */
  caption: string;
  /** The page's state link (location.href at export time). */
  link: string;
  width: number;
  /** The diagram: layers in its own coordinates, `height` tall, `width` wide. */
  body: { height: number; layers: readonly Element[] };
  colors: { background: string; text: string; muted: string };
}

const PAD = 16;
const TITLE = 18;
const SUB = 14;
const SMALL = 12;
/** Average glyph advance of the sans-serif fonts used, as a share of the font size. */
const ADVANCE = 0.55;

export function textWidth(s: string, fontSize: number): number {
  return s.length * fontSize * ADVANCE;
}

/** Greedy word wrap to `width` pixels at `fontSize` (estimated advances). */
export function wrapText(s: string, width: number, fontSize: number): string[] {
  const per = Math.max(8, Math.floor(width / (fontSize * ADVANCE)));
  const lines: string[] = [];
  let line = '';
  for (const word of s.split(/\s+/).filter(Boolean)) {
    // A word longer than a line (a URL) is cut rather than run off the edge.
    for (let w = word; w.length;) {
      const room = line ? per - line.length - 1 : per;
      if (w.length <= room) {
        line = line ? `${line} ${w}` : w;
        w = '';
      } else if (line && w.length <= per) {
        lines.push(line);
        line = '';
      } else {
        const cut = Math.max(1, room);
        lines.push(line ? `${line} ${w.slice(0, cut)}` : w.slice(0, cut));
        line = '';
        w = w.slice(cut);
      }
    }
  }
  if (line) lines.push(line);
  return lines;
}

interface Placed {
  item: LegendSwatch;
  x: number;
  y: number;
}

/** Legend entries flowed into rows across `width`. */
export function layoutLegend(
  items: readonly LegendSwatch[],
  width: number,
): { placed: Placed[]; height: number } {
  const row = SMALL + 8;
  const placed: Placed[] = [];
  let x = 0;
  let y = 0;
  for (const item of items) {
    const w = 26 + textWidth(item.label, SMALL) + 18;
    if (x > 0 && x + w > width) {
      x = 0;
      y += row;
    }
    placed.push({ item, x, y });
    x += w;
  }
  return { placed, height: items.length ? y + row : 0 };
}

function el<K extends keyof SVGElementTagNameMap>(
  doc: Document,
  name: K,
  attrs: Record<string, string | number> = {},
  text?: string,
): SVGElementTagNameMap[K] {
  const e = doc.createElementNS(SVG_NS, name) as SVGElementTagNameMap[K];
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

export function composeDiagram(doc: Document, parts: DiagramParts): SVGSVGElement {
  const { width, colors } = parts;
  const inner = width - 2 * PAD;
  const svg = el(doc, 'svg', { version: '1.1', width, 'font-family': 'sans-serif' });
  svg.setAttributeNS(XMLNS_NS, 'xmlns:xlink', XLINK_NS);
  svg.appendChild(el(doc, 'title', {}, parts.title));
  svg.appendChild(el(doc, 'desc', {}, parts.caption));
  svg.appendChild(metadata(doc, parts));
  const bg = svg.appendChild(el(doc, 'rect', { x: 0, y: 0, width, fill: colors.background }));

  let y = PAD + TITLE;
  svg.appendChild(
    el(
      doc,
      'text',
      { x: PAD, y, 'font-size': TITLE, 'font-weight': 700, fill: colors.text },
      parts.title,
    ),
  );
  if (parts.subtitle) {
    y += SUB + 8;
    svg.appendChild(
      el(doc, 'text', { x: PAD, y, 'font-size': SUB, fill: colors.text }, parts.subtitle),
    );
  }
  y += 14;

  const legend = layoutLegend(parts.legend, inner);
  const lg = svg.appendChild(
    el(doc, 'g', { class: 'legend', transform: `translate(${PAD},${y})`, 'font-size': SMALL }),
  );
  for (const { item, x, y: ly } of legend.placed) {
    const g = lg.appendChild(el(doc, 'g', { transform: `translate(${x},${ly})` }));
    if (item.swatch === 'rect') {
      const [t, b] = item.band ?? [0, 1];
      if (item.band)
        g.appendChild(
          el(doc, 'rect', { width: 18, height: 10, y: 1, fill: 'none', stroke: colors.text }),
        ).setAttribute('stroke-opacity', '0.3');
      g.appendChild(
        el(doc, 'rect', {
          width: 18,
          height: (b - t) * 10,
          y: 1 + t * 10,
          fill: item.color,
          'fill-opacity': item.opacity ?? 1,
        }),
      );
    } else if (item.swatch === 'glyph') {
      g.appendChild(
        el(doc, 'text', { x: 4, y: 10, fill: item.color, 'font-weight': 700 }, item.glyph ?? '●'),
      );
    } else {
      const line = el(doc, 'line', { x1: 0, x2: 22, y1: 6, y2: 6, stroke: item.color });
      line.setAttribute('stroke-width', '1.5');
      if (item.dash) line.setAttribute('stroke-dasharray', item.dash);
      g.appendChild(line);
    }
    g.appendChild(el(doc, 'text', { x: 26, y: 10, fill: colors.text }, item.label));
  }
  y += legend.height + 6;

  const body = svg.appendChild(el(doc, 'g', { class: 'diagram', transform: `translate(0,${y})` }));
  for (const layer of parts.body.layers) body.appendChild(layer);
  y += parts.body.height + 8;

  const lines = wrapText(parts.caption, inner, SMALL);
  const cap = svg.appendChild(
    el(doc, 'g', { class: 'caption', 'font-size': SMALL, fill: colors.muted }),
  );
  for (const line of lines) {
    y += SMALL + 4;
    cap.appendChild(el(doc, 'text', { x: PAD, y }, line));
  }
  // The state link, visible too (a PNG on a slide has no metadata); shortened on screen only.
  y += SMALL + 4;
  const a = cap.appendChild(el(doc, 'a', { href: parts.link }));
  a.setAttributeNS(XLINK_NS, 'xlink:href', parts.link);
  const maxChars = Math.floor(inner / (SMALL * ADVANCE)) - 12;
  const shown = parts.link.length > maxChars ? `${parts.link.slice(0, maxChars - 1)}…` : parts.link;
  a.appendChild(el(doc, 'text', { x: PAD, y, 'text-decoration': 'underline' }, `Open: ${shown}`));

  const height = Math.ceil(y + PAD);
  svg.setAttribute('height', String(height));
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  bg.setAttribute('height', String(height));
  return svg;
}

function metadata(doc: Document, parts: DiagramParts): Element {
  const meta = el(doc, 'metadata', { id: 'tlbscope-state' });
  const rdf = doc.createElementNS(RDF_NS, 'rdf:RDF');
  rdf.setAttributeNS(XMLNS_NS, 'xmlns:dc', DC_NS);
  const desc = doc.createElementNS(RDF_NS, 'rdf:Description');
  desc.setAttributeNS(RDF_NS, 'rdf:about', parts.link);
  const dc = (name: string, text: string) => {
    const e = doc.createElementNS(DC_NS, `dc:${name}`);
    e.textContent = text;
    desc.appendChild(e);
  };
  dc('title', parts.title);
  dc('source', parts.link);
  dc('creator', 'tlbscope');
  dc('description', parts.caption);
  rdf.appendChild(desc);
  meta.appendChild(rdf);
  return meta;
}

export function serializeDiagram(svg: SVGSVGElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
}

/** The state link an exported SVG carries, or null if `text` is not one of ours. */
export function stateLinkOf(text: string): string | null {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  if (doc.getElementsByTagName('parsererror').length) return null;
  const root = doc.documentElement;
  if (root.localName !== 'svg') return null;
  for (const meta of Array.from(root.getElementsByTagNameNS(SVG_NS, 'metadata'))) {
    const src = meta.getElementsByTagNameNS(DC_NS, 'source')[0];
    const link = src?.textContent?.trim();
    if (link) return link;
  }
  return null;
}

/** How much of an SVG's start `svgStateLink` reads: the link (twice, escaped) and the rest. */
export const svgHeadBytes = (cap: number): number => 4 * cap + 256 * 1024;

/**
 * The state link of an exported SVG file, read from its head only: tlbscope writes <metadata>
 * third, after <title> and <desc>, so the rest (perhaps megabytes of embedded image) is never
 * decoded or parsed. A metadata element whose end is not within the head, or whose link is
 * longer than `cap`, gives `{ tooLarge }` (in characters, at least) instead.
 */
export function svgStateLink(
  bytes: Uint8Array,
  cap: number,
  fileSize = bytes.length,
): { link: string } | { tooLarge: number } | null {
  const headBytes = svgHeadBytes(cap);
  const head = new TextDecoder().decode(bytes.subarray(0, headBytes));
  // The root tag and its end are each searched for once: /<svg[\s>][^>]*>/ tried again from
  // every `<svg` of a head that has no `>`, which cost the square of its length (a dropped file
  // of 800 KB of `<svg ` held the page for minutes).
  const open = head.search(/<svg[\s>]/);
  if (open < 0) return null;
  const close = head.indexOf('>', open + 5);
  if (close < 0) return null;
  const root = head.slice(open, close + 1);
  const from = head.indexOf('<metadata', open);
  if (from < 0) return null;
  const end = head.indexOf('</metadata>', from);
  // An unended metadata element in a whole file is not one tlbscope wrote.
  if (end < 0) return fileSize > headBytes ? { tooLarge: fileSize - from } : null;
  const link = stateLinkOf(`${root}${head.slice(from, end + 11)}</svg>`);
  if (link === null) return null;
  return link.length > cap ? { tooLarge: link.length } : { link };
}

/** The app a path belongs to: its directory (`/tlbscope/demo/index.html` → `/tlbscope/demo/`). */
function appPath(pathname: string): string {
  return pathname.replace(/[^/]*$/, '');
}

/**
 * Where a dropped SVG's link may take this page: only to this same app (same origin, same
 * directory), never to another site a file happens to name.
 */
export function reopenTarget(link: string, here: string): { href: string } | { error: string } {
  // A file names its host and path as it likes: the message quotes at most this much of each.
  const short = (t: string, n = 120) => (t.length > n ? `${t.slice(0, n)}…` : t);
  let to: URL;
  let at: URL;
  try {
    to = new URL(link);
    at = new URL(here);
  } catch {
    return { error: `The SVG's state link is not a valid URL: ${short(link, 200)}` };
  }
  if (to.protocol !== at.protocol || to.host !== at.host) {
    return {
      error: `The SVG was exported from ${short(`${to.protocol}//${to.host}`)}, not from this tlbscope (${short(`${at.protocol}//${at.host}`)}); it was not opened. Its link: ${short(link, 300)}`,
    };
  }
  if (appPath(to.pathname) !== appPath(at.pathname)) {
    return {
      error: `The SVG was exported from ${short(to.pathname)}, another page than this tlbscope (${short(at.pathname)}); it was not opened. Its link: ${short(link, 300)}`,
    };
  }
  return { href: to.href };
}

// Presentation properties copied from the page's computed style onto an exported copy, so
// the file looks the same without the page's style sheets.
const STYLED = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-size',
  'font-weight',
  'font-style',
  'paint-order',
  'text-anchor',
  'text-decoration-line',
] as const;
const DEFAULTS: Record<string, string> = {
  'fill-opacity': '1',
  'stroke-opacity': '1',
  opacity: '1',
  'stroke-dasharray': 'none',
  'font-style': 'normal',
  'paint-order': 'normal',
  'text-anchor': 'start',
  'text-decoration-line': 'none',
};

type StyleOf = (e: Element) => Pick<CSSStyleDeclaration, 'getPropertyValue'>;

/**
 * Copies `src`'s computed presentation onto `dst` (a deep clone of it), element by element,
 * and drops what the page hides (display: none) and what only the page uses (classes,
 * roles, tab stops, event hooks).
 */
export function inlineStyles(src: Element, dst: Element, styleOf: StyleOf): void {
  const style = styleOf(src);
  if (style.getPropertyValue('display') === 'none') {
    dst.remove();
    return;
  }
  const decl: string[] = [];
  for (const p of STYLED) {
    const v = style.getPropertyValue(p).trim();
    if (v && v !== DEFAULTS[p]) decl.push(`${p}:${v}`);
  }
  if (decl.length) dst.setAttribute('style', decl.join(';'));
  for (const a of ['class', 'role', 'tabindex', 'aria-label', 'aria-expanded', 'aria-hidden'])
    dst.removeAttribute(a);
  const s = Array.from(src.children);
  const d = Array.from(dst.children);
  for (let i = 0; i < s.length && i < d.length; i++) inlineStyles(s[i], d[i], styleOf);
}
