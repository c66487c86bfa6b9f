// Draws the timeline of a run that stays in its worker (Trace.remote): one strip per CPU, each
// pixel column coloured from the worker's per-pixel aggregates (model/traceWindow.ts
// LaneBuckets) and, once a window holds few enough rows, those rows as SVG marks the reader can
// click. The aggregates of the last answer are redrawn for the current window at once (stretched
// or shifted), so a zoom or pan step costs one pass over the plot's pixels, whatever the run's
// size, while the worker computes the next answer.
import { axisTop, scaleLinear, select, type Selection } from 'd3';
import { NO_KIND, toDrawn, type LaneBuckets } from '../model/traceWindow';
import { kindName, type Columns } from '../trace/trace';
import { kindVar } from './columns';
import { set, setText } from './dom';
import { layer } from './layer';
import { PRIORITY } from './overview';
import { formatNs } from './scales';

export const REMOTE_AXIS = 26;
export const REMOTE_LABELS = 64;
const RIGHT = 8;

/** Height of one CPU's strip: the picture stays within ~600 px (1 px strips at 512 CPUs). */
export function remoteStrip(cpus: number): number {
  return Math.max(1, Math.min(18, Math.floor(600 / Math.max(1, cpus))));
}

export interface RemoteLayout {
  cpus: number;
  strip: number;
  width: number;
  height: number;
  /** Plot area, in x from the element's left. */
  plot: [number, number];
}

export function remoteLayout(cpus: number, width: number): RemoteLayout {
  const strip = remoteStrip(cpus);
  return {
    cpus,
    strip,
    width,
    height: REMOTE_AXIS + cpus * strip,
    plot: [REMOTE_LABELS, Math.max(REMOTE_LABELS + 1, width - RIGHT)],
  };
}

/** One answer painted at one pixel per bucket, to be stretched onto the plot per frame. */
export interface PaintedAnswer {
  t0: number;
  t1: number;
  image: HTMLCanvasElement;
}

