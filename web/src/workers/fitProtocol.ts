// Messages between the page and the fit worker (fitWorker.ts).
import type { FitResult, FitRow } from '../model/fitCore.mjs';

export interface FitRequest {
  id: number;
  rows: FitRow[];
  /** Scenario text by id, for every scenario the rows' benchmarks name. */
  texts: Record<string, string>;
  maxRuns: number;
}

export type FitReply =
  | { type: 'progress'; id: number; line: string }
  | {
      type: 'fitted';
      id: number;
      result: FitResult;
      skipped: { line: number; reason: string }[];
    }
  | { type: 'error'; id: number; message: string };
