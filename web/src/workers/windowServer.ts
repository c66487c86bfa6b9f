// The worker's side of window questions (protocol.ts QueryRequest): it answers what the view
// asks of one run from a RowSource (the simulator's own trace store, read a slice at a time:
// no copy of the columns is kept) and the RowIndex one pass over it built. Latest wins:
// questions wait one macrotask in a queue keyed by type, so while the worker is busy a burst
// of zoom steps collapses to its last step; each question overtaken gets a 'stale' reply so no
// promise on the page waits for ever.
// No worker globals here: simWorker.ts wires it to postMessage, tests to a fake worker.
import { FlushScan, type FlushesOf } from '../model/flushMatch';
import {
  SLICE,
  forEachSlice,
  readRows,
  sourceRowsInWindow,
  toRowIndex,
  windowBuckets,
  type RowIndex,
  type RowSource,
} from '../model/rowSource';
import { toDrawn, type LaneBuckets } from '../model/traceWindow';
import { lensIntervals } from '../model/lens';
import { arrowsInWindow, lensInWindow, logRange, toWindowTrace } from '../model/windowTrace';
import { COLUMN_NAMES, EventKind, type Columns } from '../trace/trace';
import { RowPicker } from '../model/guide';
import { lensExtentsOfSource, type LensExtent } from '../model/lensExtent';
import {
  generationsInWindow,
  generationsOfSource,
  indexGenerations,
  type GenerationsIndex,
} from '../model/windowGenerations';
import type { QueryMessage, QueryRequest } from './protocol';
import { rowProblem, StepServer } from './stepServer';

/** Most rows one 'rows' answer lists (the page draws a window's rows only when few). */
export const MAX_WINDOW_ROWS = 200_000;
/** Most cells one 'lanes' answer holds (512 CPUs × 4,096 buckets). */
export const MAX_CELLS = 512 * 4096;
/** Most grid cells per CPU of the run's index (fewer CPUs, finer grid). */
const MAX_GRID = 16_384;
/**
 * A window with more candidate rows than this is answered from the grid, not by reading its
 * rows: reading half a million rows out of the store costs the worker ~20-40 ms.
 */
export const MAX_SCAN = 500_000;
/** Most rows of a causal chain sent for the inspector. */
const MAX_CHAIN = 64;
/** Most rows of one event-log page. */
export const MAX_LOG_ROWS = 1000;
/**
 * Most rows a lens or arrow question reads (the window and a window's margin each side, plus
 * their parents), and so what the view models run on in the worker: a few ms of work.
 */
export const MAX_WINDOW_TRACE = 100_000;
/** Most rows an arrow question reads: arrows are drawn only in narrow windows. */
export const MAX_ARROW_SCAN = 20_000;
/** Most lens intervals one answer lists. */
const MAX_LENS = 5000;
/** Most arrows one answer may list. */
export const MAX_ARROWS = 5000;

export type Reply = (msg: QueryMessage, transfer?: Transferable[]) => void;

/** One run, as the worker keeps it to answer window questions. */
export class WindowServer {
  readonly index: RowIndex;
  /** How long the pass that built the index took, in ms. */
  readonly indexMs: number;
  constructor(
    readonly run: number,
    readonly src: RowSource,
    readonly cpus: number,
    /** Bytes of the WASM memory that also holds the run (0 when there is none). */
    private readonly wasmBytes: () => number = () => 0,
    /** Bytes of columns the worker keeps beside the store (a small run's model copy). */
    private readonly columnBytes: () => number = () => 0,
  ) {
    const t0 = Date.now();
    // About one cell per four rows of a CPU: the grid's memory follows the run (≈ 3 B a row),
    // bounded by MAX_CELLS in all and MAX_GRID per CPU.
    const perCpu = Math.ceil(src.rows / Math.max(1, cpus) / 4);
    const cells = Math.max(
      64,
      Math.min(MAX_GRID, Math.floor(MAX_CELLS / Math.max(1, cpus)), perCpu),
    );
    this.index = toRowIndex(src, cpus, cells);
    this.indexMs = Date.now() - t0;
  }

