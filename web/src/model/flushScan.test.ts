// The scan a worker runs over a kept trace's slices gives what one pass over the whole trace
// gives, whatever the slice size, and keeps only the flushes in flight.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { parseRecording } from '../recording/parse';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { toTrace, type Trace } from '../trace/trace';
import { analyzeFlushes, FlushAnalysisAccumulator } from './flushAnalysis';
import type { BreakdownOptions, FlushBreakdown } from './flushBreakdown';
import { breakdownFlushes, FlushScan } from './flushScan';
import { columnSource, forEachSlice } from './rowSource';

/** The scan fed `size` rows at a time, as a worker feeds it its packed columns. */
function sliced(trace: Trace, size: number, opts: BreakdownOptions = {}) {
  const out: FlushBreakdown[] = [];
  let most = 0;
  const scan = new FlushScan(opts, (b) => out.push(b));
  const src = columnSource(trace);
  for (let lo = 0; lo < trace.n; lo += size) {
    const hi = Math.min(trace.n, lo + size);
    scan.push(
      {
        kind: src.read('kind', lo, hi),
        parent: src.read('parent', lo, hi),
        cpu: src.read('cpu', lo, hi),
        time: src.read('time', lo, hi),
        dur: src.read('dur', lo, hi),
        arg: src.read('arg', lo, hi),
      },
      lo,
      hi - lo,
    );
    most = Math.max(most, scan.inFlight);
  }
  scan.finish();
  return { out, most };
}

const recording = (name: string) => {
  const rec = parseRecording(
    readFileSync(resolve('tests/fixtures/recordings', name), 'utf8'),
    name,
  );
  return { trace: toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] }), rec };
};

test('a recording scanned in slices of 1, 7 and 4096 rows breaks down as in one pass', () => {
  const { trace, rec } = recording('madvise-touch-2cpu-console.trace');
  const opts = { irqsKnown: false, tasks: rec.tasks };
  const whole = breakdownFlushes(trace, opts);
  expect(whole.length).toBeGreaterThan(300);
  for (const size of [1, 7, 4096]) {
    const { out, most } = sliced(trace, size, opts);
    expect(out.sort((a, b) => a.row - b.row)).toEqual(whole);
    // One flush at a time is in flight in this benchmark (each waits for its IPI).
    expect(most).toBeLessThanOrEqual(2);
  }
});

test('a model run with a racing initiator (acks after its flush ended) scans the same', () => {
  initSimulatorForNode();
  const { trace } = runScenario(readScenario('x86-r2-percpu-wait-mask-race'));
  expect(sliced(trace, 3).out.sort((a, b) => a.row - b.row)).toEqual(breakdownFlushes(trace));
});

test('the analysis accumulated flush by flush, in any order, is the analysis of them all', () => {
  const { trace, rec } = recording('madvise-touch-2cpu-ticks.trace');
  const opts = { irqsKnown: false, tasks: rec.tasks };
  const all = breakdownFlushes(trace, opts);
  const acc = new FlushAnalysisAccumulator(5);
  for (const b of [...all].reverse()) acc.add(b);
  expect(acc.result()).toEqual(analyzeFlushes(trace, 5, opts));
  // forEachSlice, as the worker reads a RowSource, gives the same.
  const viaSlices = new FlushAnalysisAccumulator(5);
  const scan = new FlushScan(opts, (b) => viaSlices.add(b));
  forEachSlice(columnSource(trace), ['kind', 'parent', 'cpu', 'time', 'dur', 'arg'], (c, lo, n) =>
    scan.push(c, lo, n),
  );
  scan.finish();
  expect(viaSlices.result()).toEqual(acc.result());
});
