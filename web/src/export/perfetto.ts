// Any run, model or recording, as a Chrome JSON trace-event file that Perfetto UI
// (ui.perfetto.dev → Open trace file) and chrome://tracing open:
//   - one process per CPU ("CPU n"), one thread per lane sub-track (task, preempt off, irqs
//     off, flush / IPI, wait / func) plus an "events" thread for instants;
//   - every span a complete slice (ph "X"), every instant a zero-length "X" slice (flows can
//     bind to those; "i" events cannot carry them), args holding the row's columns, the flush
//     reason and page count of recordings and the generation of model runs;
//   - a flow per IPI: send → handler → ack (the target's csd unlock), ph "s" / "t" / "f".
// Chrome's format needs the slices of one thread to nest; spans of one sub-track that overlap
// without nesting go to an extra "(overlap n)" thread instead of being dropped.
// Written as a stream of chunks: a million-row run is hundreds of MB of JSON.
import { TRACK_NAMES, SPAN_TRACK } from '../model/lanes';
import { COLUMN_NAMES, EventKind, kindName, type Columns, type Trace } from '../trace/trace';
import { reasonName, TLB_FLUSH_REASON_ENUM } from '../recording/payload';
import type { RowExtras } from '../recording/types';

/** What a recording adds to its rows (all aligned with the trace's rows). */
export interface ExportInfo {
  /** Shown as the trace's title in metadata. */
  title: string;
  /** "predicted by the tlbscope model ..." or "recorded on ..." */
  source: string;
  extras?: RowExtras;
  /**
   * A window of a run kept in its worker (model/windowTrace.ts): the run's row number of each
   * of the trace's rows (args `row` and `parent` name those), and the window, in ns.
   */
  window?: { rows: Int32Array; t0: number; t1: number; runRows: number };
}

export const EVENTS_TRACK = 9;
const LANE_STRIDE = 100;

/** Thread id of a CPU's sub-track lane; pid is cpu + 1 (pid 0 reads as "no process"). */
export function tidOf(cpu: number, track: number, lane: number): number {
  return (cpu + 1) * 10000 + track * LANE_STRIDE + lane;
}

/** µs with ns precision, as the format wants. */
const us = (ns: number) => Math.round(ns) / 1000;

/** A slice's recording columns, aligned with its rows (tasks are the recording's whole table). */
export type SliceExtras = Omit<RowExtras, 'tasks'>;

function rowArgs(
  c: Columns,
  j: number,
  x: SliceExtras | undefined,
  tasks: RowExtras['tasks'],
  row: number,
  rowOf: (i: number) => number,
): Record<string, unknown> {
  const a: Record<string, unknown> = { row, arg: c.arg[j] };
  if (c.gen[j]) a.gen = c.gen[j];
  if (c.mm[j]) a.mm = c.mm[j];
  if (c.asid[j]) a.asid = c.asid[j];
  if (c.addr[j]) a.addr = c.addr[j];
  if (c.parent[j] >= 0) a.parent = rowOf(c.parent[j]);
  const r = x?.reason?.[j] ?? -1;
  if (r >= 0) {
    a.reason = reasonName(r);
    a.reason_enum = TLB_FLUSH_REASON_ENUM[r] ?? `reason ${r}`;
    a.pages = x?.pages?.[j];
  }
  if (x?.line && x.line[j] > 0) a.line = x.line[j];
  if (c.kind[j] === EventKind.TaskRun && tasks?.[c.arg[j]]) {
    a.comm = tasks[c.arg[j]];
  }
  return a;
}

function sliceName(
  c: Columns,
  j: number,
  x: SliceExtras | undefined,
  tasks: RowExtras['tasks'],
): string {
  const k = kindName(c.kind[j]);
  const r = x?.reason?.[j] ?? -1;
  if (r >= 0) return `${k} (${reasonName(r)})`;
  if (c.kind[j] === EventKind.TaskRun) {
    const comm = tasks?.[c.arg[j]];
    return comm ? `${comm} [${c.arg[j]}]` : `task ${c.arg[j]}`;
  }
  return k;
}

