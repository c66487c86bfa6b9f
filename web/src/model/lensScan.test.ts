// lens.ts's one-pass LensScan against the lens's definition written out with random access
// (each wait's covering span found by binary search, each wake-up's run by a forward search):
// the same intervals on every scenario's run and every guided step's, fed whole or in slices.
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, noColumns, toTrace, type Trace } from '../trace/trace';
import { LENS_KINDS, LensScan, lensIntervals, type LensKind } from './lens';
import { lensExtents, lensExtentsOfSource } from './lensExtent';
import { columnSource } from './rowSource';
import { stepFrame } from './guide';
import { extentOf } from './events';

type Found = { kind: LensKind; cpu: number; start: number; end: number; row: number };

/** The lens's three definitions over a trace held whole (the order the old loops found them). */
function reference(trace: Trace, kinds: readonly string[], cs: number): Found[] {
  const byCpu = (kind: number) => {
    const out = new Map<number, number[]>();
    for (let i = 0; i < trace.n; i++)
      if (trace.kind[i] === kind) out.set(trace.cpu[i], [...(out.get(trace.cpu[i]) ?? []), i]);
    return out;
  };
  const covering = (rows: number[] | undefined, t: number) => {
    let r = -1;
    for (const x of rows ?? []) if (trace.time[x] <= t) r = x;
    return r >= 0 && t < trace.time[r] + trace.dur[r] ? r : -1;
  };
  const out: Found[] = [];
  if (kinds.includes('nonpreempt_wait')) {
    const off = byCpu(EventKind.PreemptOff);
    for (let i = 0; i < trace.n; i++) {
      if (trace.kind[i] !== EventKind.IpiWait || trace.dur[i] <= 0) continue;
      const p = covering(off.get(trace.cpu[i]), trace.time[i]);
      if (p < 0) continue;
      const end = Math.min(trace.time[i] + trace.dur[i], trace.time[p] + trace.dur[p]);
      out.push({ kind: 'nonpreempt_wait', cpu: trace.cpu[i], start: trace.time[i], end, row: i });
    }
  }
  if (kinds.includes('irqs_off_delay')) {
    const off = byCpu(EventKind.IrqsOff);
    for (let i = 0; i < trace.n; i++) {
      const sent = trace.parent[i];
      if (trace.kind[i] !== EventKind.IpiHandler || sent < 0) continue;
      if (trace.kind[sent] !== EventKind.IpiSent) continue;
      const r = covering(off.get(trace.cpu[i]), trace.time[sent]);
      if (r < 0 || trace.time[r] + trace.dur[r] > trace.time[i] + 1) continue;
      out.push({
        kind: 'irqs_off_delay',
        cpu: trace.cpu[i],
        start: trace.time[sent],
        end: trace.time[i],
        row: i,
      });
    }
  }
  if (kinds.includes('wakeup_latency')) {
    for (let i = 0; i < trace.n; i++) {
      if (trace.kind[i] !== EventKind.TaskWoken) continue;
      for (let j = i + 1; j < trace.n; j++) {
        if (trace.kind[j] !== EventKind.TaskRun || trace.arg[j] !== trace.arg[i]) continue;
        let end = trace.time[j] + cs;
        for (const k of [j - 1, j + 1])
          if (
            k >= 0 &&
            k < trace.n &&
            trace.kind[k] === EventKind.SwitchMm &&
            trace.cpu[k] === trace.cpu[j] &&
            trace.time[k] === trace.time[j]
          )
            end += trace.dur[k];
        out.push({ kind: 'wakeup_latency', cpu: trace.cpu[j], start: trace.time[i], end, row: j });
        break;
      }
    }
  }
  return out;
}

const sorted = (xs: Found[]) =>
  [...xs].sort((a, b) => a.cpu - b.cpu || a.start - b.start || a.end - b.end);

/** The scan fed `step` rows at a time. */
function scanned(trace: Trace, kinds: readonly string[], cs: number, step: number): Found[] {
  const out: Found[] = [];
  const scan = new LensScan(kinds, cs, (kind, cpu, start, end, row) =>
    out.push({ kind, cpu, start, end, row }),
  );
  for (let lo = 0; lo < trace.n; lo += step) {
    const hi = Math.min(trace.n, lo + step);
    const c = {
      time: trace.time.subarray(lo, hi),
      dur: trace.dur.subarray(lo, hi),
      cpu: trace.cpu.subarray(lo, hi),
      kind: trace.kind.subarray(lo, hi),
      arg: trace.arg.subarray(lo, hi),
      parent: trace.parent.subarray(lo, hi),
    };
    scan.feed(c as Trace, lo, hi - lo);
  }
  scan.finish();
  return out;
}

interface Case {
  name: string;
  trace: Trace;
  cs: number;
  steps: ReturnType<typeof runScenario>['info']['steps'];
}
const cases: Case[] = [];

