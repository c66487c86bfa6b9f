// Generation tracks (SVG), one per mm under the CPU lanes: a step line of the mm's tlb_gen,
// and under it one compact row per CPU lane (or merged lane of a collapsed group) showing how
// far that CPU's TLB slot lags behind: nothing while the mm is not loaded there, a thin line
// while it is up to date, a band while it is behind (darker and labelled the further behind).
// Cost: a binary search per series, then O(steps in the window + pixels) per row; the bands
// are rasterised to pixel columns (the worst lag in each column wins, so a lag shorter than a
// pixel still shows) and drawn as one path per lag level, so the DOM stays a few elements.
import type { Selection } from 'd3';
import {
  lastRowAt,
  rasteriseLagRow,
  stepAt,
  type LagIndex,
  type MmGenerations,
} from '../../model/generations';
import type { LaneLayout } from '../../model/layout';
import type { PosMap } from '../../model/spacing';
import { set, setText } from '../dom';
import type { Scales } from '../scales';

export const GEN_GAP = 14;
export const GEN_TITLE = 14;

/** A tlb_gen chart's title; a chart narrower than 480 px gets the short form (the long one ran
 * off a 390 px phone's edge). */
export function genTitle(mm: number, width: number): string {
  return width >= 480
    ? `mm ${mm}: tlb_gen and each CPU's slot (bands: CPU behind)`
    : `mm ${mm}: tlb_gen; bands: CPU behind`;
}
export const GEN_LINE = 30;
export const LAG_ROW = 10;

export interface LagRow {
  label: string;
  y: number;
  slots: LagIndex[];
}

export interface GenTrack {
  mm: MmGenerations;
  y: number;
  /** Top and bottom of the tlb_gen line's area. */
  line: [number, number];
  rows: LagRow[];
  height: number;
}

/** Places one track per mm below `top`: a row per CPU lane (or merged lane) that loads it. */
export function layoutGenerations(
  mms: readonly MmGenerations[],
  lagIndex: readonly (readonly LagIndex[])[],
  layout: LaneLayout,
  top: number,
): { tracks: GenTrack[]; height: number } {
  const tracks: GenTrack[] = [];
  let y = top;
  for (let m = 0; m < mms.length; m++) {
    const mm = mms[m];
    y += GEN_GAP;
    const byCpu = new Map(lagIndex[m].map((s) => [s.cpu, s]));
    const t0 = y;
    const line: [number, number] = [y + GEN_TITLE, y + GEN_TITLE + GEN_LINE];
    y = line[1] + 2;
    const rows: LagRow[] = [];
    for (const r of layout.rows) {
      if (r.type === 'group') continue;
      const [first, last] = r.type === 'cpu' ? [r.cpu, r.cpu] : [r.first, r.last];
      const slots: LagIndex[] = [];
      for (let c = first; c <= last; c++) {
        const s = byCpu.get(c);
        if (s) slots.push(s);
      }
      if (!slots.length) continue;
      const label =
        r.type === 'cpu'
          ? `CPU ${r.cpu}`
          : first === last
            ? `CPU ${first}`
            : `CPUs ${first}–${last} (${slots.length} load it)`;
      rows.push({ label, y, slots });
      y += LAG_ROW;
    }
    tracks.push({ mm, y: t0, line, rows, height: y - t0 });
  }
  return { tracks, height: y - top };
}

/** Lag levels drawn apart: 1, 2, 3 or more generations behind. */
const LEVELS = 3;
const MAX_LABELS = 300;

interface Drawn {
  tracks: number;
  steps: number;
}

