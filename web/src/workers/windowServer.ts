// The worker's side of window questions (protocol.ts QueryRequest): it keeps one run's columns
// and answers what the view asks of them. Latest wins: questions wait one macrotask in a queue
// keyed by type, so while the worker is busy a burst of zoom steps collapses to its last step;
// each question overtaken gets a 'stale' reply so no promise on the page waits for ever.
// No worker globals here: simWorker.ts wires it to postMessage, tests to a fake worker.
import {
  maxDurOf,
  rowsInWindow,
  sliceRows,
  toLaneBuckets,
  type LaneBuckets,
} from '../model/traceWindow';
import type { Columns } from '../trace/trace';
import type { QueryMessage, QueryRequest } from './protocol';

/** Most rows one 'rows' answer lists (the page draws a window's rows only when few). */
export const MAX_WINDOW_ROWS = 200_000;
/** Most cells one 'lanes' answer holds (512 CPUs × 4,096 buckets). */
export const MAX_CELLS = 512 * 4096;

const COLUMNS: readonly (keyof Columns)[] = [
  'time',
  'dur',
  'cpu',
  'kind',
  'mm',
  'asid',
  'gen',
  'addr',
  'arg',
  'parent',
];

export type Reply = (msg: QueryMessage, transfer?: Transferable[]) => void;

/** One run's columns, as the worker keeps them to answer window questions. */
export class WindowServer {
  readonly maxDur: number;
  /** Where the last span ends: the trace's extent is [0, end]. */
  readonly end: number;
  constructor(
    readonly run: number,
    readonly cols: Columns,
    readonly cpus: number,
    /** Bytes of the WASM memory that also holds the run (0 when there is none). */
    private readonly wasmBytes: () => number = () => 0,
  ) {
    this.maxDur = maxDurOf(cols);
    let end = 0;
    for (let i = 0; i < cols.time.length; i++) end = Math.max(end, cols.time[i] + cols.dur[i]);
    this.end = end;
  }

  /**
   * The whole run's aggregates, about `buckets` per CPU (fewer when the CPUs × buckets would
   * exceed MAX_CELLS): what the page draws before the timeline's model is ready.
   */
  overview(buckets: number): LaneBuckets {
    const n = Math.max(1, Math.min(buckets, Math.floor(MAX_CELLS / Math.max(1, this.cpus))));
    return toLaneBuckets(this.cols, this.cpus, 0, this.end, n, this.maxDur);
  }

  get rows(): number {
    return this.cols.time.length;
  }

  /** Bytes of the columns held here. */
  columnBytes(): number {
    return COLUMNS.reduce((s, k) => s + this.cols[k].byteLength, 0);
  }

  answer(req: QueryRequest, reply: Reply): void {
    if (req.run !== this.run) {
      reply({ type: 'query-error', id: req.id, message: 'that run is gone' });
      return;
    }
    if (req.type === 'memory') {
      reply({
        type: 'memory',
        id: req.id,
        rows: this.rows,
        wasmBytes: this.wasmBytes(),
        columnBytes: this.columnBytes(),
      });
      return;
    }
    const problem = windowProblem(req.t0, req.t1);
    if (problem) {
      reply({ type: 'query-error', id: req.id, message: problem });
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
      const b = toLaneBuckets(this.cols, this.cpus, req.t0, req.t1, buckets, this.maxDur);
      reply({ type: 'lanes', id: req.id, buckets: b }, bucketBuffers(b));
      return;
    }
    const limit = Math.max(0, Math.min(MAX_WINDOW_ROWS, Math.floor(req.limit) || 0));
    const { rows, total } = rowsInWindow(this.cols, req.t0, req.t1, this.maxDur, limit);
    const columns = sliceRows(this.cols, rows);
    reply({ type: 'rows', id: req.id, rows, columns, total }, [
      rows.buffer,
      ...Object.values(columns).map((c: Float64Array) => c.buffer),
    ]);
  }
}

function windowProblem(t0: number, t1: number): string | null {
  if (!Number.isFinite(t0) || !Number.isFinite(t1))
    return `window ${t0}..${t1} is not two finite times`;
  if (t1 < t0) return `window ${t0}..${t1} ends before it starts`;
  return null;
}

export function bucketBuffers(b: LaneBuckets): ArrayBuffer[] {
  return [b.count.buffer, b.kindsLo.buffer, b.kindsHi.buffer] as ArrayBuffer[];
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
    const reqs = [...this.waiting.values()];
    this.waiting.clear();
    for (const r of reqs) this.serve(r);
  }
}
