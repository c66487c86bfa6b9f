// The worker's analysis job over a row source: the page-held analysis's answer, progress while
// it reads, a cancel heard between slices, and a stop when its rows are gone.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { tracefsChunks } from '../../../bench/gen-tracefs.mjs';
import { analyzeFlushes } from '../model/flushAnalysis';
import { columnSource } from '../model/rowSource';
import { parseRecording } from '../recording/parse';
import { toTrace } from '../trace/trace';
import { cancelAnalysis, runAnalysis } from './analysisJob';
import type { AnalysisMessage } from './protocol';

const big = (() => {
  const rec = parseRecording([...tracefsChunks(400_000, 8)].join(''), 'big.trace');
  return { rec, trace: toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] }) };
})();

test('the job answers what the page-held analysis answers, over several slices', async () => {
  const { rec, trace } = big;
  expect(trace.n).toBeGreaterThan(3 * 65_536);
  const got: AnalysisMessage[] = [];
  const ask = { top: 5, irqsKnown: false, tasks: rec.tasks };
  await runAnalysis(columnSource(trace), { type: 'analyze', id: 1, run: 1, ...ask }, (m) =>
    got.push(m),
  );
  const last = got.at(-1);
  expect(last?.type).toBe('analysis');
  expect(last?.type === 'analysis' && last.analysis).toEqual(
    analyzeFlushes(trace, 5, { irqsKnown: false, tasks: rec.tasks }),
  );
});

test('a cancel is heard at the next slice; a run gone stops it with a reason', async () => {
  const { trace } = big;
  const req = { type: 'analyze' as const, id: 2, run: 1, top: 5, irqsKnown: true, tasks: null };
  const got: AnalysisMessage[] = [];
  const job = runAnalysis(columnSource(trace), req, (m) => got.push(m));
  // Asked while the first slice is read: the job stops before the second.
  cancelAnalysis(2);
  await job;
  expect(got.at(-1)).toEqual({ type: 'analysis', id: 2, analysis: null });
  for (const m of got.slice(0, -1))
    expect(m).toEqual({ type: 'analysis-progress', id: 2, rows: 65_536, total: trace.n });
  const gone: AnalysisMessage[] = [];
  await runAnalysis(
    columnSource(trace),
    { ...req, id: 3 },
    (m) => gone.push(m),
    () => false,
  );
  expect(gone).toEqual([{ type: 'analysis', id: 3, analysis: null, error: 'the run is gone' }]);
});

test('a small recording read in one slice gives the named cause', async () => {
  const name = 'madvise-touch-2cpu-console.trace';
  const rec = parseRecording(
    readFileSync(resolve('tests/fixtures/recordings', name), 'utf8'),
    name,
  );
  const trace = toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] });
  const got: AnalysisMessage[] = [];
  await runAnalysis(
    columnSource(trace),
    { type: 'analyze', id: 4, run: 1, top: 1, irqsKnown: false, tasks: rec.tasks },
    (m) => got.push(m),
  );
  const a = got.at(-1);
  expect(a?.type === 'analysis' && a.analysis?.slowest[0].why).toMatch(
    /CPU 1 had interrupts off in task madvise_touch/,
  );
});
