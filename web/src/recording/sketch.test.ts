// The sketch the page draws while a recording is read counts every row once, in its CPU's lane
// and its time's bin, however far the recording runs past the span the bins started with.
import { expect, test } from 'vitest';
import { SKETCH_BINS, SKETCH_CPUS, SketchCounter } from './sketch';

const sum = (a: Uint32Array) => a.reduce((x, y) => x + y, 0);

test('rows are counted per CPU and time bin, and the bins widen as time runs on', () => {
  const s = new SketchCounter();
  const time = Float64Array.from([0, 10, 999_999, 5e9, 5e9 + 1]);
  const cpu = Uint16Array.from([0, 3, 3, 1, 3]);
  s.add(time, cpu, 0, 3);
  const a = s.snapshot();
  expect(a).toMatchObject({ rows: 3, cpus: 4, bins: SKETCH_BINS, spanNs: 1e6 });
  expect(a.counts[0]).toBe(1);
  expect(a.counts[3 * SKETCH_BINS]).toBe(1);
  expect(a.counts[3 * SKETCH_BINS + SKETCH_BINS - 1]).toBe(1);
  s.add(time, cpu, 3, 5);
  const b = s.snapshot();
  expect(b.rows).toBe(5);
  expect(b.spanNs).toBeGreaterThan(5e9 + 1);
  expect(sum(b.counts)).toBe(5);
  // The first millisecond's rows merged into the first bin; the late ones where 5 s falls.
  expect(b.counts[3 * SKETCH_BINS]).toBe(2);
  const late = Math.floor((5e9 / b.spanNs) * SKETCH_BINS);
  expect(b.counts[SKETCH_BINS + late]).toBe(1);
  expect(b.counts[3 * SKETCH_BINS + late]).toBe(1);
  // A snapshot is a copy: it does not change as counting goes on.
  expect(sum(a.counts)).toBe(3);
});

test('CPUs past the lanes kept apart are counted in the last lane', () => {
  const s = new SketchCounter();
  s.add(Float64Array.from([1, 2]), Uint16Array.from([4000, 1]), 0, 2);
  const k = s.snapshot();
  expect(k.cpus).toBe(SKETCH_CPUS);
  expect(k.counts[(SKETCH_CPUS - 1) * SKETCH_BINS]).toBe(1);
  expect(sum(k.counts)).toBe(2);
});

test('a time that is not a finite count of ns is counted at the start, not widened to forever', () => {
  const s = new SketchCounter();
  s.add(Float64Array.from([Infinity, NaN, -5]), Uint16Array.from([0, 0, 0]), 0, 3);
  const k = s.snapshot();
  expect(k.spanNs).toBe(1e6);
  expect(k.counts[0]).toBe(3);
});
