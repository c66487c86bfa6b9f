// Messages between the page and the simulator worker. Columns travel as transferable
// ArrayBuffers: moved, not copied, across the thread boundary.
import type { PrebuiltView } from '../model/prebuilt';
import type { Spacing } from '../model/spacing';
import type { CheckReport } from '../sim/check';
import type { ScenarioInfo } from '../sim/scenario';
import type { LaneBuckets } from '../model/traceWindow';
import type { LensInterval } from '../model/lens';
import type { LensExtent } from '../model/lensExtent';
import type { FlushAnalysis } from '../model/flushAnalysis';
import type { RecordedCosts } from '../model/recordedCosts';
import type { FlushFacts, Violated } from '../model/flushMatch';
import type { WindowArrow } from '../model/windowTrace';
import type { WindowGenerations } from '../model/windowGenerations';
import type { Columns, Summary } from '../trace/trace';

/** A recording's own columns of a slice of rows (recording/build.ts), aligned with it. */
export interface SliceColumns {
  reason: Int8Array;
  pages: Float64Array;
  line: Int32Array;
}

/**
 * A run (or an imported recording) with more rows than this stays in its worker: the page gets
 * no columns and its timeline asks for per-pixel aggregates and a window's rows (QueryRequest).
 * Below it the page holds the columns, which the guide's steps, A/B matching, the latency
 * lens and the event log read whole.
 */
export const REMOTE_ABOVE_ROWS = 2_000_000;

export interface RunRequest {
  type: 'run';
  id: number;
  text: string;
  overrides: string[];
  seed: number;
  /** Check this step (0-based) of the scenario against the finished run. */
  checkStep?: number;
  /** Build the timeline's model after the run and send it as a 'view' message. */
  view: boolean;
  /** Keep a drawn run of more rows than this in the worker (default REMOTE_ABOVE_ROWS). */
  remoteAbove?: number;
  /** Send the run's summary only, no trace columns (a run read for its figures). */
  summaryOnly?: boolean;
}

/**
 * Check every interleaving of a scenario (sim/check.ts): 'check-progress' messages, then a
 * 'done' carrying the report, whose run is the counterexample (violated) or the seeded run.
 */
export interface CheckRequest {
  type: 'check';
  id: number;
  text: string;
  overrides: string[];
  seed: number;
  /** As RunRequest's, for the run the verdict is drawn with. */
  remoteAbove?: number;
}

/** Parse scenarios without running them (titles, hooks, steps for the landing page). */
export interface DescribeRequest {
  type: 'describe';
  id: number;
  texts: string[];
}

/** The timeline's model of run `run` (the worker's last) in `spacing`, as a 'view' message. */
export interface ViewRequest {
  type: 'view';
  id: number;
  run: number;
  spacing: Spacing;
}

/** The machine's state at `t` of the worker's last finished run (see snapshot.rs). */
export interface SnapshotRequest {
  type: 'snapshot';
  id: number;
  t: number;
}

/**
 * Questions about the worker's last finished run, which it keeps (so the page need not hold
 * the whole trace): per-lane time-bucket aggregates of a window, the rows touching a window,
 * and what the worker holds per event. Latest wins per type: a newer question of the same type
 * supersedes one not yet answered, which gets a 'stale' reply.
 */