  /** Where the last span ends: the trace's extent is [0, end]. */
  get end(): number {
    return this.index.end;
  }

  /**
   * The whole run's aggregates, about `buckets` per CPU (fewer when the CPUs × buckets would
   * exceed MAX_CELLS): what the page draws before the timeline's model is ready.
   */
  overview(buckets: number): LaneBuckets {
    const n = Math.max(1, Math.min(buckets, Math.floor(MAX_CELLS / Math.max(1, this.cpus))));
    return windowBuckets(this.index, this.src, 0, this.end, n, MAX_SCAN);
  }

  get rows(): number {
    return this.src.rows;
  }

  /** Bytes of the index (grid and long spans; and the tlb_gen charts' model once built). */
  indexBytes(): number {
    const { grid, long } = this.index;
    // A step: row, slot, gen and time, and the lag index's start and lag.
    const gens = typeof this.gens === 'object' && this.gens ? this.gens.steps * 38 : 0;
    return (
      gens +
      (this.steps?.bytes ?? 0) +
      grid.count.byteLength +
      grid.kindsLo.byteLength +
      grid.kindsHi.byteLength +
      long.ids.byteLength +
      long.start.byteLength +
      long.end.byteLength +
      long.endMax.byteLength +
      long.tag.byteLength
    );
  }

