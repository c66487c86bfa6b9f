import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, type Trace } from '../trace/trace';
import { candidates } from './intervals';
import { TRACKS, toLanes } from './lanes';
import {
  binsFromPyramid,
  hitTest,
  PYRAMID_ABOVE_ROWS,
  toBinPyramid,
  toLaneIndex,
  toLod,
  trackPyramid,
  type LaneIndex,
} from './lod';
import { toPosMap } from './spacing';

let trace: Trace;
let index: LaneIndex;

beforeAll(() => {
  initSimulatorForNode();
  trace = runScenario(readScenario('x86-munmap-shootdown'), {
    overrides: ['cpus=64', 'flushes=200'],
  }).trace;
  index = toLaneIndex(trace, toLanes(trace), toPosMap(trace, 'time'));
});

/** Rows of (cpu, track) touching [a, b], the slow way. */
function bruteForce(cpu: number, track: number, a: number, b: number): number[] {
  const ix = index.tracks[cpu * TRACKS + track];
  return Array.from(ix.ids).filter((i) => trace.time[i] <= b && trace.time[i] + trace.dur[i] >= a);
}

describe('toLaneIndex', () => {
  it('finds a long span that starts before the window', () => {
    // TaskRun covers the whole run on every CPU: it starts at 0, far left of this window.
    const end = trace.time[trace.n - 1];
    const ix = index.tracks[5 * TRACKS + 0];
    const [lo, hi] = candidates(ix, end * 0.5, end * 0.5001);
    expect(hi - lo).toBe(1);
    expect(trace.kind[ix.ids[lo]]).toBe(EventKind.TaskRun);
  });

  it('visits only the rows in the window on a sub-track whose spans do not nest', () => {
    const end = trace.time[trace.n - 1];
    const [a, b] = [end * 0.3, end * 0.31];
    const ix = index.tracks[7 * TRACKS + 3];
    const [lo, hi] = candidates(ix, a, b);
    expect(hi - lo).toBe(bruteForce(7, 3, a, b).length);
    expect(hi - lo).toBeGreaterThan(0);
  });
});

describe('toLod', () => {
  it('returns the rows themselves when few touch the window', () => {
    const end = trace.time[trace.n - 1];
    const w: [number, number] = [end * 0.5, end * 0.52];
    const lod = toLod([index.tracks[3 * TRACKS + 3]], w, 800, { maxRows: 1000 });
    expect(lod.mode).toBe('rows');
    if (lod.mode === 'rows') expect(Array.from(lod.rows)).toEqual(bruteForce(3, 3, ...w));
  });

  it('aggregates per pixel column when many rows touch the window', () => {
    const w: [number, number] = [0, trace.time[trace.n - 1]];
    const width = 300;
    const lod = toLod([index.tracks[3 * TRACKS + 3]], w, width, { maxRows: 50 });
    expect(lod.mode).toBe('bins');
    if (lod.mode !== 'bins') return;
    const { bins } = lod;
    expect(bins.n).toBeGreaterThan(0);
    expect(bins.n).toBeLessThanOrEqual(width);
    for (let j = 0; j < bins.n; j++) {
      expect(bins.x0[j]).toBeLessThan(bins.x1[j]);
      if (j > 0) expect(bins.x0[j]).toBeGreaterThanOrEqual(bins.x1[j - 1]);
      expect(bins.coverage[j]).toBeGreaterThanOrEqual(0);
      expect(bins.coverage[j]).toBeLessThanOrEqual(1);
      expect(bins.count[j]).toBeGreaterThan(0);
      expect(bins.kind[j]).toBe(EventKind.IpiHandler);
    }
  });

  it('marks exactly the pixel columns that some row touches', () => {
    const end = trace.time[trace.n - 1];
    const w: [number, number] = [end * 0.2, end * 0.4];
    const width = 200;
    const lod = toLod([index.tracks[9 * TRACKS + 4]], w, width, { maxRows: 0 });
    if (lod.mode !== 'bins') throw new Error('expected bins');
    const covered = new Set<number>();
    for (let j = 0; j < lod.bins.n; j++) {
      for (let x = lod.bins.x0[j]; x < lod.bins.x1[j]; x++) covered.add(x);
    }
    const k = width / (w[1] - w[0]);
    const want = new Set<number>();
    for (const i of bruteForce(9, 4, ...w)) {
      const s = Math.max(0, (trace.time[i] - w[0]) * k);
      const e = Math.min(width, (trace.time[i] + trace.dur[i] - w[0]) * k);
      for (let x = Math.floor(s); x <= Math.min(width - 1, Math.floor(e)); x++) want.add(x);
    }
    expect([...covered].sort((a, b) => a - b)).toEqual([...want].sort((a, b) => a - b));
  });

  it('merges a group of CPUs into one aggregate whose coverage is the mean', () => {
    const w: [number, number] = [0, trace.time[trace.n - 1]];
    const group = Array.from({ length: 16 }, (_, c) => index.tracks[(16 + c) * TRACKS + 0]);
    const lod = toLod(group, w, 100, { maxRows: 1e9 });
    if (lod.mode !== 'bins') throw new Error('groups are always aggregated');
    // Every CPU runs a task for the whole trace: full coverage everywhere.
    expect(lod.bins.n).toBeGreaterThan(0);
    for (let j = 0; j < lod.bins.n; j++) expect(lod.bins.coverage[j]).toBeCloseTo(1, 1);
  });
});

