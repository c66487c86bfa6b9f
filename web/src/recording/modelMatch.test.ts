// A recording's shootdowns matched flush by flush with the model's: a recording has no mm ids
// the model shares, so the match is by initiating CPU and order.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { matchFlushes } from '../model/flushMatch';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { toTrace } from '../trace/trace';
import { parseRecording } from './parse';

beforeAll(() => initSimulatorForNode());

const file = 'madvise-touch-kvm-2cpu.trace';
const rec = parseRecording(readFileSync(resolve('content/recordings', file), 'utf8'), file);
const a = toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] });

test("matched by initiating CPU and order, a recording's shootdowns meet the model's", () => {
  const b = runScenario(readScenario('x86-madvise-touch'), {
    overrides: ['cpus=2', 'busy_threads=1', 'flushes=300'],
  }).trace;
  const m = matchFlushes(a, b, { byCpuOnly: true });
  const both = m.pairs.filter((p) => p.a && p.b);
  expect(m.by).toBe('cpu');
  // madvise_touch's main thread runs on CPU 0 in both: the model's 300 flushes all find one.
  expect(both.length).toBe(300);
  for (const p of both) expect(p.a!.cpu).toBe(p.b!.cpu);
  expect(m.pairs.filter((p) => p.a).length).toBe(rec.summary.shootdowns);
  // By CPU and mm, nothing meets: the importer's mm is no id of the model's.
  expect(matchFlushes(a, b).pairs.filter((p) => p.a && p.b)).toHaveLength(0);
});

test("without csd events a shootdown lasts to its last target's tlb_flush, labelled so", () => {
  const text = readFileSync(resolve('content/recordings', file), 'utf8');
  const noCsd = text
    .split('\n')
    .filter((l) => !/ csd_\w+: /.test(l))
    .join('\n');
  const r = parseRecording(noCsd, 'no-csd.trace');
  expect(r.summary.flush_latency_basis).toMatch(/last target's tlb_flush \(no csd events/);
  expect(rec.summary.flush_latency_basis).toBe('its flush to the last ack or local flush');
  // Every shootdown whose IPI reached a target that flushed has a latency.
  expect(r.summary.flush_latency_ns.count).toBeGreaterThan(0.9 * r.summary.shootdowns);
  // The target's flush comes before its csd unlock: never longer than with csd events.
  expect(r.summary.flush_latency_ns.p50).toBeLessThanOrEqual(rec.summary.flush_latency_ns.p50);
  expect(r.summary.flush_latency_ns.p50).toBeGreaterThan(0);
});
