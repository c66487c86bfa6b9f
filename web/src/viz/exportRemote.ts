// The remote timeline (viz/remote.ts) as an exported picture: what the screen shows, the
// worker's per-pixel cells of the window as an embedded raster image and the top SVG (axis,
// CPU labels, the window's rows as marks, arrows, lens brackets) as vector, with the page's
// styles inlined, composed with title, legend and caption like the local timeline's export.
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

export function exportRemoteSvg(
  box: HTMLElement,
  top: SVGSVGElement,
  layout: RemoteLayout,
  [t0, t1]: [number, number],
  painted: PaintedAnswer | null,
  buckets: LaneBuckets | null,
  /** Kinds of the rows drawn as marks. */
  rowKinds: Iterable<number>,
  text: ExportText,
  scale = 2,
): ExportedSvg {
  const doc = box.ownerDocument;
  const { width, height, plot, cpus, strip } = layout;
  const layers: Element[] = [];
  if (painted && t1 > t0) {
    // The cells as the screen places them (placeAnswer's stretch), clipped to the plot.
    const W = plot[1] - plot[0];
    const H = cpus * strip;
    const canvas = doc.createElement('canvas');
    canvas.width = Math.max(1, Math.round(W * scale));
    canvas.height = Math.max(1, Math.round(H * scale));
    const ctx = canvas.getContext('2d');
    if (ctx) {
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
      img.setAttribute('x', String(plot[0]));
      img.setAttribute('y', String(REMOTE_AXIS));
      img.setAttribute('width', String(W));
      img.setAttribute('height', String(H));
      img.setAttribute('preserveAspectRatio', 'none');
      img.setAttribute('href', canvas.toDataURL('image/png'));
      layers.push(img);
    }
  }
  const g = doc.createElementNS(SVG_NS, 'g');
  const originals = Array.from(top.children);
  const copies = originals.map((c) => g.appendChild(c.cloneNode(true)) as Element);
  const styleOf = (e: Element) => getComputedStyle(e);
  originals.forEach((c, i) => inlineStyles(c, copies[i], styleOf));
  layers.push(g);

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
    body: { height, layers },
    colors: diagramColors(box, color),
  });
  return {
    svg: serializeDiagram(svg),
    width,
    height: Number(svg.getAttribute('height')),
    marks: 'raster',
  };
}
