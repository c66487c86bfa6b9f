// Event-level A/B: the flushes of two runs of one workload, matched one to one, with what
// differs between each pair (a longer wait, preemption kept off, extra IPIs, a violation in
// one run only). Pure: two traces in, pairs out.
//
// Two runs of the same workload under different designs issue the same flushes in the same
// order per initiating CPU and address space, but at different times (a task delayed in one
// run flushes later), so a flush is matched by (CPU, mm, its ordinal among that CPU's flushes
// of that mm), never by time.
import { EventKind, type Columns, type Trace } from '../trace/trace';

/** One flush_tlb_mm_range() and what it caused (its rows by the trace's `parent` links). */
export interface FlushFacts {
  /** The FlushRange row. */
  row: number;
  cpu: number;
  mm: number;
  pages: number;
  start: number;
  latency: number;
  /** Time spent in csd_lock_wait() (IpiWait rows it caused). */
  wait: number;
  /** The preemption-off span on its CPU that covers its start (0: none). */
  preemptOff: number;
  ipis: number;
  broadcasts: number;
  /** Invariant violations of its mm after it started and before the mm's next flush. */
  violations: Violated[];
}

export interface Violated {
  row: number;
  /** The invariant's id, e.g. "I3" (the text before the first colon). */
  invariant: string;
  text: string;
}

export type DiffKind =
  'only' | 'start' | 'latency' | 'wait' | 'preempt' | 'ipis' | 'broadcasts' | 'violation';

export interface FlushDiff {
  kind: DiffKind;
  /** The values compared (ns or counts); for 'violation', the invariants of each side. */
  a: number | string | null;
  b: number | string | null;
}

export interface FlushPair {
  /** "CPU c, mm m, #k" (k from 1). */
  key: string;
  cpu: number;
  mm: number;
  ordinal: number;
  a: FlushFacts | null;
  b: FlushFacts | null;
  diffs: FlushDiff[];
}

export interface FlushMatch {
  pairs: FlushPair[];
  /** Violations that no flush explains, per side. */
  unattributed: { a: Violated[]; b: Violated[] };
  /** Each row's flush (its FlushRange row, or -1), per side: for the inspector and the log. */
  flushOfA: Int32Array;
  flushOfB: Int32Array;
  /** Pair index of each side's FlushRange row. */
  pairOfA: ReadonlyMap<number, number>;
  pairOfB: ReadonlyMap<number, number>;
  /** 'cpu': mm ids left out of the key (a recording's are not the model's). */
  by: 'cpu-mm' | 'cpu';
}

/**
 * How flushes are keyed: a kernel recording's mm is no id the model shares (the importer has
 * none), so with one on a side a flush is matched by initiating CPU and order alone.
 */
export interface MatchOptions {
  byCpuOnly?: boolean;
}

/** The smallest difference in ns worth calling one: 50 ns and 1 % of the larger value. */
export function differs(a: number, b: number): boolean {
  return Math.abs(a - b) >= Math.max(50, 0.01 * Math.max(Math.abs(a), Math.abs(b)));
}

/** What flushesOf finds: every flush in trace order, each row's flush, unattributed violations. */
export interface FlushesOf {
  flushes: FlushFacts[];
  /** Each row's FlushRange row (or -1); empty when the rows stayed where they were read. */
  flushOf: Int32Array;
  unattributed: Violated[];
}

/** Every flush of a trace, in trace order, and each row's flush. */
export function flushesOf(trace: Trace): FlushesOf {
  const scan = new FlushScan(trace.n, trace.cpus, trace.strings);
  scan.feed(trace, 0);
  return scan.result();
}

/**
 * flushesOf as a pass over the trace a slice at a time (rows in order, each slice's columns
 * with the row number of its first row), so a run kept in its worker is read from its store
 * without a copy: the page's and the worker's flush facts are the same function's.
 */
export class FlushScan {
  private readonly flushes: FlushFacts[] = [];
  private readonly unattributed: Violated[] = [];
  /** Each row's flush, while `rows` ≥ 0 is kept (the page's); else only the flushes'. */
  private readonly flushOf: Int32Array;
  /** Each row's flush for rows not kept: recent rows, which later rows name as parents. */
  private readonly recent = new Map<number, number>();
  /** Index in `flushes` of each FlushRange row. */
  private readonly factsOf = new Map<number, number>();
  // The latest preemption-off span per CPU: the one a flush starting now sits in.
  private readonly preemptAt: Float64Array;
  private readonly preemptDur: Float64Array;
  // The latest flush per mm: where a later violation of that mm is attributed.
  private readonly lastOfMm = new Map<number, FlushFacts>();

