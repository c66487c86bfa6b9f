// Flush generations per mm: the mm's `tlb_gen` over time and, for every CPU that loads the
// mm, the generation its TLB slot is known to be flushed up to, so a view can show a CPU
// lagging behind the mm until its flush (or its switch_mm) catches it up. Pure; built once
// per trace in one pass, then queried per frame by binary search on trace rows (positions
// grow with the row number in both spacings, so rows are the common coordinate).
//
// What the trace records and what is derived (the simulator does not record a CPU's slot
// generation after a flush; see the report in the commit that added this file):
//   - mm tlb_gen: each TlbGenIncremented row (x86 inc_mm_tlb_gen()) sets it to `gen`. Before
//     the first one it is taken to be that row's gen − 1 (inc_mm_tlb_gen() is an atomic +1);
//     an mm that is never incremented gets no track (nothing steps, nothing can lag).
//   - loaded mm of a CPU: the `mm` of its last SwitchMm row (0 = init_mm, nothing loaded).
//     Every CPU starts on init_mm and every later switch is a SwitchMm row. A lazy CPU keeps
//     the mm loaded (and lags: it receives no flush IPIs until it leaves lazy mode).
//   - slot generation while loaded:
//       SwitchMm to the mm: the `gen` read. With arg = 1 the CR3 write flushed the slot and it
//       is set to that gen; with arg = 0 (CR3_NOFLUSH) choose_new_asid() found the slot
//       already at that gen (it only skips the flush when slot.tlb_gen ≥ the mm's gen, and a
//       slot never passes its mm), so the value is the same either way.
//       FlushTlbFunc with arg 1 (partial) or 2 (full): the slot becomes the mm's tlb_gen as
//       of that row (flush_tlb_func() reads mm->context.tlb_gen and stores it), which is the
//       last TlbGenIncremented of that mm before the row — not the row's `gen` (that is the
//       descriptor's new_tlb_gen, which can be older: see R8). Rows are in execution order,
//       so "before the row" is exact even among rows with the same timestamp.
//       FlushTlbFunc arg 0 (nothing to do) and 3 (not loaded) change nothing; arg 4 (lazy)
//       is followed by a SwitchMm to init_mm, which unloads.
//   - a CPU that switches to another mm stops having a known slot generation for this one
//     (NaN): with PCID the slot may survive, but whether it is evicted is not in the trace,
//     and a stale slot of an mm that is not loaded cannot be used until the next switch,
//     which catches it up.
// arm64 traces have no TlbGenIncremented rows (broadcast TLBI, no per-CPU generations), so
// they produce no tracks.
import { EventKind, type Trace } from '../trace/trace';
import { upperBound } from './intervals';
import type { PosMap } from './spacing';

/** A step function of trace rows: value[j] holds from row[j] until the next step. */
export interface StepSeries {
  readonly row: Int32Array;
  readonly value: Float64Array;
  /** The start time of row[j] (0 for the first step, which holds from the trace's start). */
  readonly time: Float64Array;
}

/** One CPU's slot for one mm: its generation and the mm's at every change of either. */
export interface SlotSeries {
  readonly cpu: number;
  readonly row: Int32Array;
  /** The slot's known generation from row[j] on; NaN while the mm is not loaded. */
  readonly slot: Float64Array;
  /** The mm's tlb_gen from row[j] on (so lag = gen − slot). */
  readonly gen: Float64Array;
  /** The start time of row[j]. */
  readonly time: Float64Array;
}

export interface MmGenerations {
  readonly mm: number;
  /** The mm's tlb_gen; the first step is at row 0 (the generation before any increment). */
  readonly tlbGen: StepSeries;
  /** CPUs that load the mm at some point, by CPU number. */
  readonly slots: readonly SlotSeries[];
}

export interface GenerationsModel {
  readonly mms: readonly MmGenerations[];
}

/** A growable column triple (row, a, b) that skips pushes repeating the last values. */
class Grow {
  n = 0;
  row = new Int32Array(16);
  a = new Float64Array(16);
  b = new Float64Array(16);
  t = new Float64Array(16);
  push(row: number, a: number, b: number, t: number) {
    const last = this.n - 1;
    if (last >= 0 && Object.is(this.a[last], a) && this.b[last] === b) return;
    if (last >= 0 && this.row[last] === row) {
      this.a[last] = a;
      this.b[last] = b;
      return;
    }
    if (this.n === this.row.length) {
      const grow = <T extends Int32Array | Float64Array>(x: T): T => {
        const y = new (x.constructor as new (n: number) => T)(x.length * 2);
        y.set(x);
        return y;
      };
      this.row = grow(this.row);
      this.a = grow(this.a);
      this.b = grow(this.b);
      this.t = grow(this.t);
    }
    this.row[this.n] = row;
    this.a[this.n] = a;
    this.t[this.n] = t;
    this.b[this.n++] = b;
  }
}