/** The thread (tid) each row goes to: its sub-track, in the first lane where it nests. */
export function assignThreads(trace: Trace): Int32Array {
  const tid = new Int32Array(trace.n);
  const trackOf = new Int8Array(256).fill(-1);
  for (const [k, t] of SPAN_TRACK) trackOf[k] = t;
  // Rows are in start order; a longer span first at equal starts so it can hold the shorter.
  const order = Array.from({ length: trace.n }, (_, i) => i).sort(
    (a, b) => trace.time[a] - trace.time[b] || trace.dur[b] - trace.dur[a] || a - b,
  );
  const stacks = new Map<number, number[][]>();
  for (const i of order) {
    const track = trackOf[trace.kind[i]];
    const cpu = trace.cpu[i];
    if (track < 0 || trace.dur[i] === 0) {
      tid[i] = tidOf(cpu, EVENTS_TRACK, 0);
      continue;
    }
    const key = cpu * 16 + track;
    const lanes = stacks.get(key) ?? [];
    stacks.set(key, lanes);
    const start = trace.time[i];
    const end = start + trace.dur[i];
    let lane = 0;
    for (; lane < lanes.length; lane++) {
      const s = lanes[lane];
      while (s.length && trace.time[s[s.length - 1]] + trace.dur[s[s.length - 1]] <= start) s.pop();
      const top = s[s.length - 1];
      if (top === undefined || end <= trace.time[top] + trace.dur[top]) break;
    }
    if (lane === lanes.length) lanes.push([]);
    lanes[lane].push(i);
    tid[i] = tidOf(cpu, track, lane);
  }
  return tid;
}

/** Where a flow event sits: a row's slice. */
interface At {
  ts: number;
  pid: number;
  tid: number;
}

/** An IPI's flow: send → handler → ack (the handler's csd unlock, when one comes). */
interface Flow {
  send: At;
  handler: At;
  ack: At | null;
}

/** Text a step of the writer produced: slices, and flows (which follow every slice). */
export interface Written {
  events: string[];
  flows: string[];
}

const BATCH = 1 << 16;

/**
 * The export written from rows fed in order, a slice at a time, so a run kept in its worker is
 * written without the page holding it whole: the file is header(), every feed's and finish()'s
 * `events` in order, then their `flows` in order, then finish()'s `tail`. A whole trace fed at
 * once (perfettoChunks) gives the same text as any slicing of it.
 *
 * Rows must come in start-time order (as a trace's are). The threads each row goes to are
 * those assignThreads picks: rows are placed in (start, longer first, row) order, and rows
 * sharing the slice's last start time wait for the next slice, so a tie is never split. The
 * writer keeps the spans still open on each thread, the IPI sends not yet handled and the
 * handlers not yet acknowledged: small beside the rows.
 */
export class PerfettoWriter {
  private readonly trackOf = new Int8Array(256).fill(-1);
  private readonly lanes = new Map<number, number[][]>();
  private readonly threads = new Set<number>();
  private carry: { cols: Columns; first: number; extras?: SliceExtras } | null = null;
  private readonly sends = new Map<number, At>();
  private readonly unacked = new Map<number, Flow>();
  private readonly queue: Flow[] = [];
  private queued = 0;
  private flowId = 0;
  private first = true;

  constructor(
    private readonly info: ExportInfo,
    private readonly cpus: number,
    /** Rows in the export (the metadata's count). */
    private readonly rows: number,
    /** The row number args name for stream row i (a window's: the run's). */
    private readonly rowOf: (i: number) => number = (i) => i,
  ) {
    for (const [k, t] of SPAN_TRACK) this.trackOf[k] = t;
  }

  private emit(e: object): string {
    const s = JSON.stringify(e);
    const out = this.first ? s : `,\n${s}`;
    this.first = false;
    return out;
  }

  /** The file's start: its metadata and one process per CPU. */
  header(): string {
    const w = this.info.window;
    let out = `{"displayTimeUnit":"ns","metadata":${JSON.stringify({
      'tlbscope-title': this.info.title,
      'tlbscope-source': this.info.source,
      'tlbscope-rows': this.rows,
      ...(w
        ? {
            'tlbscope-window-ns': [w.t0, w.t1],
            'tlbscope-run-rows': w.runRows,
            'tlbscope-note':
              'the rows touching the window, of the flushes touching it, and their causes; args.row is the row in the whole run',
          }
        : {}),
    })},"traceEvents":[\n`;
    for (let cpu = 0; cpu < this.cpus; cpu++) {
      const pid = cpu + 1;
      out += this.emit({
        ph: 'M',
        name: 'process_name',
        pid,
        tid: 0,
        args: { name: `CPU ${cpu}` },
      });
      out += this.emit({
        ph: 'M',
        name: 'process_sort_index',
        pid,
        tid: 0,
        args: { sort_index: cpu },
      });
    }
    return out;
  }

