// The Perfetto export of a model run and of a real recording, validated with ajv against
// perfetto.schema.json (the subset of the Chrome trace-event format it writes), with its
// counts checked against the trace it came from and its slices checked to nest per thread.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv from 'ajv';
import { beforeAll, describe, expect, test } from 'vitest';
import { ARROW_IPI, toArrows } from '../model/ipis';
import { parseRecording } from '../recording/parse';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, toTrace, type Trace } from '../trace/trace';
import {
  assignThreads,
  perfettoChunks,
  PerfettoWriter,
  toPerfettoJson,
  type ExportInfo,
} from './perfetto';
import { columnSource, readRows, sourceRowsInWindow, toRowIndex } from '../model/rowSource';
import { localTrace } from '../model/windowTrace';
import schema from './perfetto.schema.json';

interface Ev {
  ph: string;
  name: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: number;
  args?: Record<string, unknown>;
}

const validate = new Ajv({ allErrors: true }).compile(schema);

function check(trace: Trace, info: ExportInfo) {
  const json = toPerfettoJson(trace, info);
  const doc = JSON.parse(json) as { traceEvents: Ev[] };
  const ok = validate(doc);
  expect(validate.errors?.slice(0, 3) ?? []).toEqual([]);
  expect(ok).toBe(true);
  const ev = doc.traceEvents;
  const slices = ev.filter((e) => e.ph === 'X');
  // Round trip: one slice per row, with the row's CPU, start and length.
  expect(slices.length).toBe(trace.n);
  for (const s of slices) {
    const i = s.args?.row as number;
    expect(s.pid).toBe(trace.cpu[i] + 1);
    expect(s.ts).toBeCloseTo(trace.time[i] / 1000, 3);
    expect(s.dur).toBeCloseTo(trace.dur[i] / 1000, 3);
  }
  // One flow per IPI arrow, each starting with 's' and ending with 'f'.
  const arrows = toArrows(trace);
  let ipiArrows = 0;
  for (let j = 0; j < arrows.n; j++) if (arrows.kind[j] === ARROW_IPI) ipiArrows++;
  const starts = ev.filter((e) => e.ph === 's');
  expect(starts.length).toBe(ipiArrows);
  expect(new Set(ev.filter((e) => e.ph === 'f').map((e) => e.id))).toEqual(
    new Set(starts.map((e) => e.id)),
  );
  // Every process and thread that has slices is named.
  const named = new Set(
    ev.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => e.tid),
  );
  for (const s of slices) expect(named.has(s.tid)).toBe(true);
  // Slices of one thread nest (Chrome's format requires it; Perfetto flags misnesting).
  const byTid = new Map<number, Ev[]>();
  for (const s of slices) byTid.set(s.tid, [...(byTid.get(s.tid) ?? []), s]);
  for (const list of byTid.values()) {
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const stack: number[] = [];
    for (const s of list) {
      const end = s.ts + (s.dur ?? 0);
      // µs are ns / 1000 in floating point: a slice that ends where the next starts may end
      // a rounding error after it.
      while (stack.length && stack[stack.length - 1] <= s.ts + 1e-9) stack.pop();
      if (stack.length) expect(end).toBeLessThanOrEqual(stack[stack.length - 1] + 1e-9);
      stack.push(end);
    }
  }
  return { doc, json, ev, slices };
}

