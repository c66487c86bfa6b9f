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
import { ARROW_IPI, toArrows } from '../model/ipis';
import { EventKind, kindName, type Trace } from '../trace/trace';
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

function rowArgs(
  trace: Trace,
  i: number,
  x: RowExtras | undefined,
  rowOf: (i: number) => number,
): Record<string, unknown> {
  const a: Record<string, unknown> = { row: rowOf(i), arg: trace.arg[i] };
  if (trace.gen[i]) a.gen = trace.gen[i];
  if (trace.mm[i]) a.mm = trace.mm[i];
  if (trace.asid[i]) a.asid = trace.asid[i];
  if (trace.addr[i]) a.addr = trace.addr[i];
  if (trace.parent[i] >= 0) a.parent = rowOf(trace.parent[i]);
  const r = x?.reason?.[i] ?? -1;
  if (r >= 0) {
    a.reason = reasonName(r);
    a.reason_enum = TLB_FLUSH_REASON_ENUM[r] ?? `reason ${r}`;
    a.pages = x?.pages?.[i];
  }
  if (x?.line && x.line[i] > 0) a.line = x.line[i];
  if (trace.kind[i] === EventKind.TaskRun && x?.tasks?.[trace.arg[i]]) {
    a.comm = x.tasks[trace.arg[i]];
  }
  return a;
}

function sliceName(trace: Trace, i: number, x: RowExtras | undefined): string {
  const k = kindName(trace.kind[i]);
  const r = x?.reason?.[i] ?? -1;
  if (r >= 0) return `${k} (${reasonName(r)})`;
  if (trace.kind[i] === EventKind.TaskRun) {
    const comm = x?.tasks?.[trace.arg[i]];
    return comm ? `${comm} [${trace.arg[i]}]` : `task ${trace.arg[i]}`;
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

/** The export as JSON text chunks (join them, or write them one by one). */
export function* perfettoChunks(trace: Trace, info: ExportInfo): Generator<string> {
  const x = info.extras;
  const w = info.window;
  const rowOf = w ? (i: number) => w.rows[i] : (i: number) => i;
  const tid = assignThreads(trace);
  yield `{"displayTimeUnit":"ns","metadata":${JSON.stringify({
    'tlbscope-title': info.title,
    'tlbscope-source': info.source,
    'tlbscope-rows': trace.n,
    ...(w
      ? {
          'tlbscope-window-ns': [w.t0, w.t1],
          'tlbscope-run-rows': w.runRows,
          'tlbscope-note':
            'the rows touching the window, of the flushes touching it, and their causes; args.row is the row in the whole run',
        }
      : {}),
  })},"traceEvents":[\n`;
  let first = true;
  const emit = (e: object) => {
    const s = JSON.stringify(e);
    const out = first ? s : `,\n${s}`;
    first = false;
    return out;
  };
  const threads = new Set(tid);
  for (let cpu = 0; cpu < trace.cpus; cpu++) {
    const pid = cpu + 1;
    yield emit({ ph: 'M', name: 'process_name', pid, tid: 0, args: { name: `CPU ${cpu}` } });
    yield emit({ ph: 'M', name: 'process_sort_index', pid, tid: 0, args: { sort_index: cpu } });
  }
  for (const t of [...threads].sort((a, b) => a - b)) {
    const cpu = Math.floor(t / 10000) - 1;
    const track = Math.floor((t % 10000) / LANE_STRIDE);
    const lane = t % LANE_STRIDE;
    const base = track === EVENTS_TRACK ? 'events' : (TRACK_NAMES[track] ?? `track ${track}`);
    const name = lane ? `${base} (overlap ${lane})` : base;
    yield emit({ ph: 'M', name: 'thread_name', pid: cpu + 1, tid: t, args: { name } });
    yield emit({
      ph: 'M',
      name: 'thread_sort_index',
      pid: cpu + 1,
      tid: t,
      args: { sort_index: track * LANE_STRIDE + lane },
    });
  }
  let batch = '';
  for (let i = 0; i < trace.n; i++) {
    batch += emit({
      ph: 'X',
      name: sliceName(trace, i, x),
      cat: trace.kind[i] < 32 ? 'span' : 'instant',
      ts: us(trace.time[i]),
      dur: us(trace.dur[i]),
      pid: trace.cpu[i] + 1,
      tid: tid[i],
      args: rowArgs(trace, i, x, rowOf),
    });
    if (batch.length > 1 << 16) {
      yield batch;
      batch = '';
    }
  }
  yield batch;
  // IPI → handler → ack: the ack is the csd unlock whose parent is the handler.
  const ackOf = new Map<number, number>();
  for (let i = 0; i < trace.n; i++) {
    if (
      trace.kind[i] === EventKind.CsdUnlocked &&
      trace.parent[i] >= 0 &&
      !ackOf.has(trace.parent[i])
    ) {
      ackOf.set(trace.parent[i], i);
    }
  }
  const arrows = toArrows(trace);
  let id = 0;
  batch = '';
  for (let j = 0; j < arrows.n; j++) {
    if (arrows.kind[j] !== ARROW_IPI) continue;
    id++;
    const send = arrows.fromRow[j];
    const handler = arrows.toRow[j];
    const ack = ackOf.get(handler);
    const at = (row: number) => ({
      ts: us(trace.time[row]),
      pid: trace.cpu[row] + 1,
      tid: tid[row],
    });
    const common = { name: 'IPI', cat: 'ipi', id };
    batch += emit({ ph: 's', ...common, ...at(send) });
    if (ack === undefined) {
      batch += emit({ ph: 'f', bp: 'e', ...common, ...at(handler) });
    } else {
      batch += emit({ ph: 't', ...common, ...at(handler) });
      batch += emit({ ph: 'f', bp: 'e', ...common, ...at(ack) });
    }
    if (batch.length > 1 << 16) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}\n]}\n`;
}

export function toPerfettoJson(trace: Trace, info: ExportInfo): string {
  return [...perfettoChunks(trace, info)].join('');
}