  /** `keep`: how many rows to keep each row's flush for (0: none, as a worker does). */
  constructor(
    keep: number,
    private readonly cpus: number,
    private readonly strings: readonly string[],
  ) {
    this.flushOf = new Int32Array(keep).fill(-1);
    this.preemptAt = new Float64Array(Math.max(1, cpus)).fill(NaN);
    this.preemptDur = new Float64Array(Math.max(1, cpus));
  }

  private flushOfRow(r: number): number {
    return r < this.flushOf.length ? this.flushOf[r] : (this.recent.get(r) ?? -1);
  }

  feed(
    c: Pick<Columns, 'kind' | 'parent' | 'cpu' | 'time' | 'dur' | 'mm' | 'arg'>,
    base: number,
  ): void {
    const { kind, parent, cpu, time, dur, mm, arg } = c;
    // Enum members in locals: this loop runs over every row of multi-million-row traces.
    const FLUSH = EventKind.FlushRange;
    const PREEMPT = EventKind.PreemptOff;
    const VIOLATED = EventKind.InvariantViolated;
    const WAIT = EventKind.IpiWait;
    const SENT = EventKind.IpiSent;
    const BROADCAST = EventKind.TlbiBroadcast;
    const kept = this.flushOf.length;
    const n = kind.length;
    for (let j = 0; j < n; j++) {
      const i = base + j;
      const k = kind[j];
      const p = parent[j];
      // Parents precede their children in the trace; a link forward is ignored, not followed.
      const f0 = k === FLUSH ? i : p >= 0 && p < i ? this.flushOfRow(p) : -1;
      if (i < kept) this.flushOf[i] = f0;
      else if (f0 >= 0) this.recent.set(i, f0);
      if (k === PREEMPT) {
        if (cpu[j] < this.cpus) {
          this.preemptAt[cpu[j]] = time[j];
          this.preemptDur[cpu[j]] = dur[j];
        }
      } else if (k === FLUSH) {
        const at = cpu[j] < this.cpus ? this.preemptAt[cpu[j]] : NaN;
        const pd = cpu[j] < this.cpus ? this.preemptDur[cpu[j]] : 0;
        const covered = at <= time[j] && at + pd > time[j];
        const f: FlushFacts = {
          row: i,
          cpu: cpu[j],
          mm: mm[j],
          pages: arg[j],
          start: time[j],
          latency: dur[j],
          wait: 0,
          preemptOff: covered ? pd : 0,
          ipis: 0,
          broadcasts: 0,
          violations: [],
        };
        this.factsOf.set(i, this.flushes.length);
        this.flushes.push(f);
        this.lastOfMm.set(mm[j], f);
      } else if (k === VIOLATED) {
        const text = this.strings[arg[j]] ?? 'invariant violated';
        const colon = text.indexOf(':');
        const v = { row: i, invariant: colon > 0 ? text.slice(0, colon) : text, text };
        const f = this.lastOfMm.get(mm[j]);
        if (f) f.violations.push(v);
        else this.unattributed.push(v);
      } else if (f0 >= 0 && (k === WAIT || k === SENT || k === BROADCAST)) {
        const f = this.flushes[this.factsOf.get(f0) as number];
        if (k === WAIT) f.wait += dur[j];
        else if (k === SENT) f.ipis++;
        else f.broadcasts++;
      }
    }
    // Rows not kept are remembered for a while only: a row's causes are in its own flush,
    // long before which nothing names them (a flush spans far fewer rows than this).
    if (this.recent.size > RECENT_ROWS) {
      const cut = base + n - RECENT_ROWS / 2;
      for (const r of this.recent.keys()) {
        if (r >= cut) break;
        this.recent.delete(r);
      }
    }
  }

  result(): FlushesOf {
    return { flushes: this.flushes, flushOf: this.flushOf, unattributed: this.unattributed };
  }
}

/** Rows not kept whose flush a scan remembers (see FlushScan.feed). */
const RECENT_ROWS = 1 << 20;

function diffsOf(a: FlushFacts | null, b: FlushFacts | null): FlushDiff[] {
  if (!a || !b) return [{ kind: 'only', a: a ? 'A' : null, b: b ? 'B' : null }];
  const out: FlushDiff[] = [];
  const ns = (kind: DiffKind, x: number, y: number) => {
    if (differs(x, y)) out.push({ kind, a: x, b: y });
  };
  ns('start', a.start, b.start);
  ns('latency', a.latency, b.latency);
  ns('wait', a.wait, b.wait);
  ns('preempt', a.preemptOff, b.preemptOff);
  if (a.ipis !== b.ipis) out.push({ kind: 'ipis', a: a.ipis, b: b.ipis });
  if (a.broadcasts !== b.broadcasts)
    out.push({ kind: 'broadcasts', a: a.broadcasts, b: b.broadcasts });
  const ids = (f: FlushFacts) =>
    [...new Set(f.violations.map((v) => v.invariant))].sort().join(' ');
  if (ids(a) !== ids(b)) out.push({ kind: 'violation', a: ids(a) || null, b: ids(b) || null });
  return out;
}