describe('a model run', () => {
  let trace: Trace;
  beforeAll(() => {
    initSimulatorForNode();
    trace = runScenario(readScenario('x86-munmap-shootdown')).trace;
  });

  test('validates, keeps every row and draws every IPI as send → handler → ack', () => {
    const { ev, slices } = check(trace, { title: 'x86-munmap-shootdown', source: 'model' });
    const flows = new Map<number, string[]>();
    for (const e of ev) if (e.id !== undefined) flows.set(e.id, [...(flows.get(e.id) ?? []), e.ph]);
    // The model acks every handler's csd: each flow has its three points.
    expect([...flows.values()].every((p) => p.join('') === 'stf')).toBe(true);
    const gens = slices.filter((s) => s.args?.gen !== undefined);
    expect(gens.length).toBe(trace.gen.filter((g) => g > 0).length);
  });

  test("a window of a run kept in its worker names the run's rows and the window", () => {
    const src = columnSource(trace);
    const last = trace.time[trace.n - 1];
    const [t0, t1] = [last * 0.3, last * 0.6];
    const found = sourceRowsInWindow(toRowIndex(src, trace.cpus, 64), src, t0, t1, 1e6, 1e6)!;
    const w = localTrace(found.rows, readRows(src, found.rows), trace.cpus, trace.strings);
    const json = toPerfettoJson(w.trace, {
      title: 't',
      source: 's',
      window: { rows: w.rows, t0, t1, runRows: trace.n },
    });
    const doc = JSON.parse(json) as { traceEvents: Ev[]; metadata: Record<string, unknown> };
    expect(validate(doc)).toBe(true);
    expect(doc.metadata['tlbscope-window-ns']).toEqual([t0, t1]);
    const slices = doc.traceEvents.filter((e) => e.ph === 'X');
    expect(slices.map((e) => e.args?.row)).toEqual(Array.from(found.rows));
    for (const e of slices) {
      const i = e.args?.row as number;
      expect(e.ts).toBeCloseTo(trace.time[i] / 1000, 3);
      expect(e.pid).toBe(trace.cpu[i] + 1);
      // A parent inside the window is named by its row in the run; one outside is left out.
      const p = trace.parent[i];
      expect(e.args?.parent).toBe(p >= 0 && found.rows.includes(p) ? p : undefined);
    }
    expect(slices.some((e) => e.args?.parent !== undefined)).toBe(true);
  });

  test('the streamed chunks join to the same document', () => {
    const info = { title: 't', source: 's' };
    expect([...perfettoChunks(trace, info)].join('')).toBe(toPerfettoJson(trace, info));
  });

  test('fed a slice at a time (a run kept in its worker), the writer writes the same file', () => {
    const big = runScenario(readScenario('x86-munmap-shootdown'), {
      overrides: ['cpus=8', 'flushes=40'],
    }).trace;
    const info = { title: 't', source: 's' };
    const whole = toPerfettoJson(big, info);
    // The threads are assignThreads's, computed over the whole trace at once.
    const tid = assignThreads(big);
    const doc = JSON.parse(whole) as { traceEvents: Ev[] };
    for (const e of doc.traceEvents)
      if (e.ph === 'X') expect(e.tid).toBe(tid[e.args?.row as number]);
    // Slices of 1, 7 and 1,000 rows: ties at a slice's edge (several rows at one time) wait.
    let ties = 0;
    for (let i = 1; i < big.n; i++) if (big.time[i] === big.time[i - 1]) ties++;
    expect(ties).toBeGreaterThan(10);
    for (const size of [1, 7, 1000]) {
      expect(streamed(big, info, size)).toBe(whole);
    }
  });
});

/** The export written as a remote run's is: rows fed `size` at a time, as the page gets them. */
function streamed(trace: Trace, info: ExportInfo, size: number): string {
  const w = new PerfettoWriter(info, trace.cpus, trace.n);
  const events: string[] = [w.header()];
  const flows: string[] = [];
  const x = info.extras;
  for (let lo = 0; lo < trace.n; lo += size) {
    const hi = Math.min(trace.n, lo + size);
    const rows = Int32Array.from({ length: hi - lo }, (_, j) => lo + j);
    const got = w.feed(
      readRows(columnSource(trace), rows),
      lo,
      x && {
        reason: x.reason?.slice(lo, hi),
        pages: x.pages?.slice(lo, hi),
        line: x.line?.slice(lo, hi),
      },
    );
    events.push(...got.events);
    flows.push(...got.flows);
  }
  const end = w.finish();
  return [...events, ...end.events, ...flows, ...end.flows, end.tail].join('');
}

test('a real recording keeps its flush reasons, page counts and source lines as args', () => {
  const text = readFileSync(resolve('tests/fixtures/recordings/tracefs.trace'), 'utf8');
  const rec = parseRecording(text, 'tracefs.trace');
  const trace = toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] });
  const info: ExportInfo = {
    title: 'tracefs.trace',
    source: 'recorded',
    extras: { ...rec.columns, tasks: rec.tasks },
  };
  const { slices, json } = check(trace, info);
  // A kept recording's rows and its own columns come a slice at a time: the same file.
  expect(streamed(trace, info, 5)).toBe(json);
  const flushes = slices.filter((s) => s.args?.reason !== undefined);
  expect(flushes.length).toBe(rec.summary.tlb_flush);
  const shootdown = flushes.find((s) => s.args?.reason_enum === 'TLB_REMOTE_SEND_IPI');
  expect(shootdown?.name).toBe('FlushRange (remote IPI send)');
  const line = text.split('\n')[(shootdown?.args?.line as number) - 1];
  expect(line).toMatch(new RegExp(`pages:${shootdown?.args?.pages} reason:remote IPI send`));
  const task = slices.find((s) => s.args?.comm === 'madvise_touch');
  expect(task?.name).toMatch(/^madvise_touch \[\d+\]$/);
  expect(slices.filter((s) => s.name.startsWith('IpiHandler')).length).toBeGreaterThan(0);
  expect(trace.kind.includes(EventKind.CsdUnlocked)).toBe(true);
});
