// The recordings shipped in content/recordings/: each reads without an unreadable line, says
// where it was recorded, and stays small enough to ship.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { parseRecording } from './parse';

const dir = resolve('content/recordings');
const traces = readdirSync(dir).filter((f) => f.endsWith('.trace'));

test('there is at least one shipped recording', () => {
  expect(traces.length).toBeGreaterThan(0);
});

test.each(traces)(
  '%s reads cleanly and is labelled with machine, kernel, command and date',
  (f) => {
    const path = resolve(dir, f);
    expect(statSync(path).size).toBeLessThan(2 * 1024 * 1024);
    const rec = parseRecording(readFileSync(path, 'utf8'), f);
    expect(rec.issueCount).toBe(0);
    expect(rec.summary.tlb_flush).toBeGreaterThan(0);
    const source = JSON.parse(readFileSync(`${path}.source.json`, 'utf8'));
    for (const k of ['title', 'date', 'machine', 'kernel', 'command', 'recorder', 'format']) {
      expect(typeof source[k], k).toBe('string');
      expect(source[k].length, k).toBeGreaterThan(0);
    }
  },
);

test("the guided step's recording opens on a shootdown from the benchmark's CPU", async () => {
  const { firstShootdown } = await import('./focus');
  const { toTrace, EventKind } = await import('../trace/trace');
  const file = resolve(dir, 'madvise-touch-kvm-2cpu.trace');
  const rec = parseRecording(readFileSync(file, 'utf8'), 'x');
  const trace = toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] });
  const w = firstShootdown(trace);
  expect(w).not.toBeNull();
  const [t0, t1] = w as [number, number];
  const inside = (k: number) =>
    [...trace.kind.keys()].filter(
      (i) => trace.kind[i] === k && trace.time[i] >= t0 && trace.time[i] <= t1,
    );
  // madvise_touch's main thread is pinned to CPU 0 (its header says main_cpu=0).
  expect(inside(EventKind.IpiSent).map((i) => trace.cpu[i])).toEqual([0]);
  expect(inside(EventKind.IpiHandler).map((i) => trace.cpu[i])).toEqual([1]);
  expect(inside(EventKind.CsdUnlocked).map((i) => trace.arg[i])).toEqual([0]);
});