  answer(req: QueryRequest, reply: Reply): void {
    if (req.run !== this.run) {
      reply({ type: 'query-error', id: req.id, message: 'that run is gone' });
      return;
    }
    if (req.type === 'step' || req.type === 'difflog' || req.type === 'flushof') {
      (this.steps ??= new StepServer(this.src)).answer(req, reply);
      return;
    }
    if (req.type === 'memory') {
      reply({
        type: 'memory',
        id: req.id,
        rows: this.rows,
        wasmBytes: this.wasmBytes(),
        columnBytes: this.columnBytes(),
        indexBytes: this.indexBytes(),
        indexMs: this.indexMs,
      });
      return;
    }
    if (req.type === 'chain') {
      this.chain(req.id, req.row, reply);
      return;
    }
    if (req.type === 'slice') {
      const first = Math.max(0, Math.min(this.rows, Math.floor(req.first) || 0));
      const end = Math.min(
        this.rows,
        first + Math.max(0, Math.min(SLICE, Math.floor(req.count) || 0)),
      );
      const columns = sliceOf(this.src, first, end);
      reply(
        { type: 'slice', id: req.id, first, columns },
        Object.values(columns).map((c: Float64Array) => c.buffer),
      );
      return;
    }
    if (req.type === 'generations') {
      const problem = windowProblem(req.t0, req.t1);
      if (problem) {
        reply({ type: 'query-error', id: req.id, message: problem });
        return;
      }
      this.generations(req.id, req.t0, req.t1, req.width, reply);
      return;
    }
    if (req.type === 'facts') {
      const f = (this.facts ??= runFacts(this.src));
      const violations = { rows: f.violations.slice(), columns: readRows(this.src, f.violations) };
      reply({ type: 'facts', id: req.id, kinds: f.kinds, unpaired: f.unpaired, violations });
      return;
    }
    if (req.type === 'pick') {
      const problem = windowProblem(req.t0, req.t1);
      if (problem) {
        reply({ type: 'query-error', id: req.id, message: problem });
        return;
      }
      const limit = Math.max(0, Math.min(MAX_PICK, Math.floor(req.limit) || 0));
      const pick = new RowPicker(req.kinds, req.cpus, [req.t0, req.t1], limit);
      const src = this.src;
      forEachSlice(src, ['time', 'dur', 'cpu', 'kind'], (c, lo, n) => pick.feed(c, lo, n));
      const rows = Int32Array.from(pick.rows());
      const columns = readRows(src, rows);
      reply({ type: 'pick', id: req.id, rows, columns }, [
        rows.buffer,
        ...Object.values(columns).map((c: Float64Array) => c.buffer),
      ]);
      return;
    }
    if (req.type === 'lensExtent') {
      const kinds = Array.isArray(req.kinds) ? req.kinds.map(String) : [];
      const cs = Number.isFinite(req.contextSwitchNs) ? req.contextSwitchNs : 0;
      const key = `${kinds.join()}|${cs}`;
      if (this.lensExtent?.key !== key)
        this.lensExtent = { key, extents: lensExtentsOfSource(this.src, kinds, cs) };
      reply({ type: 'lensExtent', id: req.id, extents: this.lensExtent.extents });
      return;
    }
    if (req.type === 'flushes') {
      const { flushes, unattributed } = (this.flushFacts ??= this.scanFlushes(req.strings));
      reply({ type: 'flushes', id: req.id, flushes, unattributed });
      return;
    }
    const problem = windowProblem(req.t0, req.t1);
    if (problem) {
      reply({ type: 'query-error', id: req.id, message: problem });
      return;
    }
    if (req.type === 'log') {
      this.log(req.id, req.t0, req.t1, req.offset, req.limit, reply);
      return;
    }
    if (req.type === 'lens' || req.type === 'arrows') {
      // One window's width of margin each side: a wait or arrow that reaches further out than
      // that is not seen (windowTrace.ts).
      const margin = req.t1 - req.t0;
      const scan = req.type === 'lens' ? MAX_WINDOW_TRACE : MAX_ARROW_SCAN;
      const w = toWindowTrace(this.index, this.src, req.t0, req.t1, margin, scan);
      if (req.type === 'lens') {
        const all = w ? lensIntervals(w.trace, req.kinds, req.contextSwitchNs) : null;
        const intervals = w && all ? lensInWindow(w, all, req.t0, req.t1) : null;
        reply({
          type: 'lens',
          id: req.id,
          intervals: intervals && intervals.length <= MAX_LENS ? intervals : null,
        });
        return;
      }
      const arrows = w ? arrowsInWindow(w, req.t0, req.t1) : null;
      const limit = Math.max(0, Math.min(MAX_ARROWS, Math.floor(req.limit) || 0));
      reply({
        type: 'arrows',
        id: req.id,
        arrows: arrows && arrows.length <= limit ? arrows : null,
        total: arrows ? arrows.length : -1,
      });
      return;
    }
    if (req.type === 'lanes') {
      const buckets = Math.floor(req.buckets);
      if (!(buckets >= 1 && buckets * this.cpus <= MAX_CELLS)) {
        reply({
          type: 'query-error',
          id: req.id,
          message: `buckets must be 1 to ${Math.floor(MAX_CELLS / Math.max(1, this.cpus))} for ${this.cpus} CPUs, not ${req.buckets}`,
        });
        return;
      }
      const whole = windowBuckets(this.index, this.src, req.t0, req.t1, buckets, MAX_SCAN);
      const b = Array.isArray(req.priority) ? toDrawn(whole, req.priority) : whole;
      reply({ type: 'lanes', id: req.id, buckets: b }, bucketBuffers(b));
      return;
    }
    const limit = Math.max(0, Math.min(MAX_WINDOW_ROWS, Math.floor(req.limit) || 0));
    const found = sourceRowsInWindow(this.index, this.src, req.t0, req.t1, limit, MAX_SCAN);
    // Too many to read: say how many could be there, list none (the page draws aggregates).
    const rows = found?.rows ?? new Int32Array(0);
    const total = found ? found.total : -1;
    const columns = readRows(this.src, rows);
    reply({ type: req.type, id: req.id, rows, columns, total }, [
      rows.buffer,
      ...Object.values(columns).map((c: Float64Array) => c.buffer),
    ]);
  }

  private flushFacts: FlushesOf | null = null;
  /** The last lens extents asked for (a step asks again as the reader comes back to it). */
  private lensExtent: { key: string; extents: LensExtent[] } | null = null;
  /** Stepping and the A/B log's filter (stepServer.ts), made on the first such question. */
  private steps: StepServer | null = null;
  /** The run's generations model (built on the first chart question); a string: why not. */
  private gens: GenerationsIndex | string | null = null;

