// A recording kept in its worker answers window questions from packed columns and the window
// index; every answer must be what a scan of the parser's own columns says.
import { beforeAll, describe, expect, it } from 'vitest';
import { tracefsChunks } from '../../../bench/gen-tracefs.mjs';
import { toLaneBuckets } from '../model/traceWindow';
import type { QueryMessage, QueryRequest } from '../workers/protocol';
import type { RecordingColumns } from './build';
import { busiestSender } from './focus';
import { KEPT_RUN, KeptRecording } from './kept';
import { parseRecording, type Recording } from './parse';

let rec: Recording;
let kept: KeptRecording;
let end: number;

beforeAll(() => {
  rec = parseRecording([...tracefsChunks(30_000, 16)].join(''), 'big.trace');
  // A copy: the kept recording may hold the parser's arrays, the test reads the originals.
  const cols = Object.fromEntries(
    Object.entries(rec.columns).map(([k, v]) => [k, v.slice()]),
  ) as unknown as RecordingColumns;
  kept = new KeptRecording(cols, rec.cpus);
  end = 0;
  for (let i = 0; i < rec.columns.time.length; i++)
    end = Math.max(end, rec.columns.time[i] + rec.columns.dur[i]);
});

function ask(req: QueryRequest): QueryMessage {
  let got: QueryMessage | null = null;
  kept.server.answer(req, (m) => (got = m));
  if (!got) throw new Error('no answer');
  return got;
}

function touching(t0: number, t1: number): number[] {
  const c = rec.columns;
  const out: number[] = [];
  for (let i = 0; i < c.time.length; i++)
    if (c.time[i] <= t1 && c.time[i] + c.dur[i] >= t0) out.push(i);
  return out;
}

describe('a recording kept in its worker', () => {
  it('knows its size, extent and initiator', () => {
    expect(kept.rows).toBe(rec.columns.time.length);
    expect(kept.rows).toBeGreaterThan(15_000);
    expect(kept.end).toBe(end);
    expect(kept.initiator).toBe(busiestSender(rec.columns));
    expect(kept.initiator).toBeGreaterThanOrEqual(0);
  });

  it("lists a window's rows and their columns as a scan of the parser's columns does", () => {
    for (const [a, b] of [
      [0, end * 0.001],
      [end * 0.5, end * 0.502],
      [end * 0.999, end],
      [end * 0.2, end * 0.2],
    ]) {
      const m = ask({ type: 'rows', id: 1, run: KEPT_RUN, t0: a, t1: b, limit: 100_000 });
      if (m.type !== 'rows') throw new Error(m.type);
      const want = touching(a, b);
      expect(Array.from(m.rows)).toEqual(want);
      expect(m.total).toBe(want.length);
      for (const name of ['time', 'dur', 'cpu', 'kind', 'arg', 'parent', 'mm', 'addr'] as const) {
        expect(Array.from(m.columns[name])).toEqual(want.map((r) => rec.columns[name][r]));
      }
    }
  });

  it('aggregates a window per CPU as the brute-force buckets', () => {
    for (const [a, b, n] of [
      [0, end, 300],
      [end * 0.4, end * 0.41, 64],
    ]) {
      const m = ask({ type: 'lanes', id: 2, run: KEPT_RUN, t0: a, t1: b, buckets: n });
      if (m.type !== 'lanes') throw new Error(m.type);
      const want = toLaneBuckets(rec.columns, rec.cpus, a, b, n, Math.max(...rec.columns.dur));
      expect(Array.from(m.buckets.count)).toEqual(Array.from(want.count));
      expect(Array.from(m.buckets.kindsLo)).toEqual(Array.from(want.kindsLo));
    }
  });

  it("gives a row's causes and what only the recording knows of it", () => {
    const c = rec.columns;
    const row = c.parent.findLastIndex((p) => p >= 0 && c.parent[p] >= 0);
    const m = ask({ type: 'chain', id: 3, run: KEPT_RUN, row });
    if (m.type !== 'chain') throw new Error(m.type);
    expect(m.rows.at(-1)).toBe(row);
    expect(m.rows.at(-2)).toBe(c.parent[row]);
    for (const r of [0, row, c.reason.indexOf(4), c.pages.findIndex(Number.isNaN)]) {
      const f = kept.recorded(r);
      if (typeof f === 'string') throw new Error(f);
      expect([f.line, f.reason, String(f.pages), f.kind, f.arg]).toEqual([
        c.line[r],
        c.reason[r],
        String(c.pages[r]),
        c.kind[r],
        c.arg[r],
      ]);
    }
    expect(kept.recorded(kept.rows)).toMatch(/not in this recording/);
  });

  it('holds its columns and index in under 40 B a row', () => {
    const m = ask({ type: 'memory', id: 4, run: KEPT_RUN });
    if (m.type !== 'memory') throw new Error(m.type);
    expect(m.wasmBytes).toBe(0);
    const full = Object.values(rec.columns).reduce((s, a) => s + a.byteLength, 0);
    expect(m.columnBytes).toBeLessThan(full * 0.6);
    expect((m.columnBytes + m.indexBytes) / m.rows).toBeLessThan(40);
  });
});
