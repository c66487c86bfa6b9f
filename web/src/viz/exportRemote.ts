// The remote timeline (viz/remote.ts) as an exported picture: what the screen shows, the
// worker's per-pixel cells of the window as an embedded raster image and the top SVG (axis,
// CPU labels, the window's rows as marks, arrows, lens brackets, a guided step's outlines and
// veils) as vector, and under them the tlb_gen charts when shown (their SVG, their bands as an
// image), with the page's styles inlined, composed with title, legend and caption like the
// local timeline's export.
import { legendOfKinds } from '../model/legend';
import { NO_KIND, type LaneBuckets } from '../model/traceWindow';
import { toPalette } from './columns';
import { composeDiagram, inlineStyles, serializeDiagram, SVG_NS } from './exportSvg';
import { diagramColors, swatchesOf, type ExportedSvg, type ExportText } from './exportTimeline';
import { REMOTE_AXIS, type PaintedAnswer, type RemoteLayout } from './remote';

/**
 * The kinds any cell of `b` holds (its kind masks OR-ed over every CPU and bucket; an answer
 * asked with a priority carries only the kind each cell is drawn in).
 */
export function kindsOf(b: LaneBuckets | null): Set<number> {
  if (b?.drawn) {
    const out = new Set<number>();
    for (const k of b.drawn) if (k !== NO_KIND) out.add(k);
    return out;
  }
  let lo = 0;
  let hi = 0;
  for (let c = 0; b && c < b.count.length; c++) {
    lo |= b.kindsLo[c];
    hi |= b.kindsHi[c];
  }
  const out = new Set<number>();
  for (let k = 0; k < 32; k++) {
    if (lo & (1 << k)) out.add(k);
    if (hi & (1 << k)) out.add(k + 32);
  }
  return out;
}

/** The tlb_gen charts under the strips, as drawn (viz/remoteGens.ts): their SVG and bands. */
export interface RemoteGensPart {
  top: SVGSVGElement;
  /** The bands' image as last painted (null: none yet). */
  painted: PaintedAnswer | null;
  height: number;
}

/**
 * `painted` (an answer for some window) stretched onto [t0, t1] as placeAnswer stretches it on
 * screen, as an embedded image W × H at (x, y), rendered at `scale`; null when there is none.
 */
function stretchedImage(
  doc: Document,
  painted: PaintedAnswer | null,
  [t0, t1]: [number, number],
  [x, y, W, H]: [number, number, number, number],
  scale: number,
): Element | null {
  if (!painted || !(t1 > t0) || W <= 0 || H <= 0) return null;
  const canvas = doc.createElement('canvas');
  canvas.width = Math.max(1, Math.round(W * scale));
  canvas.height = Math.max(1, Math.round(H * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.imageSmoothingEnabled = false;
  const k = W / (t1 - t0);
  ctx.drawImage(
    painted.image,
    (painted.t0 - t0) * k * scale,
    0,
    (painted.t1 - painted.t0) * k * scale,
    H * scale,
  );
  const img = doc.createElementNS(SVG_NS, 'image');
  img.setAttribute('x', String(x));
  img.setAttribute('y', String(y));
  img.setAttribute('width', String(W));
  img.setAttribute('height', String(H));
  img.setAttribute('preserveAspectRatio', 'none');
  img.setAttribute('href', canvas.toDataURL('image/png'));
  return img;
}

/** A copy of `svg`'s drawing with the page's styles inlined (read from the originals). */
function vectorCopy(svg: SVGSVGElement): Element {
  const g = svg.ownerDocument.createElementNS(SVG_NS, 'g');
  const originals = Array.from(svg.children);
  const copies = originals.map((c) => g.appendChild(c.cloneNode(true)) as Element);
  const styleOf = (e: Element) => getComputedStyle(e);
  originals.forEach((c, i) => inlineStyles(c, copies[i], styleOf));
  return g;
}

export function exportRemoteSvg(
  box: HTMLElement,
  top: SVGSVGElement,
  layout: RemoteLayout,
  win: [number, number],
  painted: PaintedAnswer | null,
  buckets: LaneBuckets | null,
  /** Kinds of the rows drawn as marks. */
  rowKinds: Iterable<number>,
  text: ExportText,
  /** The tlb_gen charts, when shown: drawn under the strips as on screen. */
  gens: RemoteGensPart | null = null,
  scale = 2,
): ExportedSvg {
  const doc = box.ownerDocument;
  const { width, height, plot, cpus, strip } = layout;
  const W = plot[1] - plot[0];
  const layers: Element[] = [];
  // The cells as the screen places them (placeAnswer's stretch), clipped to the plot.
  const cells = stretchedImage(doc, painted, win, [plot[0], REMOTE_AXIS, W, cpus * strip], scale);
  if (cells) layers.push(cells);
  // The top layer: axis, labels, rows, arrows, lens brackets, a step's outlines and veils.
  layers.push(vectorCopy(top));
  let bodyHeight = height;
  if (gens && gens.height > 0) {
    // As on screen: the charts' SVG, the bands' image over it, just under the strips.
    const g = doc.createElementNS(SVG_NS, 'g');
    g.setAttribute('transform', `translate(0,${height})`);
    g.setAttribute('data-part', 'tlb_gen charts');
    g.appendChild(vectorCopy(gens.top));
    const bands = stretchedImage(doc, gens.painted, win, [plot[0], 0, W, gens.height], scale);
    if (bands) g.appendChild(bands);
    layers.push(g);
    bodyHeight += gens.height;
  }

  const color = toPalette(box);
  // Arrows are drawn only when few: the legend names them when they are.
  const kinds = kindsOf(buckets);
  for (const k of rowKinds) kinds.add(k);
  const entries = legendOfKinds(kinds, 0).filter(
    (e) => e.mark === 'span' || top.querySelector(`line.arrow-${e.mark}`) !== null,
  );
  const svg = composeDiagram(doc, {
    ...text,
    legend: swatchesOf(entries, color),
    width,
    body: { height: bodyHeight, layers },
    colors: diagramColors(box, color),
  });
  return {
    svg: serializeDiagram(svg),
    width,
    height: Number(svg.getAttribute('height')),
    marks: 'raster',
  };
}