/** Matches the flushes of A and B by (CPU, mm, ordinal) and lists what differs in each pair. */
export function matchFlushes(a: Trace, b: Trace, opts: MatchOptions = {}): FlushMatch {
  return matchFacts(flushesOf(a), flushesOf(b), opts);
}

/** matchFlushes on each side's flushesOf (a side kept in its worker sends its own). */
export function matchFacts(fa: FlushesOf, fb: FlushesOf, opts: MatchOptions = {}): FlushMatch {
  const byCpu = !!opts.byCpuOnly;
  // B's flushes per (CPU, mm), in order: A's k-th flush of a (CPU, mm) meets B's k-th.
  const base = (f: FlushFacts) => (byCpu ? f.cpu : f.cpu * 65536 + f.mm);
  const ofB = new Map<number, FlushFacts[]>();
  for (const f of fb.flushes) {
    const list = ofB.get(base(f));
    if (list) list.push(f);
    else ofB.set(base(f), [f]);
  }
  const seenA = new Map<number, number>();
  const pairs: FlushPair[] = [];
  const pair = (f: FlushFacts, ordinal: number, x: FlushFacts | null, y: FlushFacts | null) =>
    pairs.push({
      key: byCpu ? `CPU ${f.cpu}, #${ordinal}` : `CPU ${f.cpu}, mm ${f.mm}, #${ordinal}`,
      cpu: f.cpu,
      mm: f.mm,
      ordinal,
      a: x,
      b: y,
      diffs: diffsOf(x, y),
    });
  for (const f of fa.flushes) {
    const k = (seenA.get(base(f)) ?? 0) + 1;
    seenA.set(base(f), k);
    pair(f, k, f, ofB.get(base(f))?.[k - 1] ?? null);
  }
  // B's flushes beyond A's count of their (CPU, mm): in B only.
  for (const [key, list] of ofB) {
    for (let k = seenA.get(key) ?? 0; k < list.length; k++) pair(list[k], k + 1, null, list[k]);
  }
  // In time order of whichever side has the flush (the earlier start): one axis for both.
  const t = (p: FlushPair) => Math.min(p.a?.start ?? Infinity, p.b?.start ?? Infinity);
  pairs.sort((x, y) => t(x) - t(y));
  const pairOfA = new Map<number, number>();
  const pairOfB = new Map<number, number>();
  pairs.forEach((p, i) => {
    if (p.a) pairOfA.set(p.a.row, i);
    if (p.b) pairOfB.set(p.b.row, i);
  });
  return {
    pairs,
    unattributed: { a: fa.unattributed, b: fb.unattributed },
    flushOfA: fa.flushOf,
    flushOfB: fb.flushOf,
    pairOfA,
    pairOfB,
    by: byCpu ? 'cpu' : 'cpu-mm',
  };
}

/** The row of the other side's flush matched with the flush that `row` belongs to (or null). */
export function counterpart(m: FlushMatch, side: 'A' | 'B', row: number): number | null {
  const flushOf = side === 'A' ? m.flushOfA : m.flushOfB;
  const f = row >= 0 && row < flushOf.length ? flushOf[row] : -1;
  return counterpartOfFlush(m, side, f)?.row ?? null;
}

/** The other run's flush matched with `side`'s flush whose FlushRange row is `flush`. */
export function counterpartOfFlush(
  m: FlushMatch,
  side: 'A' | 'B',
  flush: number | null,
): FlushFacts | null {
  if (flush === null || flush < 0) return null;
  const p = (side === 'A' ? m.pairOfA : m.pairOfB).get(flush);
  if (p === undefined) return null;
  return (side === 'A' ? m.pairs[p].b : m.pairs[p].a) ?? null;
}

/**
 * Whether `side`'s row `row` belongs to a flush whose match differs (the A/B log's "flushes
 * that differ" filter). A run kept in its worker has no per-row flushOf: never, for its rows.
 */
export function inDifferingFlush(m: FlushMatch, side: 'A' | 'B', row: number): boolean {
  const f = (side === 'A' ? m.flushOfA : m.flushOfB)[row] ?? -1;
  const p = f >= 0 ? (side === 'A' ? m.pairOfA : m.pairOfB).get(f) : undefined;
  return p !== undefined && m.pairs[p].diffs.length > 0;
}

/** Each side's flush rows whose pair differs, for outlining on the timelines. */
export function differingRows(m: FlushMatch): { a: number[]; b: number[] } {
  const a: number[] = [];
  const b: number[] = [];
  for (const p of m.pairs) {
    if (!p.diffs.length) continue;
    if (p.a) a.push(p.a.row);
    if (p.b) b.push(p.b.row);
  }
  return { a, b };
}
