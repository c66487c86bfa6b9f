// The page's side of workers/analysisJob.ts: a started analysis per id, its progress and its
// end routed from the worker's messages. SimSession and RecordingWindow each keep one, with
// ids from their own counter so that an analysis never answers a window question.
import type { FlushAnalysis } from '../model/flushAnalysis';
import type { RecordedCosts } from '../model/recordedCosts';
import type { AnalysisMessage, AnalyzeRequest } from './protocol';

/** What a whole-run pass answers: the analysis, and the costs the rows measure when asked. */
export interface AnalysisResult {
  analysis: FlushAnalysis;
  costs: RecordedCosts | null;
}

/** A whole-run analysis under way in a worker. */
export interface AnalysisJob {
  /** The result; null when cancelled. Rejects when the worker could not finish it. */
  done: Promise<AnalysisResult | null>;
  cancel(): void;
}

export type AnalysisAsk = Pick<AnalyzeRequest, 'top' | 'irqsKnown' | 'tasks' | 'costs'>;

interface Waiting {
  onProgress: (rows: number, total: number) => void;
  resolve: (a: AnalysisResult | null) => void;
  reject: (e: Error) => void;
}

export class AnalysisJobs {
  private readonly waiting = new Map<number, Waiting>();

  start(
    post: (msg: AnalyzeRequest | { type: 'analyze-cancel'; id: number }) => void,
    id: number,
    run: number,
    ask: AnalysisAsk,
    onProgress: (rows: number, total: number) => void,
  ): AnalysisJob {
    const done = new Promise<AnalysisResult | null>((resolve, reject) => {
      this.waiting.set(id, { onProgress, resolve, reject });
    });
    post({ type: 'analyze', id, run, ...ask });
    return { done, cancel: () => post({ type: 'analyze-cancel', id }) };
  }

  /** Takes `m` if it is an analysis's: true when it was. */
  receive(m: { type: string; id?: number }): boolean {
    if (m.type !== 'analysis-progress' && m.type !== 'analysis') return false;
    const a = m as AnalysisMessage;
    const w = this.waiting.get(a.id);
    if (!w) return true;
    if (a.type === 'analysis-progress') w.onProgress(a.rows, a.total);
    else {
      this.waiting.delete(a.id);
      if (a.error) w.reject(new Error(a.error));
      else w.resolve(a.analysis && { analysis: a.analysis, costs: a.costs ?? null });
    }
    return true;
  }

  /** The worker is gone: every analysis under way fails with `why`. */
  end(why: string): void {
    for (const w of this.waiting.values()) w.reject(new Error(why));
    this.waiting.clear();
  }
}
