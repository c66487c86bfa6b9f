// Mouse, trackpad and touch zoom/pan of the time axis. Reports the visible window; the caller
// re-renders. Kept apart from rendering so a static export can skip it.
import { select, zoom, zoomIdentity, type ZoomBehavior } from 'd3';
import { scaleLinear } from 'd3';
import { LANE_LABEL_WIDTH } from './scales';

export function attachZoom(
  svgEl: SVGSVGElement,
  extent: [number, number],
  width: number,
  onWindow: (w: [number, number]) => void,
): () => void {
  const base = scaleLinear()
    .domain(extent)
    .range([LANE_LABEL_WIDTH, width - 16]);
  const span = Math.max(1, extent[1] - extent[0]);
  const behavior: ZoomBehavior<SVGSVGElement, unknown> = zoom<SVGSVGElement, unknown>()
    // Zoom in down to ~1 ns per 10 px at most.
    .scaleExtent([1, Math.max(1, span / 10)])
    .translateExtent([
      [LANE_LABEL_WIDTH, 0],
      [width - 16, 0],
    ])
    .extent([
      [LANE_LABEL_WIDTH, 0],
      [width - 16, 0],
    ])
    .on('zoom', (e: { transform: { rescaleX: (s: typeof base) => typeof base } }) => {
      const [a, b] = e.transform.rescaleX(base).domain();
      onWindow([a, b]);
    });
  const svg = select(svgEl);
  svg.call(behavior).call(behavior.transform, zoomIdentity);
  return () => {
    svg.on('.zoom', null);
  };
}
