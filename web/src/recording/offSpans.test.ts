// Interrupts-off and preemption-off spans only where recorded events bound them: a single event's
// flags are an instant, never a span joined across events, and a recording without
// disable/enable events says the spans are unknown instead of giving a number.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { diffSummaries } from '../model/compare';
import { EventKind, type Summary } from '../trace/trace';
import { KNOWN_EVENTS } from './build';
import { parseRecording } from './parse';
import { formatRecording } from './report';

const loaded = 'madvise-touch-kvm-2cpu-loaded.trace';
const text = readFileSync(resolve('content/recordings', loaded), 'utf8');
const lines = text.split('\n');
const flagsOf = (l: string) => /\]\s+(\S{5})\s+\d+\.\d+:/.exec(l)?.[1];

test('flagged events of a real recording are counted, never joined into spans', () => {
  const rec = parseRecording(text, loaded);
  const c = rec.columns;
  // Before, flagged events ≤ 20 µs apart were joined: spans up to 690 µs in this recording.
  for (let i = 0; i < c.time.length; i++) {
    expect(c.kind[i]).not.toBe(EventKind.IrqsOff);
    expect(c.kind[i]).not.toBe(EventKind.PreemptOff);
  }
  const known = lines.filter((l) => KNOWN_EVENTS.has(/\d: (\w+): /.exec(l)?.[1] ?? ''));
  const flagged = (test: (f: string) => boolean) =>
    known.filter((l) => test(flagsOf(l) ?? '.....')).length;
  expect(rec.summary.irqs_off_marks).toBe(flagged((f) => f[0] === 'd'));
  expect(rec.summary.preempt_off_marks).toBe(flagged((f) => f[3] !== '.' && f[3] !== '0'));
  expect(rec.summary.irqs_off_marks).toBeGreaterThan(100);
  expect(rec.summary.irqs_off_ns.count).toBe(0);
  expect(rec.summary.preempt_off_ns.count).toBe(0);
  expect(rec.summary.irqs_off_unknown).toBe(
    'unknown (the recording has no irq_disable/irq_enable events)',
  );
  expect(formatRecording(rec)).toMatch(
    /irqs off: unknown \(the recording has no irq_disable\/irq_enable events\); \d+ events carry the flag/,
  );
});

test('A/B shows preemption off as unknown on the recording side, with no difference', () => {
  const rec = parseRecording(text, loaded);
  const model = {
    ...rec.summary,
    preempt_off_unknown: undefined,
    preempt_off_ns: { count: 3, mean: 3800, p50: 3800, p99: 3800, max: 3800 },
  } as unknown as Summary;
  const row = diffSummaries(rec.summary, model).find((r) => r.metric === 'Preemption off, p99');
  expect(row).toMatchObject({
    a: null,
    b: 3800,
    delta: null,
    aUnknown: rec.summary.preempt_off_unknown,
  });
});

const ev = (cpu: number, us: number, flags: string, name: string, body: string) =>
  `            bash-100     [00${cpu}] ${flags}  100.${String(us).padStart(6, '0')}: ${name}: ${body}`;

test('irq_disable … irq_enable and preempt_disable … preempt_enable make spans of their length', () => {
  const trace = [
    '# tracer: nop',
    ev(0, 10, '...1.', 'tlb_flush', 'pages:1 reason:local MM shootdown (3)'),
    ev(0, 20, 'd..1.', 'irq_disable', 'caller=a+0x1/0x2 parent=b+0x1/0x2'),
    ev(0, 25, 'd..1.', 'tlb_flush', 'pages:1 reason:local MM shootdown (3)'),
    ev(1, 30, '...1.', 'preempt_disable', 'caller=a+0x1/0x2 parent=b+0x1/0x2'),
    ev(0, 65, '...1.', 'irq_enable', 'caller=a+0x1/0x2 parent=b+0x1/0x2'),
    ev(1, 130, '.....', 'preempt_enable', 'caller=a+0x1/0x2 parent=b+0x1/0x2'),
    // An enable whose disable came before the recording bounds nothing.
    ev(1, 140, '.....', 'irq_enable', 'caller=a+0x1/0x2 parent=b+0x1/0x2'),
  ].join('\n');
  const rec = parseRecording(trace, 'bounded.trace');
  expect(rec.issueCount).toBe(0);
  expect(rec.summary.irqs_off_unknown).toBeNull();
  expect(rec.summary.preempt_off_unknown).toBeNull();
  expect(rec.summary.irqs_off_ns).toMatchObject({ count: 1, max: 45e3 });
  expect(rec.summary.preempt_off_ns).toMatchObject({ count: 1, max: 100e3 });
  expect(formatRecording(rec)).toMatch(/irqs off, disable to enable: mean 45\.0 µs/);
});

test("an irqsoff tracer's section is one span of the latency its header states", () => {
  const trace = [
    '# tracer: irqsoff',
    '#',
    '# irqsoff latency trace v1.1.5 on 6.18.0',
    '# latency: 259 us, #4/4, CPU#1 | (M:preempt VP:0, KP:0, SP:0 HP:0 #P:2)',
    '#  cmd     pid     |||||| time  |   caller',
    '    bash-100       1d..1.    0us : _raw_spin_lock_irqsave <-flush_tlb_mm_range',
    '    bash-100       1d..1.    3us : tlb_flush: pages:1 reason:local MM shootdown (3)',
    '    bash-100       1d..1.  259us : _raw_spin_unlock_irqrestore <-flush_tlb_mm_range',
  ].join('\n');
  const rec = parseRecording(trace, 'irqsoff.trace');
  expect(rec.issueCount).toBe(0);
  expect(rec.summary.irqs_off_unknown).toBeNull();
  expect(rec.summary.irqs_off_ns).toMatchObject({ count: 1, max: 259e3 });
  const c = rec.columns;
  const span = [...c.kind.keys()].find((i) => c.kind[i] === EventKind.IrqsOff);
  expect(c.cpu[span as number]).toBe(1);
});

test('flagged events are kept as instants at their own times and CPUs, as counted', () => {
  const rec = parseRecording(text, loaded);
  const f = rec.flagged;
  const irqs = [...f.bits].filter((b) => b & 1).length;
  const preempt = [...f.bits].filter((b) => b & 2).length;
  expect(irqs + f.dropped).toBe(rec.summary.irqs_off_marks);
  expect(preempt).toBe(rec.summary.preempt_off_marks);
  // Each instant is its line's: the flags column there says so, on that CPU.
  for (const k of [0, Math.floor(f.line.length / 2), f.line.length - 1]) {
    const l = lines[f.line[k] - 1];
    expect(Number(/\[(\d+)\]/.exec(l)?.[1])).toBe(f.cpu[k]);
    expect(flagsOf(l)?.[0] === 'd').toBe((f.bits[k] & 1) === 1);
  }
  // On the rows' time axis: a flagged tlb_flush sits at its own row's time.
  const row = [...rec.columns.line].indexOf(f.line[0]);
  if (row >= 0) expect(f.time[0]).toBeCloseTo(rec.columns.time[row], 3);
  expect(Math.max(...f.time)).toBeLessThanOrEqual(rec.summary.sim_time_ns + 1);
});
