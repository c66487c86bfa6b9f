// A chart the page drew (an <svg> D3 filled, as in the Data view) as an exported picture:
// copied with the page's styles inlined, under a title and legend, over a provenance caption.
import type { ExportText, ExportedSvg } from './exportTimeline';
import {
  composeDiagram,
  inlineStyles,
  serializeDiagram,
  SVG_NS,
  type LegendSwatch,
} from './exportSvg';
import { toPalette } from './columns';

/** The characters the page's chart legend shows for each series symbol (data.css). */
export const SHAPE_GLYPHS: Record<string, string> = {
  circle: '●',
  square: '■',
  triangle: '▲',
  diamond: '◆',
  wye: 'Y',
};

const MIN_WIDTH = 640;

export function exportChartSvg(
  charts: readonly SVGSVGElement[],
  text: ExportText,
  legend: readonly LegendSwatch[],
): ExportedSvg {
  const first = charts[0];
  if (!first) throw new Error('nothing to export: the chart has no panels');
  const doc = first.ownerDocument;
  // The Data view draws one panel per series, each its own <svg>: stacked here as on the page.
  let y = 0;
  let widest = 0;
  const layers = charts.map((chart) => {
    const w = Number(chart.getAttribute('width')) || chart.getBoundingClientRect().width;
    const h = Number(chart.getAttribute('height')) || chart.getBoundingClientRect().height;
    const g = doc.createElementNS(SVG_NS, 'g');
    g.setAttribute('transform', `translate(16,${y})`);
    for (const child of Array.from(chart.children)) {
      const copy = g.appendChild(child.cloneNode(true)) as Element;
      inlineStyles(child, copy, (e) => getComputedStyle(e));
    }
    y += h;
    widest = Math.max(widest, w);
    return g;
  });
  const width = Math.max(MIN_WIDTH, Math.ceil(widest) + 32);
  const color = toPalette(first);
  const svg = composeDiagram(doc, {
    ...text,
    legend,
    width,
    body: { height: y, layers },
    colors: { background: color('--panel'), text: color('--fg'), muted: color('--muted') },
  });
  return {
    svg: serializeDiagram(svg),
    width,
    height: Number(svg.getAttribute('height')),
    marks: 'vector',
  };
}
