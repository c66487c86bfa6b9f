import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind } from '../trace/trace';
import {
  counterpart,
  differingRows,
  differs,
  FlushScan,
  flushesOf,
  matchFacts,
  matchFlushes,
} from './flushMatch';

beforeAll(() => initSimulatorForNode());

const story = () => readScenario('x86-flush-info-story');
const run = (set: string[]) => runScenario(story(), { overrides: set }).trace;

describe('matchFlushes on the flush-info story’s A/B (2026 design vs 2019–2026)', () => {
  // Step 5's comparison: one design toggle pair, the same workload and seed.
  const pair = () => {
    const a = run(['flush_info=stack', 'preempt=preemptible_wait']);
    const b = run(['flush_info=percpu', 'preempt=pinned']);
    return { a, b, m: matchFlushes(a, b) };
  };

  it('pairs T1’s and T2’s flushes on CPU 0 one to one, in time order', () => {
    const { a, b, m } = pair();
    expect(m.pairs.map((p) => p.key)).toEqual(['CPU 0, mm 1, #1', 'CPU 0, mm 2, #1']);
    for (const p of m.pairs) {
      expect(a.kind[p.a!.row]).toBe(EventKind.FlushRange);
      expect(b.kind[p.b!.row]).toBe(EventKind.FlushRange);
      expect(a.mm[p.a!.row]).toBe(p.mm);
      expect(b.mm[p.b!.row]).toBe(p.mm);
    }
  });

  it('finds T1’s wait non-preemptible in B only, and T2’s flush delayed by it', () => {
    const { a, b, m } = pair();
    const [t1, t2] = m.pairs;
    const preempt = t1.diffs.find((d) => d.kind === 'preempt');
    // B keeps preemption off for the whole flush, wait included; A only while it queues.
    expect(preempt).toBeDefined();
    expect(preempt!.b).toBe(b.dur[t1.b!.row]);
    expect(preempt!.a as number).toBeLessThan(1000);
    // Both wait for CPU 2 just as long: the wait is not what differs.
    expect(t1.diffs.map((d) => d.kind)).not.toContain('wait');
    expect(t1.a!.wait).toBeGreaterThan(20_000);
    // T2 flushes only once T1's flush has returned in B: the start moves by about 26 µs.
    const start = t2.diffs.find((d) => d.kind === 'start')!;
    expect(start.a).toBe(a.time[t2.a!.row]);
    expect((start.b as number) - (start.a as number)).toBeGreaterThan(20_000);
    expect(t2.diffs.map((d) => d.kind)).not.toContain('violation');
  });

  it('maps any row of a flush (its IPI, its remote handler) to the other side’s flush', () => {
    const { a, b, m } = pair();
    const handler = Array.from({ length: a.n }, (_, i) => i).find(
      (i) => a.kind[i] === EventKind.IpiHandler && a.cpu[i] === 2,
    )!;
    expect(m.flushOfA[handler]).toBe(m.pairs[0].a!.row);
    expect(counterpart(m, 'A', handler)).toBe(m.pairs[0].b!.row);
    expect(counterpart(m, 'B', m.pairs[1].b!.row)).toBe(m.pairs[1].a!.row);
    // A task's run belongs to no flush.
    const run0 = Array.from({ length: b.n }, (_, i) => i).find(
      (i) => b.kind[i] === EventKind.TaskRun,
    )!;
    expect(counterpart(m, 'B', run0)).toBeNull();
    expect(differingRows(m)).toEqual({
      a: m.pairs.map((p) => p.a!.row),
      b: m.pairs.map((p) => p.b!.row),
    });
  });
});

describe('a violation present in one run only (R1: preemptible wait, per-CPU descriptor)', () => {
  it('is attributed to T1’s flush of mm 1 in A and absent from B', () => {
    const a = run(['preempt=preemptible_wait']);
    const b = run(['preempt=pinned']);
    const m = matchFlushes(a, b);
    const t1 = m.pairs.find((p) => p.mm === 1)!;
    expect(t1.a!.violations.map((v) => v.invariant).sort()).toEqual(['I3', 'I7']);
    expect(t1.b!.violations).toEqual([]);
    expect(t1.diffs.find((d) => d.kind === 'violation')).toEqual({
      kind: 'violation',
      a: 'I3 I7',
      b: null,
    });
    for (const v of t1.a!.violations) expect(a.kind[v.row]).toBe(EventKind.InvariantViolated);
    // The same number of IPIs in both: the race is in what CPU 2 reads, not in what is sent.
    expect(t1.diffs.map((d) => d.kind)).not.toContain('ipis');
  });
});

describe('flushes present in one run only', () => {
  it('are pairs with one side null and an "only" difference', () => {
    const text = readScenario('x86-munmap-shootdown');
    const a = runScenario(text, { overrides: ['flushes=3'] }).trace;
    const b = runScenario(text, { overrides: ['flushes=1'] }).trace;
    const m = matchFlushes(a, b);
    const na = flushesOf(a).flushes.length;
    const nb = flushesOf(b).flushes.length;
    expect(na).toBeGreaterThan(nb);
    const only = m.pairs.filter((p) => p.b === null);
    expect(only).toHaveLength(na - nb);
    for (const p of only) expect(p.diffs).toEqual([{ kind: 'only', a: 'A', b: null }]);
  });
});