  private generations(id: number, t0: number, t1: number, width: number, reply: Reply): void {
    if (this.gens === null) {
      const model = generationsOfSource(this.src, this.cpus, MAX_GEN_STEPS);
      this.gens = model
        ? indexGenerations(model, this.end)
        : `this run's slot generations come to more than ${MAX_GEN_STEPS.toLocaleString('en-US')} steps, more than the worker keeps for the charts`;
    }
    if (typeof this.gens === 'string') {
      reply({ type: 'generations', id, mms: null, note: this.gens });
      return;
    }
    const W = Math.max(1, Math.min(4096, Math.floor(width) || 1));
    const cells = this.gens.mms.reduce((n, m) => n + m.slots.length, 0) * W;
    if (cells > MAX_CELLS) {
      reply({
        type: 'generations',
        id,
        mms: null,
        note: `the charts of this run need ${cells.toLocaleString('en-US')} cells, more than ${MAX_CELLS.toLocaleString('en-US')}`,
      });
      return;
    }
    const mms = generationsInWindow(this.gens, t0, t1, W);
    reply({ type: 'generations', id, mms, note: '' }, [
      ...mms.flatMap((m) => [m.time.buffer, m.value.buffer, m.cpus.buffer, m.lag.buffer]),
    ]);
  }
  private facts: RunFacts | null = null;

  /** flushesOf over the run, a slice at a time (the same scan the page runs on a trace). */
  private scanFlushes(strings: readonly string[]): FlushesOf {
    const scan = new FlushScan(0, this.cpus, strings);
    const src = this.src;
    forEachSlice(src, ['kind', 'parent', 'cpu', 'time', 'dur', 'mm', 'arg'], (c, lo) => {
      scan.feed(c, lo);
    });
    return scan.result();
  }

  /** One page of the event log: consecutive rows starting in the window. */
  private log(id: number, t0: number, t1: number, offset: number, limit: number, reply: Reply) {
    const n = Math.max(0, Math.min(MAX_LOG_ROWS, Math.floor(limit) || 0));
    const { first, count, total } = logRange(this.src, t0, t1, offset, n);
    const rows = Int32Array.from({ length: count }, (_, j) => first + j);
    const columns = readRows(this.src, rows);
    reply(
      { type: 'log', id, first, total, columns },
      Object.values(columns).map((c: Float64Array) => c.buffer),
    );
  }

  /** Row `row` and its causes (parent links), oldest first, with their columns. */
  private chain(id: number, row: number, reply: Reply): void {
    const problem = rowProblem(row, this.rows);
    if (problem) {
      reply({ type: 'query-error', id, message: problem });
      return;
    }
    const chain = [row];
    const seen = new Set(chain);
    let p = this.src.read('parent', row, row + 1)[0];
    while (p >= 0 && p < this.rows && !seen.has(p) && chain.length < MAX_CHAIN) {
      chain.push(p);
      seen.add(p);
      p = this.src.read('parent', p, p + 1)[0];
    }
    const rows = Int32Array.from(chain.reverse());
    const columns = readRows(this.src, rows);
    reply({ type: 'chain', id, rows, columns }, [
      rows.buffer,
      ...Object.values(columns).map((c: Float64Array) => c.buffer),
    ]);
  }
}

/**
 * Most steps of the tlb_gen charts' model a worker keeps (about 38 B each: 76 MB, under 8 B an
 * event of a ten-million-row run); a run with more gets no charts, and the page says why.
 */
export const MAX_GEN_STEPS = 2_000_000;
/** Most rows one 'pick' answer lists. */
export const MAX_PICK = 1000;
/** Invariant violations the summary lists (as SummaryPanel does for a run on the page). */
export const MAX_VIOLATIONS = 20;

interface RunFacts {
  kinds: number[];
  unpaired: number;
  violations: Int32Array;
}

/**
 * One pass over a run: the kinds it has, its unpaired IPI sends (model/ipis.ts unpairedSends:
 * IpiSent rows no IpiHandler names as parent) and its first invariant violations.
 */
