// The tlb_gen charts under a remote run's timeline (the worker's answer, model/
// windowGenerations.ts), drawn as the local timeline's generation tracks (marks/steps.ts) are:
// per mm a title, a step line of its tlb_gen and one row per CPU that loads it, nothing while
// the mm is not loaded there, a thin line while it is up to date, a band while it is behind
// (darker the further). The bands are painted once per answer into an image of one pixel per
// column and stretched onto the window per frame, like the cells (viz/remote.ts); the line
// and labels are SVG.
import { scaleLinear, select } from 'd3';
import type { WindowGenerations } from '../model/windowGenerations';
import { set, setText } from './dom';
import { GEN_GAP, GEN_LINE, GEN_TITLE, genTitle, LAG_ROW } from './marks/steps';
import type { PaintedAnswer, RemoteLayout } from './remote';

/** Height of a CPU's lag row: the local chart's, thinner when many CPUs load the mm. */
export function lagRow(cpus: number): number {
  return Math.max(1, Math.min(LAG_ROW, Math.floor(300 / Math.max(1, cpus))));
}

export interface GensTrack {
  g: WindowGenerations;
  y: number;
  line: [number, number];
  /** Top of the first lag row, and each row's height. */
  rowsY: number;
  row: number;
}

export function gensLayout(mms: readonly WindowGenerations[]): {
  tracks: GensTrack[];
  height: number;
} {
  const tracks: GensTrack[] = [];
  let y = 0;
  for (const g of mms) {
    y += GEN_GAP;
    const line: [number, number] = [y + GEN_TITLE, y + GEN_TITLE + GEN_LINE];
    const row = lagRow(g.cpus.length);
    tracks.push({ g, y, line, rowsY: line[1] + 2, row });
    y = line[1] + 2 + g.cpus.length * row;
  }
  return { tracks, height: y + (tracks.length ? 4 : 0) };
}

/** Lag levels drawn apart, as marks/steps.ts: 1, 2, 3 or more generations behind. */
const ALPHA = [0, 0.45, 0.7, 1];

/** Paints every track's lag rows (columns × rows, one pixel per column) into `into`. */
export function paintGens(
  mms: readonly WindowGenerations[],
  t0: number,
  t1: number,
  width: number,
  palette: (name: string) => string,
  into: HTMLCanvasElement,
): PaintedAnswer {
  const { tracks, height } = gensLayout(mms);
  const W = Math.max(1, width);
  const H = Math.max(1, height);
  if (into.width !== W || into.height !== H) {
    into.width = W;
    into.height = H;
  }
  // The window the image was painted for (the end-to-end test reads its pixels against it).
  into.setAttribute('data-window', `${t0},${t1}`);
  const ctx = into.getContext('2d');
  if (!ctx) return { t0, t1, image: into };
  ctx.clearRect(0, 0, W, H);
  const current = palette('--k-handler');
  const behind = palette('--k-stall');
  for (const t of tracks) {
    const { g, row } = t;
    for (let r = 0; r < g.cpus.length; r++) {
      const y = t.rowsY + r * row;
      const base = r * W;
      let c = 0;
      while (c < W) {
        const v = g.lag[base + c];
        let e = c + 1;
        while (e < W && g.lag[base + e] === v) e++;
        if (v === 0) {
          ctx.globalAlpha = 1;
          ctx.fillStyle = current;
          const h = row >= 4 ? 1.5 : row;
          ctx.fillRect(c, y + (row - h) / 2, e - c, h);
        } else if (v > 0) {
          ctx.globalAlpha = ALPHA[Math.min(3, v)];
          ctx.fillStyle = behind;
          ctx.fillRect(c, y + (row >= 4 ? 1 : 0), e - c, row >= 4 ? row - 2 : row);
        }
        c = e;
      }
    }
  }
  ctx.globalAlpha = 1;
  return { t0, t1, image: into };
}

/**
 * The SVG part for window [w0, w1]: titles, each mm's tlb_gen line and range, the CPU labels
 * of the lag rows (every few rows when they are thin).
 */
export function renderGensTop(
  svg: SVGSVGElement,
  layout: RemoteLayout,
  [w0, w1]: [number, number],
  mms: readonly WindowGenerations[],
): number {
  const { tracks, height } = gensLayout(mms);
  const { plot, width } = layout;
  set(svg, 'width', String(width));
  set(svg, 'height', String(height));
  set(svg, 'viewBox', `0 0 ${width} ${height}`);
  const x = scaleLinear().domain([w0, w1]).range(plot);
  const clampX = (t: number) => Math.max(plot[0], Math.min(plot[1], x(t)));
  const sel = select(svg)
    .selectAll<SVGGElement, GensTrack>('g.gen-track')
    .data(tracks, (t) => t.g.mm)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'gen-track');
      g.append('rect').attr('class', 'gen-bg');
      g.append('text').attr('class', 'gen-title');
      g.append('text').attr('class', 'gen-range');
      g.append('path').attr('class', 'gen-line');
      g.append('g').attr('class', 'lag-labels');
      return g;
    });
  sel.each((t, k, nodes) => {
    const root = nodes[k];
    const q = <E extends Element>(s: string) => root.querySelector(s) as E;
    set(root, 'data-mm', String(t.g.mm));
    const bg = q<SVGRectElement>('rect.gen-bg');
    set(bg, 'x', '0');
    set(bg, 'y', String(t.line[0]));
    set(bg, 'width', String(width));
    set(bg, 'height', String(t.rowsY + t.g.cpus.length * t.row - t.line[0]));
    const title = q<SVGTextElement>('text.gen-title');
    set(title, 'x', '8');
    set(title, 'y', String(t.y + 10));
    setText(title, genTitle(t.g.mm, width));
    const { time, value } = t.g;
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of value) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    const [yTop, yBot] = [t.line[0] + 5, t.line[1] - 4];
    const y = (v: number) =>
      hi === lo ? (yTop + yBot) / 2 : yBot - ((v - lo) / (hi - lo)) * (yBot - yTop);
    const d: string[] = [`M${plot[0]},${y(value[0])}`];
    for (let j = 1; j < time.length; j++) {
      d.push(`H${clampX(time[j])}`, `V${y(value[j])}`);
    }
    d.push(`H${plot[1]}`);
    set(q<SVGPathElement>('path.gen-line'), 'd', d.join(''));
    const range = q<SVGTextElement>('text.gen-range');
    set(range, 'x', '8');
    set(range, 'y', String((t.line[0] + t.line[1]) / 2 + 4));
    setText(range, lo === hi ? `tlb_gen ${lo}` : `tlb_gen ${lo}–${hi}`);
    const every = Math.max(1, Math.ceil(10 / t.row));
    const shown = Array.from(t.g.cpus).filter((_, r) => r % every === 0);
    select(q<SVGGElement>('g.lag-labels'))
      .selectAll<SVGTextElement, number>('text')
      .data(shown)
      .join('text')
      .each(function (cpu, k) {
        set(this, 'x', String(plot[0] - 6));
        set(this, 'y', String(t.rowsY + k * every * t.row + Math.min(t.row, 10) - 1));
        setText(this, `CPU ${cpu}`);
      });
  });
  return height;
}
