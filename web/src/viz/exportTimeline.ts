// The timeline as an exported picture: drawn afresh, whole (every lane, not just the slice on
// screen), into elements of its own beside the live timeline (so the page's style sheets and
// theme apply to it), then copied out with those styles inlined. Marks stay vector while the
// view draws them as SVG; dense canvas lanes go in as an embedded raster image at `scale`.
import { drawnKinds, kindsIn, legendOfFigure, type LegendEntry } from '../model/legend';
import type { StepMark } from '../model/check';
import { BANDS, bandOf } from '../model/markShape';
import type { TimelineModel } from '../model/timelineModel';
import { EventKind } from '../trace/trace';
import { kindVar, toPalette } from './columns';
import {
  composeDiagram,
  inlineStyles,
  serializeDiagram,
  SVG_NS,
  type LegendSwatch,
} from './exportSvg';
import { addPngText } from './pngText';
import { describeStats, renderTimeline, type TimelineState } from './timeline';

export interface ExportText {
  title: string;
  subtitle?: string;
  caption: string;
  link: string;
}

export interface ExportedSvg {
  svg: string;
  width: number;
  height: number;
  /** What the dense lanes became: vector marks, or a raster image of the canvas. */
  marks: 'vector' | 'raster';
}

type Drawn = Omit<TimelineState, 'view' | 'dpr' | 'previousMode' | 'onToggleGroup'>;

export function exportTimelineSvg(
  host: HTMLElement,
  model: TimelineModel,
  state: Drawn,
  text: ExportText,
  scale = 2,
): ExportedSvg {
  const doc = host.ownerDocument;
  // Off screen but laid out and styled like the real one (zoom reset: talk mode's is for
  // the screen, not the file).
  const box = doc.createElement('div');
  box.className = 'timeline timeline-export';
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText = `position:fixed;left:-100000px;top:0;width:${state.width}px;visibility:hidden;zoom:1;pointer-events:none`;
  const plot = box.appendChild(doc.createElement('div'));
  plot.className = 'timeline-plot';
  const base = plot.appendChild(doc.createElementNS(SVG_NS, 'svg')) as SVGSVGElement;
  base.setAttribute('class', 'timeline-base');
  const canvas = plot.appendChild(doc.createElement('canvas'));
  canvas.className = 'timeline-canvas';
  const top = plot.appendChild(doc.createElementNS(SVG_NS, 'svg')) as SVGSVGElement;
  top.setAttribute('class', 'timeline-top');
  host.appendChild(box);
  try {
    const stats = renderTimeline({ base, top, canvas }, model, {
      ...state,
      view: [0, Number.MAX_SAFE_INTEGER],
      dpr: scale,
    });
    const { width, height } = stats.scales;
    const styleOf = (e: Element) => getComputedStyle(e);
    const layer = (svg: SVGSVGElement) => {
      const g = doc.createElementNS(SVG_NS, 'g');
      const originals = Array.from(svg.children);
      const copies = originals.map((c) => g.appendChild(c.cloneNode(true)) as Element);
      // Styles are read from the originals, in place; the copies take them.
      originals.forEach((c, i) => inlineStyles(c, copies[i], styleOf));
      return g;
    };
    const layers: Element[] = [layer(base)];
    const raster = stats.canvasRects > 0 || stats.arrowMode === 'canvas';
    if (raster) {
      const img = doc.createElementNS(SVG_NS, 'image');
      img.setAttribute('x', '0');
      img.setAttribute('y', '0');
      img.setAttribute('width', String(width));
      img.setAttribute('height', String(height));
      img.setAttribute('preserveAspectRatio', 'none');
      img.setAttribute('href', canvas.toDataURL('image/png'));
      layers.push(img);
    }
    layers.push(layer(top));

    const color = toPalette(box);
    // What the drawing leaves out at this zoom belongs with it, as it does on the page.
    const note = describeStats(stats);
    const svg = composeDiagram(doc, {
      ...text,
      caption: note ? `${text.caption} Drawn as: ${note}.` : text.caption,
      legend: legendOf(model, state.steps ?? [], kindsIn(model.trace, state.magnify), color),
      width,
      body: { height, layers },
      colors: diagramColors(box, color),
    });
    const out = serializeDiagram(svg);
    const h = Number(svg.getAttribute('height'));
    return { svg: out, width, height: h, marks: raster ? 'raster' : 'vector' };
  } finally {
    box.remove();
  }
}

function legendOf(
  model: TimelineModel,
  steps: readonly StepMark[],
  magnified: ReadonlySet<number>,
  color: (name: string) => string,
): LegendSwatch[] {
  // The same entries as the page's legend of this one timeline, its step badges included.
  return swatchesOf(legendOfFigure([drawnKinds(model.trace)], steps, magnified), color);
}

/** A timeline diagram's colours: its panel's background and the page's text colours. */
export function diagramColors(box: Element, color: (name: string) => string) {
  return {
    background: getComputedStyle(box).backgroundColor || '#ffffff',
    text: color('--fg'),
    muted: color('--muted'),
  };
}

/** The legend's entries as the exported diagram's swatches, in the page's colours. */
export function swatchesOf(
  entries: readonly LegendEntry[],
  color: (name: string) => string,
): LegendSwatch[] {
  return entries.map((e): LegendSwatch => {
    switch (e.mark) {
      case 'span':
        return {
          label: e.label,
          swatch: 'rect',
          color: color(kindVar(e.kind)),
          opacity: e.kind === EventKind.IpiWait ? 0.75 : 1,
          band: BANDS[bandOf(e.kind)],
        };
      case 'ipi':
        return { label: e.label, swatch: 'line', color: color('--arrow-ipi') };
      case 'ack':
        return { label: e.label, swatch: 'line', color: color('--arrow-ack'), dash: '3 2' };
      case 'unpaired':
        return { label: e.label, swatch: 'line', color: color('--arrow-unpaired'), dash: '1 2' };
      case 'violation':
        return { label: e.label, swatch: 'glyph', glyph: '✕', color: color('--k-irqs') };
      case 'step':
        return {
          label: e.label,
          swatch: 'glyph',
          glyph: e.step === 'plain' ? '○' : '●',
          color: color(
            e.step === 'racing' ? '--k-flush' : e.step === 'violation' ? '--k-irqs' : '--fg',
          ),
        };
    }
  });
}

/** The PNG text keyword under which an exported PNG carries its state link (viz/pngText.ts). */
export const PNG_LINK_KEY = 'tlbscope-state';

/** The exported SVG drawn at `scale` times its size, as a PNG carrying `link` in a tEXt chunk. */
export async function svgToPng(exported: ExportedSvg, link: string, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([exported.svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(exported.width * scale);
    canvas.height = Math.round(exported.height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas to draw the PNG on');
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const png = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (b) => (b ? resolve(b) : reject(new Error('the PNG could not be encoded'))),
        'image/png',
      ),
    );
    const bytes = addPngText(new Uint8Array(await png.arrayBuffer()), PNG_LINK_KEY, link);
    return new Blob([bytes as BlobPart], { type: 'image/png' });
  } finally {
    URL.revokeObjectURL(url);
  }
}