beforeAll(() => {
  initSimulatorForNode();
  const dir = resolve('content/scenarios');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.toml'))) {
    const id = f.replace(/\.toml$/, '');
    if (id.includes('bench') || id.includes('512')) continue; // minutes of work, nothing new
    const text = readScenario(id);
    const base = runScenario(text);
    const sets = [[], ...base.info.steps.map((s) => s.set)];
    for (const [k, set] of sets.entries()) {
      const r = k === 0 ? base : runScenario(text, { overrides: set });
      cases.push({
        name: `${id}${k ? ` step ${k}` : ''}`,
        trace: r.trace,
        cs: r.info.costs.context_switch_ns ?? 0,
        steps: r.info.steps,
      });
    }
  }
}, 120_000);

describe('LensScan', () => {
  it('finds what the random-access definition finds, on every scenario and step run', () => {
    let total = 0;
    const perKind = new Map<string, number>();
    for (const c of cases) {
      const want = reference(c.trace, LENS_KINDS, c.cs);
      total += want.length;
      for (const iv of want) perKind.set(iv.kind, (perKind.get(iv.kind) ?? 0) + 1);
      const got = lensIntervals(c.trace, LENS_KINDS, c.cs).map(({ level: _l, ...iv }) => iv);
      // lensIntervals sorts stably: equal keys keep the order the definition found them in.
      expect(got, c.name).toEqual(sorted(want));
      for (const step of [1, 7, 4096])
        expect(sorted(scanned(c.trace, LENS_KINDS, c.cs, step)), `${c.name} by ${step}`).toEqual(
          sorted(want),
        );
    }
    // Every kind is found often enough for the comparison to mean something.
    for (const k of LENS_KINDS) expect(perKind.get(k) ?? 0, k).toBeGreaterThan(5);
    expect(total).toBeGreaterThan(1000);
  });

  it('counts an mm switch logged just after the run into a wake-up, as the definition does', () => {
    // Row 0: T7 woken at 100 on CPU 1; rows 1-2: T7 runs on CPU 0 at 250 and switches mm
    // there (40 ns) in the next row; row 3: T7 woken again, never run.
    const cols = (xs: number[][]) => xs.map((x) => Float64Array.from(x));
    const [time, dur, arg] = cols([
      [100, 250, 250, 300],
      [0, 500, 40, 0],
      [7, 7, 0, 7],
    ]);
    const trace = toTrace({
      ...noColumns(),
      time,
      dur,
      arg,
      cpu: Uint16Array.from([1, 0, 0, 1]),
      kind: Uint8Array.from([
        EventKind.TaskWoken,
        EventKind.TaskRun,
        EventKind.SwitchMm,
        EventKind.TaskWoken,
      ]),
      parent: Int32Array.from([-1, -1, -1, -1]),
      cpus: 2,
      strings: [],
    });
    const want = reference(trace, ['wakeup_latency'], 10);
    expect(want).toEqual([{ kind: 'wakeup_latency', cpu: 0, start: 100, end: 300, row: 1 }]);
    for (const step of [1, 2, 4])
      expect(scanned(trace, ['wakeup_latency'], 10, step)).toEqual(want);
  });

  it('finds only the kinds asked for', () => {
    const c = cases.find((x) => x.name === 'x86-flush-info-story')!;
    for (const k of LENS_KINDS) {
      const got = scanned(c.trace, [k], c.cs, 100);
      expect(got.length, k).toBeGreaterThan(0);
      expect(new Set(got.map((iv) => iv.kind))).toEqual(new Set([k]));
    }
    expect(scanned(c.trace, [], c.cs, 100)).toEqual([]);
  });
});

describe('lensExtentsOfSource', () => {
  it("frames every guided step as the page-held run's intervals do", () => {
    let framed = 0;
    for (const c of cases) {
      for (const step of c.steps) {
        if (!step.lens.length) continue;
        const all = lensIntervals(c.trace, step.lens, c.cs);
        const ext = lensExtentsOfSource(columnSource(c.trace), step.lens, c.cs);
        expect(ext, c.name).toEqual(lensExtents(all));
        const extent = extentOf(c.trace);
        expect(stepFrame(c.trace, step, [], extent, ext), c.name).toEqual(
          stepFrame(c.trace, step, [], extent, all),
        );
        framed++;
      }
    }
    expect(framed).toBeGreaterThan(0);
  });

  it('reduces each CPU to its earliest start and latest end', () => {
    expect(
      lensExtents([
        { cpu: 2, start: 5, end: 9 },
        { cpu: 0, start: 3, end: 4 },
        { cpu: 2, start: 1, end: 6 },
      ]),
    ).toEqual([
      { cpu: 0, start: 3, end: 4 },
      { cpu: 2, start: 1, end: 9 },
    ]);
  });
});
