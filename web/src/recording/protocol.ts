// Messages between the page and the recording worker. Columns travel as transferred buffers.
import type { PrebuiltView } from '../model/prebuilt';
import type { RecordingColumns } from './build';
import type { RecordingSummary } from './summary';
import type { LineIssue, RecordingFormat } from './types';

export interface ParseRequest {
  type: 'parse';
  name: string;
  /** A File is read as a stream (large recordings never sit in memory as one string). */
  input: Blob | string;
}

/** Everything of a Recording but its builder-internal counts. */
export interface ParsedRecording {
  name: string;
  format: RecordingFormat;
  lines: number;
  cpus: number;
  columns: RecordingColumns;
  tasks: Record<number, string>;
  unknown: Record<string, number>;
  issues: LineIssue[];
  issueCount: number;
  summary: RecordingSummary;
  startSeconds: number;
  /** The timeline's model in time spacing, built in the worker (null if that failed). */
  view?: PrebuiltView | null;
}

export type RecordingMessage =
  | { type: 'progress'; bytes: number; total: number; lines: number }
  | { type: 'done'; recording: ParsedRecording }
  | { type: 'error'; message: string };