describe('binsFromPyramid', () => {
  it('draws a zoomed-out group like the row scan does, from precomputed bins', () => {
    const w: [number, number] = [0, trace.time[trace.n - 1]];
    for (const track of [3, 4]) {
      const group = Array.from({ length: 16 }, (_, c) => index.tracks[(16 + c) * TRACKS + track]);
      const scan = toLod(group, w, 200, { maxRows: 0 });
      if (scan.mode !== 'bins') throw new Error('groups are always aggregated');
      const fast = binsFromPyramid(toBinPyramid(group, index.pos.extent, 4096), w, 200);
      if (!fast) throw new Error('the full view is wide enough for the pyramid');
      // Same columns drawn (within one column at run edges), similar coverage and kinds.
      const cols = (b: typeof fast) => {
        const out = new Float64Array(200).fill(-1);
        for (let j = 0; j < b.n; j++)
          for (let x = b.x0[j]; x < b.x1[j]; x++) out[x] = b.coverage[j];
        return out;
      };
      const [a, b] = [cols(scan.bins), cols(fast)];
      let off = 0;
      for (let x = 1; x < 199; x++) {
        if (a[x] < 0 !== b[x] < 0 && a[x - 1] < 0 === b[x - 1] < 0 && a[x + 1] < 0 === b[x + 1] < 0)
          off++;
        if (a[x] >= 0 && b[x] >= 0) expect(Math.abs(a[x] - b[x])).toBeLessThan(0.2);
      }
      expect(off).toBe(0);
    }
  });

  it('gives one busy CPU track a pyramid sized to its rows, drawn like the row scan', () => {
    const busy = runScenario(readScenario('x86-munmap-shootdown'), {
      overrides: ['cpus=8', 'flushes=1500'],
    }).trace;
    const ix = toLaneIndex(busy, toLanes(busy), toPosMap(busy, 'time'));
    const sizes = ix.tracks.map((t) => t.ids.length);
    const big = sizes.findIndex((n) => n > PYRAMID_ABOVE_ROWS);
    const small = sizes.findIndex((n) => n > 0 && n <= PYRAMID_ABOVE_ROWS);
    expect(big).toBeGreaterThanOrEqual(0);
    expect(trackPyramid(ix, Math.floor(small / TRACKS), small % TRACKS)).toBeNull();
    const [cpu, track] = [Math.floor(big / TRACKS), big % TRACKS];
    const pyr = trackPyramid(ix, cpu, track)!;
    expect(pyr.levels[0].count.length).toBe(2 ** Math.ceil(Math.log2(sizes[big])));
    expect(trackPyramid(ix, cpu, track)).toBe(pyr); // built once, kept with the index
    const w: [number, number] = [...ix.pos.extent];
    const fast = binsFromPyramid(pyr, w, 300)!;
    const scan = toLod([ix.tracks[big]], w, 300, { maxRows: 0 });
    if (scan.mode !== 'bins') throw new Error('maxRows 0 always aggregates');
    const drawn = (b: typeof fast) => {
      let px = 0;
      for (let j = 0; j < b.n; j++) px += b.x1[j] - b.x0[j];
      return px;
    };
    expect(Math.abs(drawn(fast) - drawn(scan.bins))).toBeLessThanOrEqual(3);
  });

  it('declines a window narrower than two bins per pixel', () => {
    const group = [index.tracks[16 * TRACKS + 3]];
    const pyr = toBinPyramid(group, index.pos.extent, 256);
    const [e0, e1] = index.pos.extent;
    expect(binsFromPyramid(pyr, [e0, e0 + (e1 - e0) / 100], 200)).toBeNull();
  });
});

describe('hitTest', () => {
  it('finds the span under a position and nothing far from any span', () => {
    const ix = index.tracks[2 * TRACKS + 3];
    const j = Math.floor(ix.ids.length / 2);
    const mid = (ix.start[j] + ix.end[j]) / 2;
    expect(hitTest(ix, mid, 0)).toBe(ix.ids[j]);
    expect(hitTest(ix, -1e12, 10)).toBe(-1);
  });
});

describe('event spacing', () => {
  it('puts row i at position i and ends a span at the first row at or after its end', () => {
    const pos = toPosMap(trace, 'event');
    const ev = toLaneIndex(trace, toLanes(trace), pos);
    const ix = ev.tracks[4 * TRACKS + 3];
    for (let j = 0; j < ix.ids.length; j += 17) {
      const i = ix.ids[j];
      expect(ix.start[j]).toBe(i);
      const end = ix.end[j];
      expect(trace.time[end] ?? Infinity).toBeGreaterThanOrEqual(trace.time[i] + trace.dur[i]);
      expect(trace.time[end - 1]).toBeLessThan(trace.time[i] + trace.dur[i]);
    }
  });

  it('converts between ns and positions both ways, monotonically', () => {
    const pos = toPosMap(trace, 'event');
    let last = -Infinity;
    for (let p = 0; p <= trace.n; p += trace.n / 97) {
      const ns = pos.toNs(p);
      expect(ns).toBeGreaterThanOrEqual(last);
      last = ns;
      expect(pos.toPos(ns)).toBeCloseTo(p, 6);
    }
    expect(pos.toPos(pos.extentNs[1])).toBe(trace.n);
  });
});
