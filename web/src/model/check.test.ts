import { beforeAll, describe, expect, it } from 'vitest';
import { finishCheck, openChecker, type CheckReport } from '../sim/check';
import { traceOf } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind } from '../trace/trace';
import {
  checkCounts,
  firstStep,
  highlightOf,
  nextStep,
  raceNote,
  rowOf,
  staleWords,
  stepLine,
  stepMarks,
  tooBigToCheck,
  verdictLine,
} from './check';
import { parseSnapshot } from './snapshot';

beforeAll(() => initSimulatorForNode());

// Real checks of the shipped race scenarios (no hand-made reports).
function check(id: string, set: string[] = []) {
  const { report, counterexample } = finishCheck(
    openChecker(readScenario(id), set),
    () => {},
    () => 0,
  );
  return { report, sim: counterexample };
}

describe('which scenarios the page checks', () => {
  it('checks up to four CPUs and says why not beyond', () => {
    expect(tooBigToCheck({ cpus: '4' })).toBeNull();
    expect(tooBigToCheck({ cpus: '8' })).toMatch(/^it has 8 CPUs; the page checks .* at most 4/);
    expect(tooBigToCheck({})).toMatch(/does not say how many CPUs/);
  });
});

describe('the verdict in words', () => {
  it('names the broken invariant and the steps of a violation, with the counts', () => {
    const { report, sim } = check('arm64-r15-lazy-kthread');
    sim?.free();
    const cx = report.counterexample!;
    expect(verdictLine(report)).toBe(
      `Violated: invariant I18 in ${cx.steps.length} steps (${checkCounts(report)})`,
    );
    expect(checkCounts({ states: 55761, depth: 34, seconds: 17.32 })).toBe(
      '55,761 states, depth 34, 17.3 s',
    );
    expect(report.symmetric).toEqual([]);
  });

  it('names the CPUs the symmetry reduction took as interchangeable', () => {
    const { report, sim } = check('x86-check-bystanders', ['switch_mm_barrier=none']);
    sim?.free();
    expect(report.symmetric).toEqual([[2, 3]]);
    expect(checkCounts(report)).toMatch(
      /^[\d,]+ states, depth 18, [\d.]+ s, CPUs 2 = 3 interchangeable$/,
    );
    expect(report.counterexample!.steps).toHaveLength(18);
  });

  it('says a proof holds up to the bound, and that a bound reached is not one', () => {
    const { report } = check('arm64-r15-lazy-kthread', ['skip_rule=active_mm']);
    expect(verdictLine(report)).toMatch(/^Holds in all interleavings up to the bound \(\d/);
    const capped = openChecker(
      readScenario('x86-r6-lazy-freed-tables'),
      ['lazy_freed_tables=ipi'],
      {
        maxStates: 50,
        maxSteps: 400,
      },
    );
    const bound: CheckReport = finishCheck(
      capped,
      () => {},
      () => 0,
    ).report;
    expect(bound.verdict).toBe('bound_reached');
    expect(verdictLine(bound)).toBe(
      `Bound reached (states): no violation in the ${checkCounts(bound)}, which is not a proof`,
    );
  });
});

describe('the counterexample on the timeline', () => {
  it('numbers every step on its CPU, marks the violation and the step looked at', () => {
    const { report, sim } = check('x86-r6-lazy-freed-tables');
    const trace = traceOf(sim!);
    sim!.free();
    const cx = report.counterexample!;
    const marks = stepMarks(cx, 3);
    expect(marks.map((m) => m.n)).toEqual(cx.steps.map((_, i) => i + 1));
    expect(marks.filter((m) => m.violation).map((m) => m.n)).toEqual([cx.violation_step]);
    expect(marks.filter((m) => m.current).map((m) => m.n)).toEqual([3]);
    for (const m of marks) {
      const s = cx.steps[m.n - 1];
      expect(m.cpu).toBe(s.cpu);
      // A mark sits on the step's first event, which happened on its CPU.
      if (m.row !== null) expect(trace.cpu[m.row]).toBe(s.cpu);
      else expect(s.rows[0]).toBe(s.rows[1]);
    }
    // The violation step's selected event is the violation itself.
    const last = cx.steps[cx.violation_step - 1];
    const row = rowOf(last, trace.kind, EventKind.InvariantViolated)!;
    expect(trace.kind[row]).toBe(EventKind.InvariantViolated);
    // Looking at step 3 highlights its rows and the violation's, nothing of step 2.
    const lit = highlightOf(cx, 3);
    expect(lit).toContain(row);
    for (let r = cx.steps[2].rows[0]; r < cx.steps[2].rows[1]; r++) expect(lit).toContain(r);
    for (let r = cx.steps[1].rows[0]; r < cx.steps[1].rows[1]; r++) expect(lit).not.toContain(r);
    expect(stepLine(cx.steps[0])).toMatch(/^CPU \d, 0 ns: /);
  });

  it('steps forward and back through every step, stopping at the ends', () => {
    const { report, sim } = check('arm64-r16-dsb-before-dec');
    sim?.free();
    const cx = report.counterexample!;
    const walked: number[] = [];
    for (let n: number | null = 1; n !== null; n = nextStep(cx, n, 1, false)) walked.push(n);
    expect(walked).toEqual(cx.steps.map((s) => s.n));
    expect(nextStep(cx, cx.steps.length, 1, false)).toBeNull();
    expect(nextStep(cx, 1, -1, false)).toBeNull();
    expect(nextStep(cx, null, -1, false)).toBe(cx.steps.length);
    // Racing-only walks the racing steps and the violation.
    const racing = cx.steps.filter((s) => s.race !== null).map((s) => s.n);
    expect(nextStep(cx, null, 1, true)).toBe([...racing, cx.violation_step][0]);
    expect(firstStep(cx)).toBe(cx.enabling_step ?? cx.violation_step);
  });

  it('words a racing step with what it went ahead of', () => {
    const step = {
      n: 4,
      cpu: 1,
      time_ns: 900,
      label: 'x',
      rows: [3, 4] as [number, number],
      race: 2,
      overtook: 'the IPI to CPU 1, due at 800 ns',
    };
    expect(raceNote(step)).toBe('racing step 2: went ahead of the IPI to CPU 1, due at 800 ns');
    expect(raceNote({ ...step, race: null, overtook: null })).toBeNull();
  });

  it('names the stale translations the lazy CPU holds when R6 breaks I4', () => {
    const { report, sim } = check('x86-r6-lazy-freed-tables');
    const cx = report.counterexample!;
    const t = cx.steps[cx.violation_step - 1].time_ns;
    const snap = parseSnapshot(sim!.snapshotJson(t))!;
    const before = parseSnapshot(sim!.snapshotJson(0))!;
    sim!.free();
    const words = staleWords(snap);
    expect(words).toHaveLength(1);
    expect(words[0]).toMatch(/^CPU 1 still holds \d+ stale translations?: mm 1 page 0 \(v0\)/);
    expect(staleWords(before)).toEqual([]);
  });
});
