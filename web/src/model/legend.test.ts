import { describe, expect, it } from 'vitest';
import { EventKind } from '../trace/trace';
import { legendOfFigure } from './legend';

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
});