/** Parses a CSS colour to [r, g, b] through a canvas (which normalises any CSS syntax). */
function rgbOf(ctx: CanvasRenderingContext2D, css: string): [number, number, number] {
  ctx.fillStyle = '#000';
  ctx.fillStyle = css;
  const s = String(ctx.fillStyle);
  if (s.startsWith('#')) {
    const n = parseInt(s.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  const m = s.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0];
  return [m[0], m[1], m[2]];
}

const images = new WeakMap<HTMLCanvasElement, ImageData>();

/** A cell's alpha by its shade (0-255), in the pixel's top byte: busier is more opaque. */
const ALPHA = Uint32Array.from({ length: 256 }, (_, s) => Math.round(115 + 0.55 * s) << 24);

/**
 * Paints the aggregates `b` into an image of b.buckets × (CPUs × strip) pixels: each cell in
 * the kind it is drawn in (b.drawn, else computed here), more opaque the more rows touch it.
 * Done once per answer; frames only stretch the image (placeAnswer).
 */
export function paintAnswer(
  b: LaneBuckets,
  strip: number,
  palette: (name: string) => string,
  into?: HTMLCanvasElement,
): PaintedAnswer {
  const image = into ?? document.createElement('canvas');
  const W = Math.max(1, b.buckets);
  const H = Math.max(1, b.cpus * strip);
  if (image.width !== W || image.height !== H) {
    image.width = W;
    image.height = H;
  }
  const ctx = image.getContext('2d');
  if (!ctx) return { t0: b.t0, t1: b.t1, image };
  const { drawn, shade } = b.drawn && b.shade ? b : toDrawn(b, PRIORITY);
  const d = drawn as Uint8Array;
  const sh = shade as Uint8Array;
  let data = images.get(image);
  if (!data || data.width !== W || data.height !== H)
    images.set(image, (data = ctx.createImageData(W, H)));
  const px = new Uint32Array(data.data.buffer);
  px.fill(0);
  // Per cell two table reads: each kind's colour (little-endian ABGR, alpha 0, found the
  // first time the kind is met) and each shade's alpha. The profile of a 512-CPU pan had this
  // loop first, when it parsed a colour out of a Map and rounded the alpha per cell.
  const colour = new Int32Array(256).fill(-1);
  const rows = strip > 3 ? strip - 1 : strip;
  for (let cpu = 0; cpu < b.cpus; cpu++) {
    const base = cpu * b.buckets;
    const line = cpu * strip * W;
    for (let x = 0; x < b.buckets; x++) {
      const k = d[base + x];
      if (k === NO_KIND) continue;
      let col = colour[k];
      if (col < 0) {
        const [r, g, bl] = rgbOf(ctx, palette(kindVar(k)));
        col = colour[k] = (bl << 16) | (g << 8) | r;
      }
      const v = (ALPHA[sh[base + x]] | col) >>> 0;
      let o = line + x;
      for (let y = 0; y < rows; y++, o += W) px[o] = v;
    }
  }
  ctx.putImageData(data, 0, 0);
  return { t0: b.t0, t1: b.t1, image };
}

/**
 * Places the painted answer (a canvas inside a clipping box over the plot) for the window
 * [t0, t1]: a CSS transform that stretches and shifts it, so a frame costs the page no pixel
 * work at all (the compositor scales the canvas).
 */
export function placeAnswer(
  canvas: HTMLCanvasElement,
  clip: HTMLElement,
  layout: RemoteLayout,
  [t0, t1]: [number, number],
  painted: PaintedAnswer | null,
  /** The image's height on screen (the strips'; the tlb_gen charts' is their own). */
  height = layout.cpus * layout.strip,
): void {
  const W = Math.max(1, Math.round(layout.plot[1] - layout.plot[0]));
  const H = Math.max(1, height);
  const box = clip.style;
  const left = `${layout.plot[0]}px`;
  if (box.left !== left) box.left = left;
  if (box.width !== `${W}px`) box.width = `${W}px`;
  if (box.height !== `${H}px`) box.height = `${H}px`;
  const style = canvas.style;
  if (style.width !== `${W}px`) style.width = `${W}px`;
  if (style.height !== `${H}px`) style.height = `${H}px`;
  const shown = painted && t1 > t0;
  if (style.visibility !== (shown ? 'visible' : 'hidden'))
    style.visibility = shown ? 'visible' : 'hidden';
  if (!shown) return;
  const k = W / (t1 - t0);
  const x = (painted.t0 - t0) * k;
  const sx = ((painted.t1 - painted.t0) * k) / W;
  style.transform = `translateX(${x.toFixed(2)}px) scaleX(${sx.toPrecision(6)})`;
}

export interface RemoteRows {
  rows: Int32Array;
  columns: Columns;
}

const labelled = new WeakMap<SVGSVGElement, RemoteLayout>();

function renderLabels(
  top: Selection<SVGSVGElement, unknown, null, undefined>,
  { plot, strip, cpus }: RemoteLayout,
): void {
  // One group per CPU lane (its strip), labelled every few CPUs so labels never overlap.
  const every = Math.max(1, Math.ceil(12 / strip));
  const lanes = layer(top, 'lanes')
    .selectAll<SVGGElement, number>('g.lane')
    .data(
      Array.from({ length: cpus }, (_, c) => c),
      (d) => d,
    )
    .join('g')
    .attr('class', 'lane')
    .attr('data-cpu', (c) => c);
  lanes
    .selectAll<SVGTextElement, number>('text.cpu-label')
    .data((c) => (c % every === 0 ? [c] : []))
    .join('text')
    .attr('class', 'cpu-label')
    .attr('x', plot[0] - 6)
    .attr('y', (c) => REMOTE_AXIS + c * strip + Math.min(strip, 12) - 2)
    .attr('text-anchor', 'end')
    .text((c) => `CPU ${c}`);
}

/**
 * The top SVG: the time axis, CPU labels, the window's rows as marks (keyed by row, with
 * data-row for selection), the cursor and the selected row's outline.
 */
export function renderRemoteTop(
  svg: SVGSVGElement,
  layout: RemoteLayout,
  [t0, t1]: [number, number],
  rows: RemoteRows | null,
  cursor: number | null,
  selected: number | null,
): number {
  const { width, height, plot, strip } = layout;
  const top = select(svg);
  set(svg, 'width', String(width));
  set(svg, 'height', String(height));
  set(svg, 'viewBox', `0 0 ${width} ${height}`);
  const x = scaleLinear().domain([t0, t1]).range(plot);
  const axis = layer(top, 'axis').attr('transform', `translate(0,${REMOTE_AXIS - 2})`);
  axis.call(
    axisTop(x)
      .ticks(Math.max(2, Math.floor((plot[1] - plot[0]) / 110)))
      .tickFormat((d) => formatNs(Number(d))),
  );
  // A label every few CPUs, so labels never overlap (rewritten only when the layout changes:
  // each frame brings a new layout object, so it is compared by value; at 512 CPUs the join
  // over every lane was a third of a pan step's script).
  const was = labelled.get(svg);
  if (
    !was ||
    was.cpus !== layout.cpus ||
    was.strip !== layout.strip ||
    was.plot[0] !== layout.plot[0]
  ) {
    labelled.set(svg, layout);
    renderLabels(top, layout);
  }

  const n = rows?.rows.length ?? 0;
  const idx = Array.from({ length: n }, (_, j) => j);
  const cols = rows?.columns;
  const h = strip > 3 ? strip - 1 : strip;
  layer(top, 'spans')
    .selectAll<SVGRectElement, number>('rect.mark')
    .data(idx, (j) => (rows ? rows.rows[j] : j))
    .join((enter) =>
      enter
        .append('rect')
        .attr('class', 'mark span')
        .call((r) => r.append('title')),
    )
    .each(function (j) {
      if (!rows || !cols) return;
      const row = rows.rows[j];
      const s = Math.max(plot[0], x(cols.time[j]));
      const e = Math.min(plot[1], x(cols.time[j] + cols.dur[j]));
      const kind = kindName(cols.kind[j]);
      set(this, 'x', String(s));
      set(this, 'width', String(Math.max(1, e - s)));
      set(this, 'y', String(REMOTE_AXIS + cols.cpu[j] * strip));
      set(this, 'height', String(h));
      set(this, 'data-row', String(row));
      set(this, 'data-cpu', String(cols.cpu[j]));
      set(this, 'data-kind', kind);
      set(this, 'fill', `var(${kindVar(cols.kind[j])})`);
      if (this.classList.contains('selected') !== (row === selected))
        this.classList.toggle('selected', row === selected);
      const title = this.firstChild as SVGTitleElement;
      const text = `${kind} on CPU ${cols.cpu[j]} at ${formatNs(cols.time[j])}${cols.dur[j] > 0 ? ` for ${formatNs(cols.dur[j])}` : ''}`;
      setText(title, text);
    });

  const cx = cursor !== null && cursor >= t0 && cursor <= t1 ? [x(cursor)] : [];
  top
    .selectAll<SVGLineElement, number>('line.remote-cursor')
    .data(cx)
    .join('line')
    .attr('class', 'remote-cursor')
    .attr('x1', (d) => d)
    .attr('x2', (d) => d)
    .attr('y1', REMOTE_AXIS)
    .attr('y2', height);
  return n;
}
