// Aggregate mark (canvas): per-pixel runs from the level-of-detail model, and rows drawn as
// plain rects when a sub-track is sparse but the whole view is too busy for SVG.
//
// Every sub-track is one row of pixels: its runs are written into an image strip (one pixel
// row per sub-track, one column per device pixel of the plot), and each strip row is
// stretched to its track's height with one drawImage. Filling ~13,000 rects as paths made
// the software rasteriser scan-convert every edge (6-10 ms a zoomed-out frame, paid when the
// canvas is flushed); the strip costs its pixels, ~1 ms for the same frame.
import type { Bins } from '../../model/lod';
import { kindVar, type Columns } from '../columns';
import type { Scales } from '../scales';

/** A sub-track's worth of canvas marks, already decided by the level-of-detail model. */
export type CanvasItem =
  { y: number; h: number; bins: Bins } | { y: number; h: number; rows: Int32Array };

const LEVELS = 6;

/** Opacity of a run covering `coverage` of its pixels (a floor keeps lone events visible). */
export function runAlpha(coverage: number, dim: boolean): number {
  const level = Math.max(1, Math.round(coverage * LEVELS));
  return (0.2 + (0.8 * level) / LEVELS) * (dim ? 0.35 : 1);
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** An RGBA colour packed as ImageData's bytes read through a Uint32Array. */
export function packRgba(r: number, g: number, b: number, a: number): number {
  const A = Math.round(Math.min(1, Math.max(0, a)) * 255);
  return littleEndian
    ? ((A << 24) | (b << 16) | (g << 8) | r) >>> 0
    : ((r << 24) | (g << 16) | (b << 8) | A) >>> 0;
}

export interface Strips {
  /** Device pixels per strip row (the plot's width). */
  width: number;
  rows: number;
  /** Row r starts at pixels[r * stride] (stride ≥ width: the strips may share a wider image). */
  stride: number;
  pixels: Uint32Array;
}

/**
 * The image strip of `items`: row r holds item r's runs, in device pixels from the plot's
 * left edge, coloured by kind with opacity by coverage. Pure, so the pixels can be tested.
 */
export function toStrips(
  items: readonly CanvasItem[],
  scales: Scales,
  { trace, pos }: Columns,
  rgb: (kind: number) => readonly [number, number, number],
  dim: boolean,
  dpr: number,
  into?: { pixels: Uint32Array; stride: number },
): Strips {
  const [left, right] = scales.plot;
  const width = stripWidth(scales, dpr);
  const fits = into && into.stride >= width && into.pixels.length >= into.stride * items.length;
  const stride = fits ? into.stride : width;
  const size = stride * items.length;
  const pixels = fits ? into.pixels : new Uint32Array(size);
  pixels.fill(0, 0, size);
  const colours = new Map<number, number>();
  const colourOf = (kind: number, alpha: number) => {
    const key = kind * 1024 + Math.round(alpha * 1000);
    let c = colours.get(key);
    if (c === undefined) colours.set(key, (c = packRgba(...rgb(kind), alpha)));
    return c;
  };
  const { x } = scales;
  items.forEach((item, r) => {
    const base = r * stride;
    const run = (x0: number, x1: number, colour: number) => {
      const a = Math.max(0, Math.min(width, Math.floor(x0 * dpr)));
      // At least one CSS pixel wide, so a lone short event stays visible.
      const b = Math.max(0, Math.min(width, Math.max(Math.round(x1 * dpr), a + Math.round(dpr))));
      if (b > a) pixels.fill(colour, base + a, base + b);
    };
    if ('bins' in item) {
      const { bins } = item;
      for (let j = 0; j < bins.n; j++)
        run(bins.x0[j], bins.x1[j], colourOf(bins.kind[j], runAlpha(bins.coverage[j], dim)));
    } else {
      const full = runAlpha(1, dim);
      for (const i of item.rows) {
        const x0 = Math.max(0, x(pos.rowStart(i)) - left);
        const x1 = Math.min(right - left, x(pos.rowEnd(i)) - left);
        run(x0, x1, colourOf(trace.kind[i], full));
      }
    }
  });
  return { width, rows: items.length, stride, pixels };
}

function stripWidth(scales: Scales, dpr: number): number {
  return Math.max(1, Math.round((scales.plot[1] - scales.plot[0]) * dpr));
}

interface Scratch {
  canvas: HTMLCanvasElement;
  ctx: CanvasRenderingContext2D;
  img: ImageData;
  pixels: Uint32Array;
}
// One scratch canvas for the strips, grown as needed: the strips are rebuilt every frame.
let scratch: Scratch | null = null;
function scratchFor(width: number, rows: number): Scratch | null {
  if (!scratch || scratch.img.width < width || scratch.img.height < rows) {
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(width, scratch?.img.width ?? 0);
    canvas.height = Math.max(rows, scratch?.img.height ?? 0, 64);
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    const img = ctx.createImageData(canvas.width, canvas.height);
    scratch = { canvas, ctx, img, pixels: new Uint32Array(img.data.buffer) };
  }
  return scratch;
}

/** "#rrggbb" or "rgb(r, g, b)" (what a canvas reports for an opaque fillStyle) as bytes. */
export function parseRgb(css: string): [number, number, number] {
  const hex = /^#([0-9a-f]{6})$/i.exec(css);
  if (hex) {
    const v = parseInt(hex[1], 16);
    return [v >> 16, (v >> 8) & 255, v & 255];
  }
  const m = /rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)/i.exec(css);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [136, 136, 136];
}

export function renderAggregates(
  ctx: CanvasRenderingContext2D,
  items: readonly CanvasItem[],
  scales: Scales,
  columns: Columns,
  color: (name: string) => string,
  dim: boolean,
  dpr = 1,
): void {
  // The canvas normalises any CSS colour (named, hsl, var-resolved) to hex or rgb().
  const rgbCache = new Map<number, [number, number, number]>();
  const rgb = (kind: number) => {
    let c = rgbCache.get(kind);
    if (!c) {
      ctx.fillStyle = color(kindVar(kind));
      rgbCache.set(kind, (c = parseRgb(String(ctx.fillStyle))));
    }
    return c;
  };
  const s = scratchFor(stripWidth(scales, dpr), items.length);
  if (!s) return;
  const strips = toStrips(items, scales, columns, rgb, dim, dpr, {
    pixels: s.pixels,
    stride: s.img.width,
  });
  s.ctx.putImageData(s.img, 0, 0, 0, 0, strips.width, strips.rows);
  const [left, right] = scales.plot;
  ctx.save();
  ctx.imageSmoothingEnabled = false;
  items.forEach((item, r) => {
    ctx.drawImage(s.canvas, 0, r, strips.width, 1, left, item.y, right - left, item.h);
  });
  ctx.restore();
}
