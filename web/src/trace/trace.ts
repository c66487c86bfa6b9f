// The trace as the web app sees it: typed-array columns copied once out of WASM memory, and the
// event kinds that name its rows. A leaf: sim/ fills it, model/ and everything above read it.
// Immutable after construction; `version` changes with every new run so memoised view models
// know when to recompute.
import { EventKind } from './eventKind';

export { EventKind };
export type { Stats, Summary, Violation } from './summary';

/** Nanoseconds of simulated time. */
export type Ns = number & { readonly __brand: 'Ns' };

/** One typed array per trace field, row i across all of them being event i. */
export interface Columns {
  time: Float64Array;
  dur: Float64Array;
  cpu: Uint16Array;
  kind: Uint8Array;
  mm: Uint16Array;
  asid: Uint16Array;
  gen: Uint32Array;
  addr: Float64Array;
  arg: Float64Array;
  parent: Int32Array;
}

export interface Trace {
  readonly version: number;
  readonly n: number;
  readonly cpus: number;
  readonly time: Float64Array;
  readonly dur: Float64Array;
  readonly cpu: Uint16Array;
  readonly kind: Uint8Array;
  readonly mm: Uint16Array;
  readonly asid: Uint16Array;
  readonly gen: Uint32Array;
  readonly addr: Float64Array;
  readonly arg: Float64Array;
  readonly parent: Int32Array;
  readonly strings: readonly string[];
  /**
   * Set for a run too large to send to the page: its columns here are empty, `rows` and `end`
   * (where its last span ends) say what the worker that ran it keeps. The timeline asks that
   * worker for what it shows (workers/session.ts traceWindowOf).
   */
  readonly remote?: { readonly rows: number; readonly end: number };
}

let nextVersion = 1;

/** Columns plus the few per-run facts a Trace needs. */
export type TraceSource = Columns & {
  cpus: number;
  strings: string[];
  remote?: { rows: number; end: number };
};

/** Wraps columns (already copied out of WASM memory) as an immutable Trace. */
export function toTrace(src: TraceSource): Trace {
  return { version: nextVersion++, n: src.time.length, ...src };
}

/** Empty columns: what the page holds of a run whose rows stay in its worker. */
/** The column names, in the order the simulator's store lays them out. */
export const COLUMN_NAMES: readonly (keyof Columns)[] = [
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

export function noColumns(): Columns {
  return {
    time: new Float64Array(0),
    dur: new Float64Array(0),
    cpu: new Uint16Array(0),
    kind: new Uint8Array(0),
    mm: new Uint16Array(0),
    asid: new Uint16Array(0),
    gen: new Uint32Array(0),
    addr: new Float64Array(0),
    arg: new Float64Array(0),
    parent: new Int32Array(0),
  };
}

/** Name of an event kind code, e.g. 5 → "IpiHandler". */
export function kindName(code: number): string {
  return EventKind[code] ?? `kind${code}`;
}