describe('the same run twice', () => {
  it('matches every flush with no difference', () => {
    const a = run([]);
    const m = matchFlushes(a, run([]));
    expect(m.pairs.length).toBeGreaterThan(0);
    expect(m.pairs.every((p) => p.diffs.length === 0)).toBe(true);
    expect(differingRows(m)).toEqual({ a: [], b: [] });
  });
});

describe('differs', () => {
  it('ignores tiny and proportionally small changes', () => {
    expect(differs(27_830, 27_930)).toBe(false);
    expect(differs(360, 27_930)).toBe(true);
    expect(differs(0, 40)).toBe(false);
    expect(differs(0, 60)).toBe(true);
  });
});

describe('extra IPIs and extra waits (other scenarios, one toggle each)', () => {
  // IPIs a flush caused, counted independently: IpiSent rows whose parent chain reaches it.
  const sentBy = (t: ReturnType<typeof run>, flush: number) => {
    let n = 0;
    for (let i = 0; i < t.n; i++) {
      if (t.kind[i] !== EventKind.IpiSent) continue;
      let p = t.parent[i];
      while (p >= 0 && p !== flush) p = t.parent[p];
      if (p === flush) n++;
    }
    return n;
  };

  it('R6: skipping lazy CPUs when tables are freed sends fewer IPIs and violates in B only', () => {
    const text = readScenario('x86-lazy-tlb');
    const a = runScenario(text, { overrides: ['lazy_freed_tables=ipi'] }).trace;
    const b = runScenario(text, { overrides: ['lazy_freed_tables=skip'] }).trace;
    const m = matchFlushes(a, b);
    const p = m.pairs.find((x) => x.diffs.some((d) => d.kind === 'ipis'))!;
    expect(p).toBeDefined();
    const ipis = p.diffs.find((d) => d.kind === 'ipis')!;
    expect(ipis.a).toBe(sentBy(a, p.a!.row));
    expect(ipis.b).toBe(sentBy(b, p.b!.row));
    expect(ipis.b as number).toBeLessThan(ipis.a as number);
    const v = m.pairs.flatMap((x) => x.diffs).find((d) => d.kind === 'violation')!;
    expect(v.a).toBeNull();
    expect(v.b).toMatch(/^I\d/);
  });

  it('R2: a per-CPU wait mask changes how long the flush waits', () => {
    const text = readScenario('x86-r2-percpu-wait-mask-race');
    const a = runScenario(text, { overrides: ['wait_mask=task'] }).trace;
    const b = runScenario(text, { overrides: ['wait_mask=percpu'] }).trace;
    const m = matchFlushes(a, b);
    const p = m.pairs.find((x) => x.diffs.some((d) => d.kind === 'wait'))!;
    const wait = p.diffs.find((d) => d.kind === 'wait')!;
    // The wait is the sum of the IpiWait spans the flush caused, on each side.
    const waited = (t: typeof a, flush: number) => {
      let sum = 0;
      for (let i = 0; i < t.n; i++)
        if (t.kind[i] === EventKind.IpiWait && t.parent[i] === flush) sum += t.dur[i];
      return sum;
    };
    expect(wait.a).toBe(waited(a, p.a!.row));
    expect(wait.b).toBe(waited(b, p.b!.row));
    expect(differs(wait.a as number, wait.b as number)).toBe(true);
  });
});

describe('flushes scanned a slice at a time (a run kept in its worker)', () => {
  it('are the flushes flushesOf finds in the whole trace, and match the same', () => {
    const run = (set: string[]) =>
      runScenario(readScenario('x86-munmap-shootdown'), { overrides: set }).trace;
    const a = run(['cpus=8', 'flushes=40']);
    const b = run(['cpus=8', 'flushes=40', 'preempt=preemptible_wait']);
    const sliced = (t: typeof a) => {
      // Keeps no row's flush, and slices that cut flushes in two.
      const scan = new FlushScan(0, t.cpus, t.strings);
      for (let lo = 0; lo < t.n; lo += 97) {
        const hi = Math.min(t.n, lo + 97);
        scan.feed(
          {
            kind: t.kind.subarray(lo, hi),
            parent: t.parent.subarray(lo, hi),
            cpu: t.cpu.subarray(lo, hi),
            time: t.time.subarray(lo, hi),
            dur: t.dur.subarray(lo, hi),
            mm: t.mm.subarray(lo, hi),
            arg: t.arg.subarray(lo, hi),
          },
          lo,
        );
      }
      return scan.result();
    };
    const whole = flushesOf(a);
    expect(whole.flushes.length).toBeGreaterThan(10);
    expect(whole.flushes.some((f) => f.ipis > 0 && f.wait > 0)).toBe(true);
    expect(sliced(a).flushes).toEqual(whole.flushes);
    expect(sliced(a).unattributed).toEqual(whole.unattributed);
    expect(sliced(a).flushOf).toHaveLength(0);
    const m = matchFlushes(a, b);
    const r = matchFacts(sliced(a), flushesOf(b));
    expect(r.pairs).toEqual(m.pairs);
    expect(m.pairs.some((p) => p.diffs.length > 0)).toBe(true);
  });
});