type FirstColumns = Pick<Trace, 'kind' | 'mm' | 'gen'>;
type SweepColumns = Pick<Trace, 'kind' | 'cpu' | 'mm' | 'gen' | 'arg' | 'time'>;

/**
 * toGenerations fed rows in trace order a slice at a time (a run kept in its worker is read
 * so): `first` over every row, then `sweep` over every row again, then `result`. The same
 * model as toGenerations (which is this fed the whole trace), and a step count to stop at.
 */
export class GenerationsScan {
  // Indexed by mm (a Uint16 column) rather than Maps: this runs over every row of big traces.
  private readonly current = new Float64Array(65536).fill(NaN);
  private readonly tracked: number[] = [];
  private readonly steps = new Map<number, Grow>();
  private readonly series = new Map<number, (Grow | undefined)[]>();
  private readonly loaded: Int32Array;
  private readonly slotOf: Float64Array;
  /** Steps pushed so far, of every series (what the model's memory follows). */
  pushed = 0;

  constructor(private readonly cpus: number) {
    this.loaded = new Int32Array(cpus);
    this.slotOf = new Float64Array(cpus);
  }

  /** Pass 1: which mms step, and their generation before the first step. */
  first(c: FirstColumns, n: number): void {
    const INC = EventKind.TlbGenIncremented;
    const { kind, mm, gen } = c;
    for (let i = 0; i < n; i++) {
      if (kind[i] !== INC || mm[i] === 0 || !Number.isNaN(this.current[mm[i]])) continue;
      this.current[mm[i]] = gen[i] - 1;
      this.tracked.push(mm[i]);
    }
  }

  /** Between the passes; false when no mm steps (then there is nothing to sweep). */
  start(): boolean {
    if (this.tracked.length === 0) return false;
    this.tracked.sort((x, y) => x - y);
    for (const m of this.tracked) {
      const s = new Grow();
      s.push(0, this.current[m], 0, 0);
      this.steps.set(m, s);
      this.series.set(m, new Array<Grow | undefined>(this.cpus));
    }
    return true;
  }

  /** Pass 2: rows first … first + n − 1 in execution order. */
  sweep(c: SweepColumns, first: number, n: number): void {
    const { kind, cpu, mm, gen, arg, time } = c;
    const INC = EventKind.TlbGenIncremented;
    const SWITCH = EventKind.SwitchMm;
    const FUNC = EventKind.FlushTlbFunc;
    const { current, loaded, slotOf, cpus } = this;
    const seriesOf = (m: number, cp: number): Grow => {
      const per = this.series.get(m)!;
      return (per[cp] ??= new Grow());
    };
    let pushed = 0;
    for (let j = 0; j < n; j++) {
      const k = kind[j];
      const i = first + j;
      const t = time[j];
      if (k === INC) {
        const m = mm[j];
        if (Number.isNaN(current[m])) continue;
        const g = gen[j];
        current[m] = g;
        this.steps.get(m)!.push(i, g, 0, t);
        const per = this.series.get(m)!;
        for (let cp = 0; cp < cpus; cp++)
          if (loaded[cp] === m) {
            per[cp]!.push(i, slotOf[cp], g, t);
            pushed++;
          }
        pushed++;
      } else if (k === SWITCH) {
        const cp = cpu[j];
        const prev = loaded[cp];
        const next = mm[j];
        if (prev !== next && !Number.isNaN(current[prev]))
          seriesOf(prev, cp).push(i, NaN, current[prev], t);
        loaded[cp] = next;
        if (!Number.isNaN(current[next])) {
          slotOf[cp] = gen[j];
          seriesOf(next, cp).push(i, gen[j], current[next], t);
        }
        pushed += 2;
      } else if (k === FUNC && (arg[j] === 1 || arg[j] === 2)) {
        const cp = cpu[j];
        const m = loaded[cp];
        const g = current[m];
        if (Number.isNaN(g)) continue;
        slotOf[cp] = g;
        seriesOf(m, cp).push(i, g, g, t);
        pushed++;
      }
    }
    this.pushed += pushed;
  }

