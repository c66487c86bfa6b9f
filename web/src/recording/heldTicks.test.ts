// Interrupts-off stretches inferred from a timer tick held with a late IPI: the pure rule on
// made-up times, then the two recordings made with the kit on this project's 2-CPU guest, one
// whose busy thread wrote to the serial console (interrupts off for ~10 ms a line) and one
// whose busy thread only spun.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { analyzeFlushes } from '../model/flushAnalysis';
import { EventKind, toTrace } from '../trace/trace';
import { heldInterrupts, tickPeriod } from './heldTicks';
import { parseRecording } from './parse';
import { formatRecording } from './report';

const MS = 1e6;
// CPU 0 ticks every 4 ms; CPU 1 likewise until a stall from 8 ms on.
const steady = (from: number, to: number) =>
  Array.from({ length: (to - from) / 4 + 1 }, (_, i) => (from + 4 * i) * MS);

test('the tick period is the pooled median gap, whatever one stalled CPU shows', () => {
  const ticks = new Map([
    [0, steady(0, 40)],
    [1, [0, 10.2, 20.4, 30.6].map((t) => t * MS)],
  ]);
  expect(tickPeriod(ticks)).toBe(4 * MS);
  expect(tickPeriod(new Map([[0, [0, 4 * MS]]]))).toBeNull();
});

test('a late IPI taken together with an overdue tick is interrupts off, from its send', () => {
  // The IPI is sent at 9 ms; the tick due at 12 ms waits, and both are taken at 18 ms.
  const ticks = new Map([
    [0, steady(0, 40)],
    [1, [...steady(0, 8), 18.01 * MS, ...steady(20, 40)]],
  ]);
  const spans = heldInterrupts(ticks, [{ cpu: 1, send: 9 * MS, entry: 18 * MS, line: 7 }]);
  expect(spans).toEqual([
    { cpu: 1, start: 9 * MS, end: 18 * MS, line: 7, tickDue: 12 * MS, tickTaken: 18.01 * MS },
  ]);
});

test('no inference when a tick came during the wait, came apart from the IPI, or was not due', () => {
  const base = steady(0, 40);
  const at = (extra: number[]) =>
    new Map([
      [0, base],
      [1, [...steady(0, 8), ...extra, ...steady(20, 40)].sort((a, b) => a - b)],
    ]);
  const late = { cpu: 1, send: 9 * MS, entry: 18 * MS, line: 1 };
  // A tick taken at 12 ms, while the IPI waited: interrupts were on then.
  expect(heldInterrupts(at([12 * MS, 18.01 * MS]), [late])).toEqual([]);
  // The tick came 1 ms after the handler: not taken together.
  expect(heldInterrupts(at([19 * MS]), [late])).toEqual([]);
  // A short wait inside one period: no tick was due.
  const short = { cpu: 1, send: 9 * MS, entry: 9.2 * MS, line: 1 };
  expect(
    heldInterrupts(
      new Map([
        [0, base],
        [1, base],
      ]),
      [short],
    ),
  ).toEqual([]);
  // No ticks recorded on the target.
  expect(heldInterrupts(new Map([[0, base]]), [late])).toEqual([]);
});

test('deliveries inside one stall become one span', () => {
  const ticks = new Map([
    [0, steady(0, 40)],
    [1, [...steady(0, 8), 18.01 * MS, ...steady(20, 40)]],
  ]);
  const spans = heldInterrupts(ticks, [
    { cpu: 1, send: 9 * MS, entry: 17.99 * MS, line: 1 },
    { cpu: 1, send: 10 * MS, entry: 18 * MS, line: 2 },
  ]);
  expect(spans.map((s) => [s.start, s.end])).toEqual([[9 * MS, 18 * MS]]);
});

const read = (name: string) =>
  parseRecording(readFileSync(resolve('tests/fixtures/recordings', name), 'utf8'), name);

test('the console recording: CPU 1 had interrupts off in madvise_touch, inferred from its tick', () => {
  const rec = read('madvise-touch-2cpu-console.trace');
  expect(rec.summary.irqs_off_inferred).toBeGreaterThan(5);
  // Inferred spans are drawn, but measured statistics stay for bounded sections only.
  expect(rec.summary.irqs_off_ns.count).toBe(0);
  expect(formatRecording(rec)).toMatch(/irqs off, inferred: \d+ stretches/);
  const c = rec.columns;
  const spans = [...c.kind.keys()].filter((i) => c.kind[i] === EventKind.IrqsOff);
  expect(spans.every((i) => c.cpu[i] === 1 && c.arg[i] === 1 && c.dur[i] > 1 * MS)).toBe(true);
  const trace = toTrace({ ...c, cpus: rec.cpus, strings: [] });
  const a = analyzeFlushes(trace, 3, { irqsKnown: false, tasks: rec.tasks });
  for (const w of a.slowest) {
    expect(w.why).toMatch(
      /IPI delivery to CPU 1 \(\d+ %\): CPU 1 had interrupts off in task madvise_touch \(pid \d+\) when the IPI arrived \(\d+\.\d+ ms of the wait; inferred: the timer tick due meanwhile was taken only with the IPI\)/,
    );
  }
  expect(a.lastToAck.find((l) => l.cpu === 1)?.by['irqs-off']).toBeGreaterThan(5);
});

test('the same made with perf (perf script --ns): the same cause, from the same rule', () => {
  const rec = read('madvise-touch-2cpu-console-perf.txt');
  expect(rec.format).toBe('perf');
  expect(rec.unknown).toEqual({});
  expect(rec.summary.irqs_off_inferred).toBeGreaterThan(5);
  const trace = toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] });
  const [slowest] = analyzeFlushes(trace, 1, { irqsKnown: false, tasks: rec.tasks }).slowest;
  expect(slowest.why).toMatch(/CPU 1 had interrupts off in task madvise_touch \(pid \d+\)/);
});

test('the quiet recording, ticks recorded too: nothing inferred, no interrupts-off cause', () => {
  const rec = read('madvise-touch-2cpu-ticks.trace');
  expect(rec.summary.irqs_off_inferred).toBe(0);
  const trace = toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] });
  const a = analyzeFlushes(trace, 5, { irqsKnown: false, tasks: rec.tasks });
  expect(a.slowest.length).toBe(5);
  for (const w of a.slowest) expect(w.why).not.toMatch(/interrupts off/);
});
