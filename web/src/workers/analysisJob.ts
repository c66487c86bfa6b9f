// The flush analysis of a run a worker keeps (workers/protocol.ts AnalyzeRequest): the rows read
// a slice at a time from the worker's row source, through the same scan and accumulator as a
// page-held run's, yielding to the worker's message loop between slices so that window
// questions are still answered and a cancel is heard. No worker globals: the workers wire it,
// and the page runs it too, in smaller slices, over a large run it holds (no long task).
import { FlushAnalysisAccumulator } from '../model/flushAnalysis';
import { FlushScan, SCAN_COLUMNS, type ScanColumns } from '../model/flushScan';
import { RecordedCostsAccumulator } from '../model/recordedCosts';
import { SLICE, type RowSource } from '../model/rowSource';
import type { AnalysisMessage, AnalyzeRequest } from './protocol';

const cancelled = new Set<number>();

/**
 * Rows the page analyses at once; above, the page runs this job itself, this many rows a turn
 * of its event loop (each turn well under the 50 ms of a long task).
 */
export const AT_ONCE_ROWS = 1 << 14;

/** Asks the job `id` to stop at its next slice (it answers with a null analysis). */
export function cancelAnalysis(id: number): void {
  cancelled.add(id);
}

/** Progress at most this often (ms): a message per slice would flood a 10 M-row pass. */
const PROGRESS_EVERY = 100;

const nextTurn = () => new Promise<void>((go) => setTimeout(go, 0));

export async function runAnalysis(
  src: RowSource,
  req: AnalyzeRequest,
  post: (m: AnalysisMessage) => void,
  /** False once the rows are gone (a newer run replaced them): the pass stops there. */
  alive: () => boolean = () => true,
  /** Rows per slice, between two turns of the event loop. */
  slice = SLICE,
): Promise<void> {
  const { id } = req;
  const acc = new FlushAnalysisAccumulator(req.top);
  const costs = req.costs ? new RecordedCostsAccumulator({ irqsKnown: req.irqsKnown }) : null;
  const scan = new FlushScan(
    { irqsKnown: req.irqsKnown, ...(req.tasks ? { tasks: req.tasks } : {}) },
    (b) => {
      acc.add(b);
      costs?.add(b);
    },
  );
  let said = performance.now();
  try {
    for (let lo = 0; lo < src.rows; lo += slice) {
      if (cancelled.delete(id)) {
        post({ type: 'analysis', id, analysis: null });
        return;
      }
      if (!alive()) {
        post({ type: 'analysis', id, analysis: null, error: 'the run is gone' });
        return;
      }
      const hi = Math.min(src.rows, lo + slice);
      const cols = {} as Record<(typeof SCAN_COLUMNS)[number], unknown>;
      for (const name of SCAN_COLUMNS) cols[name] = src.read(name, lo, hi);
      scan.push(cols as ScanColumns, lo, hi - lo);
      const now = performance.now();
      if (now - said >= PROGRESS_EVERY) {
        said = now;
        post({ type: 'analysis-progress', id, rows: hi, total: src.rows });
      }
      await nextTurn();
    }
    scan.finish();
    cancelled.delete(id);
    post({ type: 'analysis', id, analysis: acc.result(), costs: costs?.result() ?? null });
  } catch (err) {
    post({ type: 'analysis', id, analysis: null, error: String(err) });
  }
}
