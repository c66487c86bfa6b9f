// Messages between the page and the recording worker. Columns travel as transferred buffers.
// A recording above its remote threshold stays in the worker, which then answers the same
// window questions as the simulator's worker (workers/protocol.ts QueryRequest), plus
// 'recorded' (what only a recording knows of a row).
import type { PrebuiltView } from '../model/prebuilt';
import type { AnalysisMessage, QueryMessage, QueryRequest } from '../workers/protocol';
import type { RecordingColumns } from './build';
import type { ImportSketch } from './sketch';
import type { RecordingSummary } from './summary';
import type { FlagInstants, LineIssue, RecordingFormat } from './types';

export interface ParseRequest {
  type: 'parse';
  name: string;
  /** A File is read as a stream (large recordings never sit in memory as one string). */
  input: Blob | string;
  /**
   * A recording of more rows than this stays in the worker (default: never). The page's
   * import passes workers/protocol.ts REMOTE_ABOVE_ROWS, or the link's `remote=` override.
   */
  remoteAbove?: number;
}

/** Everything of a Recording but its builder-internal counts. */
export interface ParsedRecording {
  name: string;
  format: RecordingFormat;
  lines: number;
  cpus: number;
  /** Empty when `remote` is set: the rows stay in the worker. */
  columns: RecordingColumns;
  tasks: Record<number, string>;
  unknown: Record<string, number>;
  issues: LineIssue[];
  issueCount: number;
  summary: RecordingSummary;
  startSeconds: number;
  /** The timeline's model in time spacing, built in the worker (null if that failed). */
  view?: PrebuiltView | null;
  /** Set when the rows stay in the worker: their count and extent (trace.ts Trace.remote). */
  remote?: { rows: number; end: number } | null;
  /** The CPU that sends the most IPIs (-1 if none), found where the rows are. */
  initiator?: number;
  /** Single events' irqs-off / preempt-off flags as instants (absent when the rows are remote). */
  flagged?: FlagInstants;
}

/** Row `row`'s source line, flush reason and pages, and the kind and arg that say its task. */
export interface RecordedRequest {
  type: 'recorded';
  id: number;
  run: number;
  row: number;
}

export interface RecordedFields {
  row: number;
  line: number;
  reason: number;
  pages: number;
  kind: number;
  arg: number;
}

/** What the page asks a worker that kept its recording. */
export type RecordingQuery = QueryRequest | RecordedRequest;

/** How far a read has got, and a sketch of the rows so far (the page draws it meanwhile). */
export interface ImportProgress {
  bytes: number;
  total: number;
  lines: number;
  sketch: ImportSketch;
}

export type RecordingMessage =
  | ({ type: 'progress' } & ImportProgress)
  | { type: 'done'; recording: ParsedRecording }
  | { type: 'error'; message: string }
  | QueryMessage
  | AnalysisMessage
  | ({ type: 'recorded'; id: number } & RecordedFields);