export function renderSteps(
  g: Selection<SVGGElement, unknown, null, undefined>,
  tracks: readonly GenTrack[],
  scales: Scales,
  pos: PosMap,
  /** The vertical slice on screen: lag rows outside it are left empty (see TimelineState.view). */
  view: [number, number] = [-Infinity, Infinity],
): Drawn {
  const { x } = scales;
  const [left, right] = scales.plot;
  const [p0, p1] = x.domain();
  const rA = lastRowAt(pos, p0);
  const rB = lastRowAt(pos, p1);
  const W = Math.max(1, Math.ceil(right - left));
  const col = new Int32Array(W);
  let stepsDrawn = 0;

  const sel = g
    .selectAll<SVGGElement, GenTrack>('g.gen-track')
    .data(tracks, (t) => t.mm.mm)
    .join((enter) => {
      const t = enter.append('g').attr('class', 'gen-track');
      t.append('rect').attr('class', 'gen-bg');
      t.append('text').attr('class', 'gen-title');
      t.append('text').attr('class', 'gen-range');
      t.append('path').attr('class', 'gen-line');
      t.append('g').attr('class', 'gen-values');
      t.append('g').attr('class', 'lag-labels');
      t.append('path').attr('class', 'lag-current');
      for (let l = 1; l <= LEVELS; l++) t.append('path').attr('class', `lag lag-${l}`);
      t.append('g').attr('class', 'lag-text');
      return t;
    });

  sel.each((t, k, nodes) => {
    const root = nodes[k];
    set(root, 'data-mm', String(t.mm.mm));
    const q = <E extends Element>(s: string) => root.querySelector(s) as E;
    const bg = q<SVGRectElement>('rect.gen-bg');
    set(bg, 'x', '0');
    set(bg, 'y', String(t.line[0]));
    set(bg, 'width', String(scales.width));
    set(bg, 'height', String(t.y + t.height - t.line[0]));

    // The mm's tlb_gen: a step line over the generations visible in the window.
    const { row, value } = t.mm.tlbGen;
    const jA = Math.max(0, stepAt(row, rA));
    const jB = Math.max(jA, stepAt(row, rB));
    const lo = value[jA];
    const hi = value[jB];
    const [yTop, yBot] = [t.line[0] + 5, t.line[1] - 4];
    const y = (v: number) =>
      hi === lo ? (yTop + yBot) / 2 : yBot - ((v - lo) / (hi - lo)) * (yBot - yTop);
    const d: string[] = [`M${left},${y(lo)}`];
    let lastCol = -1;
    const values: { x: number; y: number; v: number; row: number }[] = [];
    for (let j = jA + 1; j <= jB; j++) {
      const px = x(pos.rowStart(row[j]));
      const c = Math.floor(px);
      // Steps inside one pixel column collapse into one vertical move.
      if (c !== lastCol) d.push(`H${px}`);
      d.push(`V${y(value[j])}`);
      lastCol = c;
      values.push({ x: px, y: y(value[j]), v: value[j], row: row[j] });
    }
    d.push(`H${right}`);
    stepsDrawn += jB - jA;
    set(q<SVGPathElement>('path.gen-line'), 'd', d.join(''));
    const title = q<SVGTextElement>('text.gen-title');
    set(title, 'x', '8');
    set(title, 'y', String(t.y + 10));
    setText(title, genTitle(t.mm.mm, right));
    const range = q<SVGTextElement>('text.gen-range');
    set(range, 'x', '8');
    set(range, 'y', String((t.line[0] + t.line[1]) / 2 + 4));
    setText(range, lo === hi ? `tlb_gen ${lo}` : `tlb_gen ${lo}–${hi}`);
    // Step values, where there is room to read them.
    const labelled: typeof values = [];
    const start = { x: left, y: y(lo), v: lo, row: row[jA] };
    const all = [start, ...values];
    if (all.length <= 80) {
      for (let k = 0; k < all.length; k++) {
        const next = k + 1 < all.length ? all[k + 1].x : right;
        if (next - all[k].x >= 24) labelled.push(all[k]);
      }
    }
    const texts = Array.from(q<SVGGElement>('g.gen-values').children);
    syncTexts(q<SVGGElement>('g.gen-values'), texts, labelled.length);
    labelled.forEach((l, k) => {
      const el = q<SVGGElement>('g.gen-values').children[k] as SVGTextElement;
      set(el, 'x', String(l.x + 3));
      set(el, 'y', String(Math.max(t.line[0] + 9, l.y - 2)));
      setText(el, String(l.v));
    });

    // Lag rows.
    const paths: string[][] = Array.from({ length: LEVELS + 1 }, () => []);
    const labels: { x: number; y: number; text: string }[] = [];
    const rowLabels = q<SVGGElement>('g.lag-labels');
    syncTexts(rowLabels, Array.from(rowLabels.children), t.rows.length);
    t.rows.forEach((r, k) => {
      const el = rowLabels.children[k] as SVGTextElement;
      set(el, 'x', String(scales.plot[0] - 6));
      set(el, 'y', String(r.y + LAG_ROW - 2));
      setText(el, r.label);
      // Rows scrolled away are not rasterised: their bands are rebuilt when they come back.
      if (r.y + LAG_ROW <= view[0] || r.y >= view[1]) return;
      col.fill(-1);
      rasteriseLagRow(r.slots, p0, p1, col);
      let c = 0;
      while (c < W) {
        const v = col[c];
        let e = c + 1;
        while (e < W && col[e] === v) e++;
        if (v === 0) {
          const yy = r.y + LAG_ROW / 2 - 0.75;
          paths[0].push(`M${left + c},${yy}h${e - c}v1.5h${c - e}z`);
        } else if (v > 0) {
          const level = Math.min(LEVELS, v);
          paths[level].push(`M${left + c},${r.y + 1}h${e - c}v${LAG_ROW - 2}h${c - e}z`);
          if (e - c >= 52 && labels.length < MAX_LABELS)
            labels.push({ x: left + c + 3, y: r.y + LAG_ROW - 2, text: `${v} behind` });
        }
        c = e;
      }
    });
    set(q<SVGPathElement>('path.lag-current'), 'd', paths[0].join(''));
    for (let l = 1; l <= LEVELS; l++)
      set(q<SVGPathElement>(`path.lag-${l}`), 'd', paths[l].join(''));
    const lagText = q<SVGGElement>('g.lag-text');
    syncTexts(lagText, Array.from(lagText.children), labels.length);
    labels.forEach((l, k) => {
      const el = lagText.children[k] as SVGTextElement;
      set(el, 'x', String(l.x));
      set(el, 'y', String(l.y));
      setText(el, l.text);
    });
  });
  return { tracks: tracks.length, steps: stepsDrawn };
}

/** Keeps exactly `n` <text> children, reusing the ones there. */
function syncTexts(parent: SVGGElement, have: Element[], n: number): void {
  for (let k = have.length; k < n; k++)
    parent.appendChild(document.createElementNS('http://www.w3.org/2000/svg', 'text'));
  for (let k = have.length - 1; k >= n; k--) have[k].remove();
}