  /** Rows first … first + length − 1 (stream rows), with a recording's columns aligned. */
  feed(cols: Columns, first: number, extras?: SliceExtras): Written {
    const c = this.carry
      ? joinSlices(this.carry, { cols, first, extras })
      : { cols, first, extras };
    this.carry = null;
    const n = c.cols.time.length;
    // Rows starting at the slice's last time wait: the next slice may hold more of them.
    let cut = n;
    while (cut > 0 && c.cols.time[cut - 1] === c.cols.time[n - 1]) cut--;
    if (cut < n) this.carry = cutSlice(c, cut, n);
    return this.write(c.cols, c.first, c.extras, cut);
  }

  /** What is left: the last rows, the flows still open, the threads' names and the end. */
  finish(): Written & { tail: string } {
    const out: Written = { events: [], flows: [] };
    if (this.carry) {
      const c = this.carry;
      this.carry = null;
      const w = this.write(c.cols, c.first, c.extras, c.cols.time.length);
      out.events.push(...w.events);
      out.flows.push(...w.flows);
    }
    out.flows.push(this.flushFlows(true));
    let tail = '';
    for (const t of [...this.threads].sort((a, b) => a - b)) {
      const cpu = Math.floor(t / 10000) - 1;
      const track = Math.floor((t % 10000) / LANE_STRIDE);
      const lane = t % LANE_STRIDE;
      const base = track === EVENTS_TRACK ? 'events' : (TRACK_NAMES[track] ?? `track ${track}`);
      const name = lane ? `${base} (overlap ${lane})` : base;
      tail += this.emit({ ph: 'M', name: 'thread_name', pid: cpu + 1, tid: t, args: { name } });
      tail += this.emit({
        ph: 'M',
        name: 'thread_sort_index',
        pid: cpu + 1,
        tid: t,
        args: { sort_index: track * LANE_STRIDE + lane },
      });
    }
    return { ...out, tail: `${tail}\n]}\n` };
  }

  /** The thread of each of rows 0 … m − 1 of `c`: assignThreads's choice, continued. */
  private threadsOf(c: Columns, m: number): Int32Array {
    const tid = new Int32Array(m);
    const order = Array.from({ length: m }, (_, i) => i).sort(
      (a, b) => c.time[a] - c.time[b] || c.dur[b] - c.dur[a] || a - b,
    );
    for (const j of order) {
      const track = this.trackOf[c.kind[j]];
      const cpu = c.cpu[j];
      if (track < 0 || c.dur[j] === 0) {
        tid[j] = tidOf(cpu, EVENTS_TRACK, 0);
        continue;
      }
      const key = cpu * 16 + track;
      let lanes = this.lanes.get(key);
      if (!lanes) this.lanes.set(key, (lanes = []));
      const start = c.time[j];
      const end = start + c.dur[j];
      let lane = 0;
      for (; lane < lanes.length; lane++) {
        const open = lanes[lane];
        while (open.length && open[open.length - 1] <= start) open.pop();
        const top = open[open.length - 1];
        if (top === undefined || end <= top) break;
      }
      if (lane === lanes.length) lanes.push([]);
      lanes[lane].push(end);
      tid[j] = tidOf(cpu, track, lane);
    }
    return tid;
  }