  result(): GenerationsModel {
    const mms: MmGenerations[] = [];
    for (const m of this.tracked) {
      const s = this.steps.get(m)!;
      const slots: SlotSeries[] = [];
      this.series.get(m)!.forEach((g, c) => {
        if (g)
          slots.push({
            cpu: c,
            row: g.row.slice(0, g.n),
            slot: g.a.slice(0, g.n),
            gen: g.b.slice(0, g.n),
            time: g.t.slice(0, g.n),
          });
      });
      mms.push({
        mm: m,
        tlbGen: { row: s.row.slice(0, s.n), value: s.a.slice(0, s.n), time: s.t.slice(0, s.n) },
        slots,
      });
    }
    return { mms };
  }
}

export function toGenerations(trace: Trace): GenerationsModel {
  const scan = new GenerationsScan(trace.cpus);
  scan.first(trace, trace.n);
  if (!scan.start()) return { mms: [] };
  scan.sweep(trace, 0, trace.n);
  return scan.result();
}

/** Index of the step in force at `row` (the last with row[j] ≤ row), or -1 before the first. */
export function stepAt(rows: Int32Array, row: number): number {
  return upperBound(rows, row) - 1;
}

/** The mm's tlb_gen at `row` (NaN before the series starts). */
export function tlbGenAt(g: MmGenerations, row: number): number {
  const j = stepAt(g.tlbGen.row, row);
  return j < 0 ? NaN : g.tlbGen.value[j];
}

/** A CPU's known slot generation for the mm at `row` (NaN if not loaded or unknown). */
export function slotAt(s: SlotSeries, row: number): number {
  const j = stepAt(s.row, row);
  return j < 0 ? NaN : s.slot[j];
}

/**
 * The last row whose start is at or before position `p` (-1 if none): steps at rows up to
 * it are in force at p. Time spacing: a binary search on the time column; event spacing:
 * row i sits at position i.
 */
export function lastRowAt(pos: PosMap, p: number): number {
  if (pos.spacing === 'event') return Math.min(pos.time.length - 1, Math.floor(p));
  return upperBound(pos.time, p) - 1;
}

/**
 * One slot series in positions of one spacing, ready to rasterise: each step's start and
 * lag (gen − slot, or -1 while unknown), plus a max-pyramid over fixed bins of the trace's
 * extent, so a zoomed-out view costs pixels, not steps (a 128-CPU run has ~half a million).
 */
export interface LagIndex {
  readonly cpu: number;
  readonly start: Float64Array;
  readonly lag: Int16Array;
  /** levels[0]: the worst lag per bin of width `bin`; levels[k]: per bin of width bin·2^k. */
  readonly levels: readonly Int16Array[];
  readonly e0: number;
  readonly bin: number;
  /** End of the last step (the trace's end). */
  readonly end: number;
}

/** Series with more steps than this get a pyramid; shorter ones are always scanned. */
const PYRAMID_ABOVE = 1024;
const BINS = 1 << 13;

/** The worst lag per bin of `bins` over [e0, e0 + bins·bin), from a series' steps. */
function lagBase(start: Float64Array, lag: Int16Array, e0: number, bin: number, out: Int16Array) {
  const n = start.length;
  const bins = out.length;
  for (let j = 0; j < n; j++) {
    const v = lag[j];
    if (v < 0) continue;
    const b0 = Math.max(0, Math.floor((start[j] - e0) / bin));
    const b1 = Math.min(bins - 1, j + 1 < n ? Math.floor((start[j + 1] - e0) / bin) : bins - 1);
    for (let b = b0; b <= b1; b++) if (v > out[b]) out[b] = v;
  }
}

function pyramidOf(base: Int16Array): Int16Array[] {
  const levels = [base];
  for (let prev = base; prev.length > 1;) {
    const next = new Int16Array(prev.length >> 1);
    for (let b = 0; b < next.length; b++) next[b] = Math.max(prev[2 * b], prev[2 * b + 1]);
    levels.push(next);
    prev = next;
  }
  return levels;
}

export function toLagIndex(s: SlotSeries, pos: PosMap): LagIndex {
  const start = new Float64Array(s.row.length);
  for (let j = 0; j < start.length; j++) start[j] = pos.rowStart(s.row[j]);
  return lagIndexAt(s, start, pos.extent);
}

/** As toLagIndex, with each step's position given (a run kept in its worker: its time). */
export function lagIndexAt(
  s: SlotSeries,
  start: Float64Array,
  [e0, end]: readonly [number, number],
): LagIndex {
  const n = s.row.length;
  const lag = new Int16Array(n);
  for (let j = 0; j < n; j++)
    lag[j] = Number.isNaN(s.slot[j]) ? -1 : Math.min(32767, s.gen[j] - s.slot[j]);
  // Every pyramid of a trace shares one grid, so the rows of a collapsed group can be merged.
  const bin = Math.max(end - e0, 1e-9) / BINS;
  let levels: Int16Array[] = [];
  if (n > PYRAMID_ABOVE) {
    const base = new Int16Array(BINS).fill(-1);
    lagBase(start, lag, e0, bin, base);
    levels = pyramidOf(base);
  }
  return { cpu: s.cpu, start, lag, levels, e0, bin, end };
}

