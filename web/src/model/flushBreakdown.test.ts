import { describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, toTrace } from '../trace/trace';
import { breakdownFlushes } from './flushScan';
import { analyzeFlushes, causeWords, percentiles } from './flushAnalysis';

type Row = [kind: number, cpu: number, time: number, dur: number, arg: number, parent: number];

/** A trace from rows as the simulator and the recording importer write them. */
function traceOf(rows: Row[], cpus = 4) {
  const col = <T extends Float64Array | Int32Array | Uint16Array | Uint8Array | Uint32Array>(
    make: (n: number) => T,
    f: (r: Row) => number,
  ) => {
    const a = make(rows.length);
    rows.forEach((r, i) => (a[i] = f(r)));
    return a;
  };
  return toTrace({
    kind: col(
      (n) => new Uint8Array(n),
      (r) => r[0],
    ),
    cpu: col(
      (n) => new Uint16Array(n),
      (r) => r[1],
    ),
    time: col(
      (n) => new Float64Array(n),
      (r) => r[2],
    ),
    dur: col(
      (n) => new Float64Array(n),
      (r) => r[3],
    ),
    arg: col(
      (n) => new Float64Array(n),
      (r) => r[4],
    ),
    parent: col(
      (n) => new Int32Array(n),
      (r) => r[5],
    ),
    mm: new Uint16Array(rows.length),
    asid: new Uint16Array(rows.length),
    gen: new Uint32Array(rows.length),
    addr: new Float64Array(rows.length),
    cpus,
    strings: [],
  });
}

const K = EventKind;

describe('breakdownFlushes', () => {
  it("cuts the model's munmap shootdown into a critical path that sums to its latency", () => {
    initSimulatorForNode();
    const { trace } = runScenario(readScenario('x86-munmap-shootdown'));
    const [b] = breakdownFlushes(trace);
    expect(b.targets.map((t) => t.cpu)).toEqual([1, 2, 3]);
    // CPU 3 was sent to last and acked last: the path runs through its IPI.
    expect(b.targets[b.last!].cpu).toBe(3);
    expect(b.path.map((p) => p.name)).toEqual(['entry', 'sends', 'delivery', 'handler', 'return']);
    expect(b.path.reduce((s, p) => s + (p.ns as number), 0)).toBe(b.latency);
    const t = b.targets[b.last!];
    expect(b.path[2].ns).toBe((t.entry as number) - t.send);
    expect(t.cause).toEqual({ kind: 'delivery' });
    expect(b.local).toBeGreaterThan(0);
  });

  it('names interrupts off on the target as what held the IPI, and another handler', () => {
    const rows: Row[] = [
      [K.FlushRange, 0, 0, 5000, 1, -1], // 0
      [K.IpiSent, 0, 100, 0, 1, 0], // 1 → CPU 1
      [K.IpiSent, 0, 200, 0, 2, 0], // 2 → CPU 2
      [K.TaskRun, 1, 0, 9000, 7, -1], // 3
      [K.TaskRun, 2, 0, 9000, 8, -1], // 4
      [K.IrqsOff, 1, 50, 3000, 0, -1], // 5: CPU 1 irqs off 50..3050
      [K.IpiHandler, 2, 150, 400, 9, -1], // 6: CPU 2 busy in another handler 150..550
      [K.IpiHandler, 1, 3050, 900, 0, 1], // 7
      [K.IpiHandler, 2, 550, 300, 0, 2], // 8
      [K.FlushTlbFunc, 1, 3100, 200, 1, 7], // 9
      [K.CsdUnlocked, 1, 3900, 0, 0, 7], // 10: ack to CPU 0
      [K.CsdUnlocked, 2, 800, 0, 0, 8], // 11
    ];
    const [b] = breakdownFlushes(traceOf(rows));
    expect(b.targets[0].cause).toEqual({
      kind: 'irqs-off',
      ns: 2950,
      inferred: false,
      task: null,
    });
    // The same span inferred from a held tick (a recording's arg 1), the task named.
    const recorded = rows.map((r, i): Row => (i === 5 ? [K.IrqsOff, 1, 50, 3000, 1, -1] : r));
    const [c] = breakdownFlushes(traceOf(recorded), { tasks: { 7: 'writer' } });
    expect(c.targets[0].cause).toEqual({
      kind: 'irqs-off',
      ns: 2950,
      inferred: true,
      task: { pid: 7, comm: 'writer' },
    });
    expect(causeWords(c.targets[0].cause, 1)).toBe(
      'CPU 1 had interrupts off in task writer (pid 7) when the IPI arrived (2.950 µs of the wait; inferred: the timer tick due meanwhile was taken only with the IPI)',
    );
    expect(b.targets[1].cause).toEqual({ kind: 'handler', ns: 350 });
    expect(b.targets[b.last!].cpu).toBe(1);
    expect(b.path.map((p) => [p.name, p.ns])).toEqual([
      ['entry', 100],
      ['sends', 0],
      ['delivery', 2950],
      ['handler', 850],
      ['return', 1100],
    ]);
    const a = analyzeFlushes(traceOf(rows));
    expect(a.slowest[0].why).toBe(
      'IPI delivery to CPU 1 (59 %): CPU 1 had interrupts off when the IPI arrived (2.950 µs of the wait)',
    );
    expect(a.lastToAck).toEqual([
      { cpu: 1, last: 1, by: { 'irqs-off': 1, handler: 0, idle: 0, delivery: 0, unknown: 0 } },
    ]);
  });

  it('leaves a part unknown where the trace lacks its events, and says an idle CPU was idle', () => {
    const rows: Row[] = [
      [K.FlushRange, 0, 0, 2000, 1, -1],
      [K.IpiSent, 0, 100, 0, 1, 0],
      [K.TaskRun, 0, 0, 9000, 7, -1],
      // CPU 1 runs nothing: idle. Its handler is recorded, its ack is not.
      [K.IpiHandler, 1, 900, 300, 0, 1],
    ];
    const [b] = breakdownFlushes(traceOf(rows));
    expect(b.targets[0].cause).toEqual({ kind: 'idle' });
    expect(b.targets[0].ack).toBeNull();
    expect(b.last).toBeNull();
    expect(b.path.filter((p) => p.ns === null).map((p) => p.name)).toEqual([
      'sends',
      'delivery',
      'handler',
      'return',
    ]);
    const a = analyzeFlushes(traceOf(rows));
    expect(a.unknown).toBe(1);
    expect(a.parts.delivery).toBeNull();
    // Without any task events, idle cannot be told from busy.
    const noTasks = breakdownFlushes(traceOf(rows.filter((r) => r[0] !== K.TaskRun)));
    expect(noTasks[0].targets[0].cause).toEqual({ kind: 'unknown', lacks: 'tasks' });
    // A running target of a trace that does not bound irqs-off sections: not "delivery".
    const busy: Row[] = [...rows, [K.TaskRun, 1, 0, 9000, 8, -1]];
    expect(breakdownFlushes(traceOf(busy))[0].targets[0].cause).toEqual({ kind: 'delivery' });
    expect(breakdownFlushes(traceOf(busy), { irqsKnown: false })[0].targets[0].cause).toEqual({
      kind: 'unknown',
      lacks: 'irqs',
    });
  });
});

describe('percentiles', () => {
  it('takes nearest ranks, and none of nothing', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentiles(v)).toEqual({ samples: 100, p50: 50, p90: 90, p99: 99, max: 100 });
    expect(percentiles([])).toBeNull();
  });
});