export type QueryRequest =
  | {
      type: 'lanes';
      id: number;
      run: number;
      t0: number;
      t1: number;
      buckets: number;
      /** Kinds in the order a cell is drawn in: then the answer is toDrawn's (traceWindow.ts). */
      priority?: number[];
    }
  | { type: 'rows'; id: number; run: number; t0: number; t1: number; limit: number }
  | { type: 'memory'; id: number; run: number }
  /** Row `row` and the rows that caused it (parent links), for the inspector. */
  | { type: 'chain'; id: number; run: number; row: number }
  /**
   * The event log's page of a window: rows starting in [t0, t1] (events.ts rowsInWindow),
   * from the `offset`-th, at most `limit`.
   */
  | { type: 'log'; id: number; run: number; t0: number; t1: number; offset: number; limit: number }
  /** The latency lens's intervals touching [t0, t1] (lens.ts on the window, windowTrace.ts). */
  | {
      type: 'lens';
      id: number;
      run: number;
      t0: number;
      t1: number;
      kinds: string[];
      contextSwitchNs: number;
    }
  /** IPI and ack arrows touching [t0, t1] (ipis.ts on the window), at most `limit`. */
  | { type: 'arrows'; id: number; run: number; t0: number; t1: number; limit: number }
  /** The run's flushes as flushMatch.ts flushesOf finds them (A/B matching); `strings`: the run's. */
  | { type: 'flushes'; id: number; run: number; strings: string[] }
  /** As 'rows', for an export of the window (its own type, so the timeline's do not overtake it). */
  | { type: 'export'; id: number; run: number; t0: number; t1: number; limit: number }
  /**
   * Rows first … first + count − 1 with every column (a recording's own too), for the export
   * of the whole run a slice at a time; at most rowSource.ts SLICE rows.
   */
  | { type: 'slice'; id: number; run: number; first: number; count: number }
  /**
   * Rows of `kinds` touching [t0, t1] on `cpus` (all when empty), round-robin across kinds, at
   * most `limit` (model/guide.ts RowPicker: a guided step's highlight).
   */
  | {
      type: 'pick';
      id: number;
      run: number;
      kinds: number[];
      cpus: number[];
      t0: number;
      t1: number;
      limit: number;
    }
  /** What the legend and the summary need of the whole run (one pass, then kept). */
  | { type: 'facts'; id: number; run: number }
  /**
   * How far the lens's intervals of `kinds` reach on each CPU over the whole run
   * (model/lensExtent.ts): what widens a guided step's frame (one pass, then kept).
   */
  | {
      type: 'lensExtent';
      id: number;
      run: number;
      kinds: string[];
      contextSwitchNs: number;
    }
  /** The tlb_gen charts of [t0, t1] at `width` pixel columns (model/windowGenerations.ts). */
  | { type: 'generations'; id: number; run: number; t0: number; t1: number; width: number }
  | StepRequest;

/**
 * Stepping a run kept in its worker (workers/stepServer.ts): `count` steps in direction `dir`
 * from row `row` (the selection, or null) with the cursor at `t`, as model/stepping.ts
 * walkRows steps a run on the page; count 0 asks only for row `row`'s time. And the A/B
 * log's "flushes that differ" page of [t0, t1]: the rows starting there that belong to the
 * flushes `flushes` (their FlushRange rows; model/flushRows.ts), from the `offset`-th.
 */
export type StepRequest =
  | {
      type: 'step';
      id: number;
      run: number;
      row: number | null;
      t: number;
      dir: 1 | -1;
      count: number;
    }
  | {
      type: 'difflog';
      id: number;
      run: number;
      flushes: Int32Array;
      t0: number;
      t1: number;
      offset: number;
      limit: number;
    }
  /** Row `row`'s flush, its FlushRange row (model/flushRows.ts flushOfRow). */
  | { type: 'flushof'; id: number; run: number; row: number };

/**
 * Every window question's type, which its answer carries too (besides 'stale' and
 * 'query-error'): the worker queues these, the session takes these as answers. A Record, so a
 * new kind of question that is not listed here fails to compile.
 */
const QUERY_TYPES: Record<QueryRequest['type'], true> = {
  lanes: true,
  rows: true,
  memory: true,
  chain: true,
  log: true,
  lens: true,
  arrows: true,
  export: true,
  flushes: true,
  slice: true,
  pick: true,
  lensExtent: true,
  facts: true,
  generations: true,
  step: true,
  difflog: true,
  flushof: true,
};

/** A window question, or its answer: a message whose type is one of QUERY_TYPES. */
export function isQuery<M extends { type: string }>(
  m: M,
): m is Extract<M, { type: QueryRequest['type'] }> {
  return Object.hasOwn(QUERY_TYPES, m.type);
}

/** Answers to StepRequest: the row reached (-1: none), its time and duration; a log page. */
export type StepMessage =
  | { type: 'step'; id: number; row: number; time: number; dur: number }
  | { type: 'difflog'; id: number; rows: Int32Array; total: number; columns: Columns }
  | { type: 'flushof'; id: number; row: number; flush: number };

