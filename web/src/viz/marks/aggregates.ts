// Aggregate mark (canvas): per-pixel runs from the level-of-detail model, and rows drawn as
// plain rects when a sub-track is sparse but the whole view is too busy for SVG. Rects are
// batched by colour and opacity, one path fill per batch, so cost follows pixels drawn.
import type { Bins } from '../../model/lod';
import { kindVar, type Columns } from '../columns';
import type { Scales } from '../scales';

/** A sub-track's worth of canvas marks, already decided by the level-of-detail model. */
export type CanvasItem =
  { y: number; h: number; bins: Bins } | { y: number; h: number; rows: Int32Array };

const LEVELS = 6;

export function renderAggregates(
  ctx: CanvasRenderingContext2D,
  items: readonly CanvasItem[],
  scales: Scales,
  { trace, pos }: Columns,
  color: (name: string) => string,
  dim: boolean,
): void {
  const batches = new Map<number, number[]>();
  const push = (kind: number, level: number, x: number, y: number, w: number, h: number) => {
    const key = kind * 8 + level;
    let b = batches.get(key);
    if (!b) batches.set(key, (b = []));
    b.push(x, y, w, h);
  };
  const [left, right] = scales.plot;
  const { x } = scales;
  for (const item of items) {
    if ('bins' in item) {
      const { bins } = item;
      // Adjacent bins that end up the same colour and opacity are one rect: each rect costs
      // the canvas about the same whatever its width, and zoomed out there are ~70,000.
      let run: number[] | null = null;
      let runKey = -1;
      for (let j = 0; j < bins.n; j++) {
        // Opacity shows how much of each pixel is covered; a floor keeps lone events visible.
        const level = Math.max(1, Math.round(bins.coverage[j] * LEVELS));
        const key = bins.kind[j] * 8 + level;
        const x0 = left + bins.x0[j];
        const w = bins.x1[j] - bins.x0[j];
        if (run && key === runKey && run[run.length - 4] + run[run.length - 2] === x0) {
          run[run.length - 2] += w;
          continue;
        }
        push(bins.kind[j], level, x0, item.y, w, item.h);
        run = batches.get(key) ?? null;
        runKey = key;
      }
    } else {
      for (const i of item.rows) {
        const x0 = Math.max(left - 1, x(pos.rowStart(i)));
        const x1 = Math.min(right + 1, x(pos.rowEnd(i)));
        push(trace.kind[i], LEVELS, x0, item.y, Math.max(1, x1 - x0), item.h);
      }
    }
  }
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, 0, right - left, scales.height);
  ctx.clip();
  for (const [key, rects] of batches) {
    const kind = key >> 3;
    const level = key & 7;
    ctx.fillStyle = color(kindVar(kind));
    ctx.globalAlpha = (0.2 + (0.8 * level) / LEVELS) * (dim ? 0.35 : 1);
    ctx.beginPath();
    for (let r = 0; r < rects.length; r += 4)
      ctx.rect(rects[r], rects[r + 1], rects[r + 2], rects[r + 3]);
    ctx.fill();
  }
  ctx.restore();
}
