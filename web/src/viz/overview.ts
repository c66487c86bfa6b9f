// The run's first picture, drawn from the worker's lane aggregates (model/traceWindow.ts)
// while the timeline's model is still being built: one strip per CPU, one cell per time
// bucket, coloured by the kind the cell is drawn in and shaded by how many rows touch it.
import { cellKind, type LaneBuckets } from '../model/traceWindow';
import { EventKind } from '../trace/trace';
import { colouredKinds, kindVar } from './columns';

// A shootdown's own spans win a cell over the task runs and lazy spells around them.
const BACKGROUND = new Set<number>([EventKind.TaskRun, EventKind.Lazy, EventKind.SwitchMm]);
export const PRIORITY = [
  ...colouredKinds().filter((k) => !BACKGROUND.has(k)),
  ...colouredKinds().filter((k) => BACKGROUND.has(k)),
];

/** Height of one CPU's strip, in CSS pixels: the whole picture stays within ~480 px. */
export function stripHeight(cpus: number): number {
  return Math.max(1, Math.min(16, Math.floor(480 / Math.max(1, cpus))));
}

/** Draws `b` into `canvas` at `width` CSS pixels; returns the cells drawn. */
export function renderOverview(
  canvas: HTMLCanvasElement,
  b: LaneBuckets,
  palette: (name: string) => string,
  width: number,
): number {
  const h = stripHeight(b.cpus);
  const dpr = typeof devicePixelRatio === 'number' ? devicePixelRatio : 1;
  canvas.width = Math.max(1, Math.round(width * dpr));
  canvas.height = Math.max(1, Math.round(b.cpus * h * dpr));
  canvas.style.width = `${width}px`;
  canvas.style.height = `${b.cpus * h}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx) return 0;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, b.cpus * h);
  let max = 1;
  for (let c = 0; c < b.count.length; c++) if (b.count[c] > max) max = b.count[c];
  const bw = width / Math.max(1, b.buckets);
  let drawn = 0;
  for (let cpu = 0; cpu < b.cpus; cpu++) {
    for (let k = 0; k < b.buckets; k++) {
      const c = cpu * b.buckets + k;
      if (!b.count[c]) continue;
      ctx.globalAlpha = 0.35 + 0.65 * Math.sqrt(b.count[c] / max);
      ctx.fillStyle = palette(kindVar(cellKind(b, c, PRIORITY)));
      ctx.fillRect(k * bw, cpu * h, Math.max(bw, 0.5), h);
      drawn++;
    }
  }
  ctx.globalAlpha = 1;
  return drawn;
}
