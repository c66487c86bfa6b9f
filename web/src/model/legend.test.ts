import { describe, expect, it } from 'vitest';
import { EventKind } from '../trace/trace';
import { kindsIn, legendOfFigure } from './legend';

describe('legendOfFigure', () => {
  it('names what either timeline of an A/B figure draws, each once', () => {
    // A without violations, B with them (a "side by side" step): B's ✕ used to have no entry.
    const a = { kinds: new Set([EventKind.TaskRun, EventKind.Lazy]), unpaired: 0 };
    const b = { kinds: new Set([EventKind.TaskRun, EventKind.InvariantViolated]), unpaired: 0 };
    const marks = legendOfFigure([a, b]).map((e) => (e.mark === 'span' ? e.kind : e.mark));
    expect(marks).toEqual([EventKind.TaskRun, EventKind.Lazy, 'violation']);
  });

  it('adds the counterexample badges whose styles are drawn', () => {
    const run = { kinds: new Set([EventKind.TaskRun]), unpaired: 0 };
    const steps = [
      { race: null, violation: false },
      { race: 1, violation: false },
      { race: null, violation: true },
    ];
    const badges = legendOfFigure([run], steps).flatMap((e) => (e.mark === 'step' ? [e.step] : []));
    expect(badges).toEqual(['plain', 'racing', 'violation']);
    expect(legendOfFigure([run], steps.slice(2)).filter((e) => e.mark === 'step')).toHaveLength(1);
    expect(legendOfFigure([run]).some((e) => e.mark === 'step')).toBe(false);
  });

  it("names the kinds a step's magnifier draws that the lanes leave out, after the lanes' own", () => {
    const run = { kinds: new Set([EventKind.TaskRun]), unpaired: 0 };
    const inset = new Set([EventKind.TaskPreempted, EventKind.TaskRun, EventKind.IpiSent]);
    const spans = legendOfFigure([run], [], inset).flatMap((e) =>
      e.mark === 'span' ? [e.kind] : [],
    );
    // TaskRun once; the IPI arrow has its own entry shape, never a bar.
    expect(spans).toEqual([EventKind.TaskRun, EventKind.TaskPreempted]);
  });
});

describe('kindsIn', () => {
  it('takes the rows that overlap the range, and none without one', () => {
    const trace = {
      n: 3,
      kind: new Uint8Array([EventKind.TaskRun, EventKind.Lazy, EventKind.TaskPreempted]),
      time: new Float64Array([0, 100, 300]),
      dur: new Float64Array([50, 150, 0]),
    };
    expect([...kindsIn(trace, [200, 260])]).toEqual([EventKind.Lazy]);
    expect([...kindsIn(trace, [40, 300])].sort()).toEqual(
      [EventKind.TaskRun, EventKind.Lazy, EventKind.TaskPreempted].sort(),
    );
    expect(kindsIn(trace, null).size).toBe(0);
  });
});