const merged = new WeakMap<LagIndex, Map<string, Int16Array[]>>();

/** The pyramid of the worst lag over several series (a collapsed group's row), cached. */
export function mergedLevels(ixs: readonly LagIndex[]): Int16Array[] {
  let cache = merged.get(ixs[0]);
  if (!cache) merged.set(ixs[0], (cache = new Map()));
  const key = ixs.map((ix) => ix.cpu).join(',');
  let levels = cache.get(key);
  if (!levels) {
    const base = new Int16Array(BINS).fill(-1);
    for (const ix of ixs) {
      if (ix.levels.length) {
        const l0 = ix.levels[0];
        for (let b = 0; b < BINS; b++) if (l0[b] > base[b]) base[b] = l0[b];
      } else lagBase(ix.start, ix.lag, ix.e0, ix.bin, base);
    }
    cache.set(key, (levels = pyramidOf(base)));
  }
  return levels;
}

/**
 * Rasterises the worst lag of `ixs` (one CPU, or a collapsed group's) over [p0, p1] onto
 * `col`: through the pyramid when its bins are no wider than a pixel, else step by step.
 */
export function rasteriseLagRow(
  ixs: readonly LagIndex[],
  p0: number,
  p1: number,
  col: Int32Array,
): void {
  if (!ixs.length) return;
  const perPixel = Math.max(p1 - p0, Number.MIN_VALUE) / col.length;
  const first = ixs[0];
  const big = ixs.length > 1 || first.levels.length > 0;
  if (big && first.bin <= perPixel) {
    let begin = Infinity;
    for (const ix of ixs) if (ix.start.length) begin = Math.min(begin, ix.start[0]);
    const levels = ixs.length > 1 ? mergedLevels(ixs) : first.levels;
    rasteriseLevels(levels, first.e0, first.bin, begin, p0, p1, col);
  } else for (const ix of ixs) rasteriseLag(ix, p0, p1, col);
}

function rasteriseLevels(
  levels: readonly Int16Array[],
  e0: number,
  bin: number,
  begin: number,
  p0: number,
  p1: number,
  col: Int32Array,
): void {
  const W = col.length;
  const perPixel = Math.max(p1 - p0, Number.MIN_VALUE) / W;
  let L = 0;
  while (L + 1 < levels.length && bin * 2 ** (L + 1) <= perPixel) L++;
  const lv = levels[L];
  const bw = bin * 2 ** L;
  const last = lv.length - 1;
  for (let c = 0; c < W; c++) {
    const a = p0 + c * perPixel;
    if (a + perPixel < begin) continue;
    const b0 = Math.max(0, Math.floor((a - e0) / bw));
    const b1 = Math.min(last, Math.floor((a + perPixel - e0) / bw));
    let v = col[c];
    for (let b = b0; b <= b1; b++) if (lv[b] > v) v = lv[b];
    col[c] = v;
  }
}

/**
 * Rasterises `ix` over [p0, p1] onto `col` (W pixel columns), keeping in each column the
 * worst state seen: -1 unknown, 0 up to date, k generations behind. A lag shorter than a
 * pixel still marks its column. O(steps in the window), or O(W) through the pyramid.
 */
export function rasteriseLag(ix: LagIndex, p0: number, p1: number, col: Int32Array): void {
  const W = col.length;
  const k = W / Math.max(p1 - p0, Number.MIN_VALUE);
  const { start, lag } = ix;
  const jA = upperBound(start, p0) - 1;
  const jB = upperBound(start, p1) - 1;
  if (jB < 0) return;
  if (ix.levels.length && jB - jA > 2 * W && ix.bin <= 1 / k) {
    rasteriseLevels(ix.levels, ix.e0, ix.bin, start[0], p0, p1, col);
    return;
  }
  for (let j = Math.max(0, jA); j <= jB; j++) {
    const v = lag[j];
    if (v < 0) continue;
    const xs = j === jA ? 0 : (start[j] - p0) * k;
    const xe = j < jB ? (start[j + 1] - p0) * k : W;
    const c0 = Math.max(0, Math.floor(xs));
    const c1 = Math.min(W - 1, Math.max(c0, Math.ceil(xe) - 1));
    for (let c = c0; c <= c1; c++) if (v > col[c]) col[c] = v;
  }
}