export function runFacts(src: RowSource): RunFacts {
  const seen = new Set<number>();
  // 1: an IpiSent row; 2: a handler names it. One byte a row, for the pass only.
  const mark = new Uint8Array(src.rows);
  const violations: number[] = [];
  const SENT = EventKind.IpiSent;
  const HANDLER = EventKind.IpiHandler;
  const VIOLATED = EventKind.InvariantViolated;
  forEachSlice(src, ['kind', 'parent'], ({ kind, parent }, lo) => {
    for (let j = 0; j < kind.length; j++) {
      const k = kind[j];
      seen.add(k);
      if (k === SENT) mark[lo + j] |= 1;
      else if (k === HANDLER && parent[j] >= 0 && parent[j] < src.rows) mark[parent[j]] |= 2;
      else if (k === VIOLATED && violations.length < MAX_VIOLATIONS) violations.push(lo + j);
    }
  });
  let unpaired = 0;
  for (let i = 0; i < mark.length; i++) if (mark[i] === 1) unpaired++;
  return {
    kinds: [...seen].sort((a, b) => a - b),
    unpaired,
    violations: Int32Array.from(violations),
  };
}

/** Rows lo … hi − 1 of `src`, copied (a source may hand out views of the columns it keeps). */
export function sliceOf(src: RowSource, lo: number, hi: number): Columns {
  const out = {} as Record<keyof Columns, Columns[keyof Columns]>;
  for (const name of COLUMN_NAMES) out[name] = src.read(name, lo, hi).slice();
  return out as Columns;
}

function windowProblem(t0: number, t1: number): string | null {
  if (!Number.isFinite(t0) || !Number.isFinite(t1))
    return `window ${t0}..${t1} is not two finite times`;
  if (t1 < t0) return `window ${t0}..${t1} ends before it starts`;
  return null;
}

export function bucketBuffers(b: LaneBuckets): ArrayBuffer[] {
  const out = [b.count.buffer, b.kindsLo.buffer, b.kindsHi.buffer] as ArrayBuffer[];
  if (b.drawn) out.push(b.drawn.buffer as ArrayBuffer);
  if (b.shade) out.push(b.shade.buffer as ArrayBuffer);
  return out;
}

/**
 * Questions waiting for the worker, the newest of each type only. `schedule` runs the drain
 * after the messages already queued for the worker (a macrotask), so those can supersede.
 */
export class LatestQueue {
  private waiting = new Map<QueryRequest['type'], QueryRequest>();
  private scheduled = false;
  constructor(
    private readonly serve: (req: QueryRequest) => void,
    private readonly stale: (id: number) => void,
    private readonly schedule: (f: () => void) => void = (f) => setTimeout(f, 0),
  ) {}

  push(req: QueryRequest): void {
    const old = this.waiting.get(req.type);
    if (old) this.stale(old.id);
    this.waiting.set(req.type, req);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.drain());
  }

  /** Drops every waiting question as stale (a new run replaces the one they ask about). */
  clear(): void {
    for (const r of this.waiting.values()) this.stale(r.id);
    this.waiting.clear();
  }

  private drain(): void {
    this.scheduled = false;
    // A question that passes over the whole run (the legend's facts, a step's rows, the
    // charts' model, the flush list) waits while the timeline's window questions keep coming:
    // a run's first picture, and a zoom under way, do not wait for a whole-run pass.
    const reqs = [...this.waiting.values()];
    const now = reqs.some((r) => !WHOLE_RUN.has(r.type))
      ? reqs.filter((r) => !WHOLE_RUN.has(r.type))
      : reqs;
    for (const r of now) this.waiting.delete(r.type);
    for (const r of now) this.serve(r);
    if (this.waiting.size && !this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.drain());
    }
  }
}

/** Questions whose first answer reads the whole run (later ones are kept answers). */
const WHOLE_RUN: ReadonlySet<QueryRequest['type']> = new Set([
  'facts',
  'pick',
  'generations',
  'flushes',
  'lensExtent',
]);
