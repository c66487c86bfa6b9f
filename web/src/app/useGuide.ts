// Guided mode: the URL's `step` picks a narrated step; entering a step applies its overrides
// (and its B side), and the step decides the window and the highlighted rows.
import { useEffect, useMemo, useRef } from 'react';
import {
  highlightKinds,
  highlightRows,
  MAX_HIGHLIGHT,
  stepFrame,
  type StepFrame,
} from '../model/guide';
import { lensIntervals, type LensInterval } from '../model/lens';
import type { RunResult } from '../sim/run';
import type { Step } from '../sim/scenario';
import type { UrlState } from './url';
import { useRemotePick, type PickedRows } from './useRemoteRun';
import { useRemoteLensExtents } from './useRemoteGuide';

export interface Guide {
  steps: readonly Step[];
  /** 0-based index of the step shown, or null outside guided mode. */
  index: number | null;
  step: Step | null;
  /** The step to check against the run, when the run uses exactly the step's settings. */
  checkIndex: number | undefined;
  highlight: readonly number[];
  /**
   * A run kept in its worker: the highlighted rows with their columns, as its worker picked
   * them (the page has no rows to look them up in); null otherwise, or until they come.
   */
  lit: PickedRows | null;
  /** The window and CPUs the step's subject needs on screen (null outside guided mode). */
  frame: StepFrame | null;
  /** The latency-lens intervals the step points at (its `lens` kinds), in its run. */
  lens: readonly LensInterval[];
  go: (index: number | null) => void;
}

/** Changes the URL state; `replace` for changes that are no new place to go back to. */
export type SetUrl = (u: UrlState, how?: { replace?: boolean }) => void;

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export function useGuide(
  url: UrlState,
  setUrl: SetUrl,
  result: RunResult | null,
  fullExtent: [number, number],
): Guide {
  // While a step's run computes there is no result, yet the steps are those of the run
  // before (the same scenario): → and ← keep going, so a presenter's second click on a slow
  // step is not lost.
  const scenarioKey = url.custom?.text ?? url.scenario ?? '';
  const known = useRef<{ key: string; steps: readonly Step[] }>({ key: '', steps: [] });
  if (result) known.current = { key: scenarioKey, steps: result.info.steps };
  const steps =
    result?.info.steps ?? (known.current.key === scenarioKey ? known.current.steps : []);
  const index = url.step !== null && url.step <= steps.length ? url.step - 1 : null;
  // What the step shows needs its run.
  const step = index === null || !result ? null : steps[index];
  // A link that names its own settings keeps them (the user changed them on this step); a bare
  // ?scenario=…&step=N takes the step's.
  const applied = useRef<string | null>(
    url.step !== null && (url.overrides.length > 0 || url.compare)
      ? `${url.scenario}#${url.step - 1}`
      : null,
  );

  const go = (i: number | null) => {
    if (i === null || i < 0 || i >= steps.length) {
      setUrl({ ...url, step: null });
      return;
    }
    const s = steps[i];
    applied.current = `${url.scenario}#${i}`;
    setUrl({
      ...url,
      step: i + 1,
      overrides: s.set,
      compare: s.compare !== null,
      overridesB: s.compare ?? [],
      check: s.check,
      cxStep: null,
    });
  };

  // A deep link (?scenario=…&step=N) learns the step's settings from the first run.
  useEffect(() => {
    if (index === null || !step) return;
    const key = `${url.scenario}#${index}`;
    if (applied.current === key) return;
    applied.current = key;
    const wantB = step.compare ?? [];
    if (
      !same(url.overrides, step.set) ||
      url.compare !== (step.compare !== null) ||
      !same(url.overridesB, wantB) ||
      !!url.check !== step.check
    ) {
      setUrl(
        {
          ...url,
          overrides: step.set,
          compare: step.compare !== null,
          overridesB: wantB,
          check: step.check,
        },
        { replace: true },
      );
    }
  });

  const matches = step !== null && same(url.overrides, step.set);
  const remote = !!result?.trace.remote;
  // A run kept in its worker: the same RowPicker runs there, over the run a slice at a time.
  const pickAsk = useMemo(
    () =>
      step && result && matches && remote
        ? {
            trace: result.trace,
            kinds: highlightKinds(step),
            cpus: step.cpus,
            window: step.window ?? fullExtent,
            limit: MAX_HIGHLIGHT,
          }
        : null,
    [step, result, matches, remote, fullExtent],
  );
  const lit = useRemotePick(pickAsk);
  const highlight = useMemo(
    () =>
      step && result && matches
        ? remote
          ? Array.from(lit?.rows ?? [])
          : highlightRows(result.trace, step, step.window ?? fullExtent)
        : [],
    [step, result, matches, fullExtent, remote, lit],
  );
  const lens = useMemo(
    () =>
      step?.lens.length && result && !remote
        ? lensIntervals(result.trace, step.lens, result.info.costs.context_switch_ns ?? 0)
        : [],
    [step, result, remote],
  );
  // A run kept in its worker: how far the step's intervals reach on each CPU, read there by
  // the same LensScan, frames the step as its intervals would (stepFrame reads no more).
  const extentAsk = useMemo(
    () =>
      step?.lens.length && result && remote
        ? {
            trace: result.trace,
            kinds: step.lens,
            contextSwitchNs: result.info.costs.context_switch_ns ?? 0,
          }
        : null,
    [step, result, remote],
  );
  const lensExtents = useRemoteLensExtents(extentAsk);
  // A run with other settings than the step's keeps the step's window but folds no CPU: the
  // reader changed the machine (more CPUs, say) and should see all of it.
  const frame = useMemo(() => {
    if (!step || !result) return null;
    const cpuOf = lit
      ? (r: number) => lit.columns.cpu[lit.rows.indexOf(r)]
      : (r: number) => result.trace.cpu[r];
    const intervals = remote ? (lensExtents ?? []) : lens;
    const f = stepFrame(result.trace, step, highlight, fullExtent, intervals, cpuOf);
    return matches ? f : { ...f, cpus: [] };
  }, [step, result, highlight, fullExtent, lens, matches, lit, remote, lensExtents]);
  return {
    steps,
    index,
    step,
    checkIndex: matches && index !== null ? index : undefined,
    highlight,
    lit: remote ? lit : null,
    frame,
    lens,
    go,
  };
}