/** Answers to QueryRequest, under its id; `error` when the run is gone or the question bad. */
export type QueryMessage =
  | { type: 'lanes'; id: number; buckets: LaneBuckets }
  /** total -1: too many rows in the window to read (none listed; the page draws aggregates). */
  | { type: 'rows'; id: number; rows: Int32Array; columns: Columns; total: number }
  /** The chain's rows, oldest cause first, the asked row last. */
  | { type: 'chain'; id: number; rows: Int32Array; columns: Columns }
  /** Rows first … first + columns' length − 1 (consecutive), of `total` starting in the window. */
  | { type: 'log'; id: number; first: number; total: number; columns: Columns }
  /** null: the window (with its margin) has too many rows to read; zoom in. */
  | { type: 'lens'; id: number; intervals: LensInterval[] | null }
  /** The run's flushes and the violations no flush explains (no per-row flush: rows stay). */
  | { type: 'flushes'; id: number; flushes: FlushFacts[]; unattributed: Violated[] }
  /** As 'rows' (total -1: too many to read; more than listed: over the limit). */
  | { type: 'export'; id: number; rows: Int32Array; columns: Columns; total: number }
  | { type: 'pick'; id: number; rows: Int32Array; columns: Columns }
  /** One entry per CPU that has such intervals, ascending CPUs. */
  | { type: 'lensExtent'; id: number; extents: LensExtent[] }
  /**
   * The kinds the run has, its IPI sends no handler answers (model/legend.ts legendOfKinds),
   * and its first invariant violations (at most workers/windowServer.ts MAX_VIOLATIONS).
   */
  | {
      type: 'facts';
      id: number;
      kinds: number[];
      unpaired: number;
      violations: { rows: Int32Array; columns: Columns };
    }
  /** null: the charts are too large to keep or send; `note` says why. */
  | { type: 'generations'; id: number; mms: WindowGenerations[] | null; note: string }
  /** Consecutive rows from `first`; `extras` for a kept recording (its reason, pages, line). */
  | { type: 'slice'; id: number; first: number; columns: Columns; extras?: SliceColumns }
  /** null: too many rows to read, or more arrows than `limit` (`total`, -1 when not counted). */
  | { type: 'arrows'; id: number; arrows: WindowArrow[] | null; total: number }
  | {
      type: 'memory';
      id: number;
      rows: number;
      /** The WASM instance's linear memory (it holds the simulator's own trace). */
      wasmBytes: number;
      /** Columns the worker keeps beside the store (a small run's copy for its model). */
      columnBytes: number;
      /** The window index: the per-CPU grid and the long spans (model/rowSource.ts). */
      indexBytes: number;
      /** The pass over the run that built the index, in ms (before 'done' is sent). */
      indexMs: number;
    }
  | StepMessage
  | { type: 'stale'; id: number }
  | { type: 'query-error'; id: number; message: string };

/**
 * "Why was each flush slow?" over a run kept in its worker: one pass over its rows a slice at a
 * time (workers/analysisJob.ts), answered with progress and then the analysis; not a window
 * question, so no newer question overtakes it. Cancelled by its id.
 */
export interface AnalyzeRequest {
  type: 'analyze';
  id: number;
  run: number;
  top: number;
  irqsKnown: boolean;
  /** A recording's pid → command (its tasks are named by pid); null for a model run. */
  tasks: Record<number, string> | null;
  /** The costs the rows measure too (model/recordedCosts.ts), for "Model this recording". */
  costs?: boolean;
}

export interface AnalyzeCancel {
  type: 'analyze-cancel';
  id: number;
}

export type AnalysisMessage =
  | { type: 'analysis-progress'; id: number; rows: number; total: number }
  /** `analysis` null: cancelled, or `error` says what stopped it. */
  | {
      type: 'analysis';
      id: number;
      analysis: FlushAnalysis | null;
      /** When asked for (AnalyzeRequest.costs). */
      costs?: RecordedCosts | null;
      error?: string;
    };

export type WorkerMessage =
  | QueryMessage
  | AnalysisMessage
  /** After 'done', before 'view': the whole run's lane aggregates (windowServer.ts overview). */
  | { type: 'overview'; id: number; buckets: LaneBuckets }
  | { type: 'progress'; id: number; events: number; nowNs: number }
  | { type: 'check-progress'; id: number; states: number; transitions: number; depth: number }
  | {
      type: 'done';
      id: number;
      title: string;
      description: string;
      cpus: number;
      summary: Summary;
      /** Empty when `remote` is set: the rows stay in the worker. */
      columns: Columns;
      /** Set for a run too large to send: its size and extent (see trace.ts Trace.remote). */
      remote: { rows: number; end: number } | null;
      strings: string[];
      info: ScenarioInfo;
      /** The step check's problem, '' when the step fits, null when none was asked. */
      stepProblem: string | null;
      /** Set when the run's budget stopped it early: the trace is the partial run. */
      budgetError: string | null;
      /** A check's verdict (CheckRequest); absent for a plain run. */
      check?: CheckReport;
    }
  /** After 'done': the timeline's model of the run, built in the worker (null if it failed). */
  | { type: 'view'; id: number; view: PrebuiltView | null; error?: string }
  | { type: 'described'; id: number; infos: ScenarioInfo[] }
  | { type: 'snapshot'; id: number; json: string }
  | {
      type: 'error';
      id: number;
      path: string;
      line: number;
      message: string;
      scenario: boolean;
      /** The WASM instance trapped: the worker must be replaced. */
      trap?: boolean;
    };
