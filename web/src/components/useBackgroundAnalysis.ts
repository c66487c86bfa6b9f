// "Why was each flush slow?" for a run too large to analyse in one go: over a run kept in its
// worker, asked of that worker (TraceWindow.analyze); over a large run the page holds, run here
// a slice at a time between frames (workers/analysisJob.ts), so no task blocks the page. With
// the rows read so far, cancellable, and started again on demand. Null for a small run, which
// the caller analyses at once.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FlushAnalysis } from '../model/flushAnalysis';
import type { RecordedCosts } from '../model/recordedCosts';
import { columnSource } from '../model/rowSource';
import type { Trace } from '../trace/trace';
import { AT_ONCE_ROWS, cancelAnalysis, runAnalysis } from '../workers/analysisJob';
import { AnalysisJobs, type AnalysisAsk, type AnalysisJob } from '../workers/analysisJobs';
import { traceWindowOf } from '../workers/session';

export type BackgroundAnalysis =
  | { status: 'running'; rows: number; total: number }
  | { status: 'done'; analysis: FlushAnalysis; costs: RecordedCosts | null }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string };

let nextPageJob = 1;

/**
 * The analysis of a run the page holds, a slice at a time, answered through the same job
 * tracker as a worker's (its messages, posted here instead of by a worker).
 */
function onThePage(
  trace: Trace,
  ask: AnalysisAsk,
  onProgress: (rows: number, total: number) => void,
): AnalysisJob {
  const jobs = new AnalysisJobs();
  return jobs.start(
    (m) => {
      if (m.type === 'analyze-cancel') cancelAnalysis(m.id);
      else
        void runAnalysis(
          columnSource(trace),
          m,
          (msg) => jobs.receive(msg),
          () => true,
          AT_ONCE_ROWS,
        );
    },
    nextPageJob++,
    0,
    ask,
    onProgress,
  );
}

export function useBackgroundAnalysis(
  trace: Trace,
  ask: AnalysisAsk,
  /** False: nothing is started (the caller has not been asked yet). */
  enabled = true,
): { state: BackgroundAnalysis | null; cancel: () => void; again: () => void } {
  const [state, setState] = useState<BackgroundAnalysis | null>(null);
  const [round, setRound] = useState(0);
  const job = useRef<AnalysisJob | null>(null);
  const { top, irqsKnown, tasks, costs } = ask;
  useEffect(() => {
    const client = trace.remote ? traceWindowOf(trace) : null;
    const total = trace.remote ? trace.remote.rows : trace.n;
    if (!enabled || (trace.remote ? !client : total <= AT_ONCE_ROWS)) {
      setState(null);
      return;
    }
    let live = true;
    setState({ status: 'running', rows: 0, total });
    const progress = (rows: number, of: number) => {
      if (live) setState({ status: 'running', rows, total: of });
    };
    const j = client
      ? client.analyze({ top, irqsKnown, tasks, costs }, progress)
      : onThePage(trace, { top, irqsKnown, tasks, costs }, progress);
    job.current = j;
    j.done.then(
      (r) => {
        if (live) setState(r ? { status: 'done', ...r } : { status: 'cancelled' });
      },
      (err: unknown) => {
        if (live) setState({ status: 'failed', message: String(err) });
      },
    );
    return () => {
      live = false;
      j.cancel();
      job.current = null;
    };
  }, [trace, top, irqsKnown, tasks, costs, round, enabled]);
  const cancel = useCallback(() => job.current?.cancel(), []);
  const again = useCallback(() => setRound((r) => r + 1), []);
  return { state, cancel, again };
}
