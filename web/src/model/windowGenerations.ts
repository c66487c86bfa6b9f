// The tlb_gen charts of a run kept in its worker: the page's own generations model
// (generations.ts, built there by GenerationsScan fed a slice at a time, with each step's
// time), and what a window of it needs on the page: each mm's tlb_gen steps (at most two per
// pixel column: within one column the chart draws one vertical move) and, per CPU that loads
// the mm, its lag per pixel column, rasterised by the chart's own rasteriseLag. A CPU's slot
// generation needs the run's history before the window, which is why the worker holds the
// whole model rather than reading the window's rows. Pure.
import { upperBound } from './intervals';
import {
  GenerationsScan,
  lagIndexAt,
  rasteriseLag,
  type GenerationsModel,
  type LagIndex,
  type StepSeries,
} from './generations';
import { forEachSlice, type RowSource } from './rowSource';

/** One mm's chart over a window, as the worker sends it. */
export interface WindowGenerations {
  mm: number;
  /** tlb_gen steps: the one in force at the window's start (at t0), then those inside it. */
  time: Float64Array;
  value: Float64Array;
  /** CPUs with a slot for the mm, ascending. */
  cpus: Uint16Array;
  /** cpus.length rows of `width` columns: −1 not loaded or unknown, 0 current, k behind (≤ 127). */
  lag: Int8Array;
}

export interface GenerationsIndex {
  mms: { mm: number; tlbGen: StepSeries; slots: LagIndex[] }[];
  /** Steps in all series (what the index's memory follows). */
  steps: number;
}

/**
 * The model over a run read from `src`, or null when it would hold more than `maxSteps` steps
 * (a CPU's series grows with every increment of the mm it has loaded: 512 CPUs on one mm make
 * it large), so the worker's memory stays bounded.
 */
export function generationsOfSource(
  src: RowSource,
  cpus: number,
  maxSteps: number,
): GenerationsModel | null {
  const scan = new GenerationsScan(cpus);
  forEachSlice(src, ['kind', 'mm', 'gen'], (c, _lo, n) => {
    scan.first(c, n);
  });
  if (!scan.start()) return { mms: [] };
  let over = false;
  forEachSlice(src, ['kind', 'cpu', 'mm', 'gen', 'arg', 'time'], (c, lo, n) => {
    scan.sweep(c, lo, n);
    over = scan.pushed > maxSteps;
    return !over;
  });
  if (over) return null;
  return scan.result();
}

/** Each slot series indexed by time over [0, end] (its pyramid built once). */
export function indexGenerations(model: GenerationsModel, end: number): GenerationsIndex {
  let steps = 0;
  const mms = model.mms.map((m) => {
    steps += m.tlbGen.row.length;
    return {
      mm: m.mm,
      tlbGen: m.tlbGen,
      slots: m.slots.map((s) => {
        steps += s.row.length;
        return lagIndexAt(s, s.time, [0, Math.max(end, 1)]);
      }),
    };
  });
  return { mms, steps };
}

/** The charts of [t0, t1] at `width` pixel columns. */
export function generationsInWindow(
  ix: GenerationsIndex,
  t0: number,
  t1: number,
  width: number,
): WindowGenerations[] {
  const W = Math.max(1, Math.floor(width));
  const k = W / Math.max(t1 - t0, Number.MIN_VALUE);
  const col = new Int32Array(W);
  return ix.mms.map((m) => {
    const { time, value } = m.tlbGen;
    const jA = Math.max(0, upperBound(time, t0) - 1);
    const jB = upperBound(time, t1) - 1;
    const keepT = [t0];
    const keepV = [value[jA]];
    // Per column the first and the last step: what the chart's line passes through there.
    let lastCol = -1;
    let inCol = 0;
    for (let j = jA + 1; j <= jB; j++) {
      const c = Math.floor((time[j] - t0) * k);
      if (c === lastCol && inCol >= 2) {
        keepT[keepT.length - 1] = time[j];
        keepV[keepV.length - 1] = value[j];
        continue;
      }
      inCol = c === lastCol ? inCol + 1 : 1;
      lastCol = c;
      keepT.push(time[j]);
      keepV.push(value[j]);
    }
    const cpus = Uint16Array.from(m.slots.map((s) => s.cpu));
    const lag = new Int8Array(cpus.length * W);
    m.slots.forEach((s, r) => {
      col.fill(-1);
      rasteriseLag(s, t0, t1, col);
      const base = r * W;
      for (let c = 0; c < W; c++) lag[base + c] = Math.min(127, col[c]);
    });
    return { mm: m.mm, time: Float64Array.from(keepT), value: Float64Array.from(keepV), cpus, lag };
  });
}
