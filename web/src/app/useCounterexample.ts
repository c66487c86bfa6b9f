// The counterexample being looked at (`view=counterexample&cx=<n>`): which step, its marks and
// highlighted rows on A's timeline, and stepping. Looking at a step selects its first event and
// puts the cursor at its time, so the inspector and the machine state show that moment (the
// worker replays the interleaving up to it).
import { useCallback, useEffect, useMemo } from 'react';
import { firstStep, highlightOf, nextStep, rowOf, stepMarks } from '../model/check';
import { EventKind } from '../trace/trace';
import type { Counterexample } from '../sim/check';
import type { Explorer } from './useExplorer';
import type { UrlState } from './url';
import type { SetUrl } from './useGuide';

export type CounterexampleView = ReturnType<typeof useCounterexample>;

export function useCounterexample(x: Explorer, url: UrlState, setUrl: SetUrl) {
  const { a, freshA, setSelected, setCursor } = x;
  // A's counterexample is shown as soon as it is A's: B (the fix's proof) may take longer.
  const cx: Counterexample | null = (url.check && freshA && a?.check?.counterexample) || null;
  const last = cx?.steps.length ?? 0;
  // A link's step past the end shows the last (the violation).
  const current = cx ? Math.min(url.cxStep ?? firstStep(cx), last) : null;
  const marks = useMemo(() => (cx ? stepMarks(cx, current) : null), [cx, current]);
  const highlight = useMemo(() => (cx ? highlightOf(cx, current) : null), [cx, current]);

  useEffect(() => {
    if (!cx || current === null) return;
    const s = cx.steps[current - 1];
    const row = a ? rowOf(s, a.trace.kind, EventKind.InvariantViolated) : null;
    setSelected(row);
    setCursor(s.time_ns);
  }, [cx, current, a, setSelected, setCursor]);

  const go = useCallback(
    (n: number | null) => {
      if (n !== null) setUrl({ ...url, cxStep: n });
    },
    [url, setUrl],
  );
  /** The next or previous step (all steps, or only the racing ones and the violation). */
  const move = useCallback(
    (dir: 1 | -1, racing = false) => {
      if (!cx) return false;
      const n = nextStep(cx, current, dir, racing);
      go(n);
      return n !== null;
    },
    [cx, current, go],
  );
  return { cx, current, marks, highlight, go, move };
}
