// The trace as the web app sees it: typed-array columns copied once out of WASM memory.
// Immutable after construction; `version` changes with every new run so memoised view models
// know when to recompute.
import { EventKind, type Simulator } from '../../../sim-wasm/pkg/tlbscope_sim.js';
import type { Columns } from './protocol';

export { EventKind };

/** Nanoseconds of simulated time. */
export type Ns = number & { readonly __brand: 'Ns' };

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
}

export interface Stats {
  count: number;
  mean: number;
  p50: number;
  p99: number;
  max: number;
}

export interface Violation {
  invariant: string;
  cpu: number;
  time_ns: number;
  detail: string;
}

/** The simulator's per-run summary (computed in Rust). Fields beyond these may be present. */
export interface Summary {
  events: number;
  trace_rows: number;
  sim_time_ns: number;
  flush_latency_ns: Stats;
  preempt_off_ns: Stats;
  ipis: number;
  violations: Violation[];
  [key: string]: unknown;
}

let nextVersion = 1;

/** Columns plus the few per-run facts a Trace needs. */
export type TraceSource = Columns & { cpus: number; strings: string[] };

/** Wraps columns (already copied out of WASM memory) as an immutable Trace. */
export function toTrace(src: TraceSource): Trace {
  return { version: nextVersion++, n: src.time.length, ...src };
}

/** Copies every column out of a finished simulator, once. */
export function fromSimulator(sim: Simulator): Trace {
  return toTrace({ cpus: sim.cpus, strings: sim.strings(), ...columnsOf(sim) });
}

/** Copies each column out of WASM memory once (the worker transfers them on). */
export function columnsOf(sim: Simulator): Columns {
  return {
    time: sim.time(),
    dur: sim.dur(),
    cpu: sim.cpu(),
    kind: sim.kind(),
    mm: sim.mm(),
    asid: sim.asid(),
    gen: sim.gen(),
    addr: sim.addr(),
    arg: sim.arg(),
    parent: sim.parent(),
  };
}

/** Name of an event kind code, e.g. 5 → "IpiHandler". */
export function kindName(code: number): string {
  return EventKind[code] ?? `kind${code}`;
}