  private write(c: Columns, first: number, x: SliceExtras | undefined, m: number): Written {
    const out: Written = { events: [], flows: [] };
    if (m === 0) return out;
    const tid = this.threadsOf(c, m);
    const tasks = this.info.extras?.tasks;
    const SENT = EventKind.IpiSent;
    const HANDLER = EventKind.IpiHandler;
    const UNLOCKED = EventKind.CsdUnlocked;
    let batch = '';
    for (let j = 0; j < m; j++) {
      const i = first + j;
      this.threads.add(tid[j]);
      batch += this.emit({
        ph: 'X',
        name: sliceName(c, j, x, tasks),
        cat: c.kind[j] < 32 ? 'span' : 'instant',
        ts: us(c.time[j]),
        dur: us(c.dur[j]),
        pid: c.cpu[j] + 1,
        tid: tid[j],
        args: rowArgs(c, j, x, tasks, this.rowOf(i), this.rowOf),
      });
      if (batch.length > BATCH) {
        out.events.push(batch);
        batch = '';
      }
      // IPI → handler → ack: the ack is the first csd unlock whose parent is the handler.
      const k = c.kind[j];
      const p = c.parent[j];
      const at = { ts: us(c.time[j]), pid: c.cpu[j] + 1, tid: tid[j] };
      if (k === SENT) this.sends.set(i, at);
      else if (k === HANDLER && p >= 0 && this.sends.has(p)) {
        const flow: Flow = { send: this.sends.get(p) as At, handler: at, ack: null };
        this.sends.delete(p);
        this.unacked.set(i, flow);
        this.queue.push(flow);
      } else if (k === UNLOCKED && p >= 0) {
        const flow = this.unacked.get(p);
        if (flow) {
          flow.ack = at;
          this.unacked.delete(p);
        }
      }
    }
    out.events.push(batch);
    out.flows.push(this.flushFlows(false));
    return out;
  }

  /**
   * The flows at the queue's head that are complete (all of them at the end), in handler
   * order: a handler never acknowledged holds back the ones after it until the end.
   */
  private flushFlows(all: boolean): string {
    let batch = '';
    while (this.queued < this.queue.length) {
      const f = this.queue[this.queued];
      if (!f.ack && !all) break;
      this.queued++;
      const common = { name: 'IPI', cat: 'ipi', id: ++this.flowId };
      batch += this.emit({ ph: 's', ...common, ...f.send });
      if (f.ack) {
        batch += this.emit({ ph: 't', ...common, ...f.handler });
        batch += this.emit({ ph: 'f', bp: 'e', ...common, ...f.ack });
      } else batch += this.emit({ ph: 'f', bp: 'e', ...common, ...f.handler });
    }
    if (this.queued > 4096 && this.queued * 2 > this.queue.length) {
      this.queue.splice(0, this.queued);
      this.queued = 0;
    }
    return batch;
  }
}

type Slice = { cols: Columns; first: number; extras?: SliceExtras };

function cutSlice(s: Slice, a: number, b: number): Slice {
  const cols = {} as Record<keyof Columns, Columns[keyof Columns]>;
  for (const k of COLUMN_NAMES) cols[k] = s.cols[k].slice(a, b);
  const x = s.extras;
  return {
    cols: cols as Columns,
    first: s.first + a,
    extras: x && {
      reason: x.reason?.slice(a, b),
      pages: x.pages?.slice(a, b),
      line: x.line?.slice(a, b),
    },
  };
}

function joinSlices(a: Slice, b: Slice): Slice {
  const join = <T extends ArrayLike<number> & { length: number }>(p: T, q: T): T => {
    const o = new (p.constructor as new (n: number) => T & { set(x: T, at?: number): void })(
      p.length + q.length,
    );
    o.set(p);
    o.set(q, p.length);
    return o;
  };
  const cols = {} as Record<keyof Columns, Columns[keyof Columns]>;
  for (const k of COLUMN_NAMES) cols[k] = join(a.cols[k], b.cols[k]);
  const x = a.extras;
  const y = b.extras;
  const both = <T extends Int8Array | Float64Array | Int32Array>(p?: T, q?: T) =>
    p && q ? join(p, q) : undefined;
  return {
    cols: cols as Columns,
    first: a.first,
    extras: x &&
      y && {
        reason: both(x.reason, y.reason),
        pages: both(x.pages, y.pages),
        line: both(x.line, y.line),
      },
  };
}

/**
 * The export of a whole trace as JSON text chunks (join them, or write them one by one): the
 * same text PerfettoWriter gives when the trace is fed a slice at a time.
 */
export function* perfettoChunks(trace: Trace, info: ExportInfo): Generator<string> {
  const w = info.window;
  const writer = new PerfettoWriter(
    info,
    trace.cpus,
    trace.n,
    w ? (i: number) => w.rows[i] : undefined,
  );
  yield writer.header();
  const x = info.extras;
  const extras = x && { reason: x.reason, pages: x.pages, line: x.line };
  const fed = writer.feed(trace, 0, extras);
  const end = writer.finish();
  yield* fed.events;
  yield* end.events;
  yield* fed.flows;
  yield* end.flows;
  yield end.tail;
}

export function toPerfettoJson(trace: Trace, info: ExportInfo): string {
  return [...perfettoChunks(trace, info)].join('');
}
