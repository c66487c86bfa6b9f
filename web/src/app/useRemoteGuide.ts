// What a guided step needs of a run kept in its worker (Trace.remote) beyond its own rows
// (useRemoteRun.ts useRemotePick): how far the lens's intervals reach, which widens the step's
// frame, and, in a comparison step, B's highlighted rows. Each is computed in the worker by
// the page's own pure functions over the whole run, and asked for again only when what it
// depends on changes.
import { useMemo } from 'react';
import { highlightKinds, highlightRows, MAX_HIGHLIGHT } from '../model/guide';
import type { LensExtent } from '../model/lensExtent';
import { isRecorded } from '../recording/asRun';
import type { RunResult } from '../sim/run';
import type { Step } from '../sim/scenario';
import type { Trace } from '../trace/trace';
import type { LitRows } from '../viz/remoteOverlay';
import { useRemotePick } from './useRemoteRun';
import { useKeptAnswer } from './useKeptAnswer';

export interface LensExtentAsk {
  trace: Trace;
  kinds: readonly string[];
  contextSwitchNs: number;
}

/**
 * How far the lens's intervals of `ask.kinds` reach on each CPU of its run, read in the run's
 * worker (model/lensExtent.ts); null while asked, or without `ask`.
 */
export function useRemoteLensExtents(ask: LensExtentAsk | null): LensExtent[] | null {
  const key = ask ? `${ask.trace.version}|${ask.kinds.join()}|${ask.contextSwitchNs}` : '';
  return useKeptAnswer(ask?.trace ?? null, key, (client) =>
    ask ? client.lensExtents(ask.kinds, ask.contextSwitchNs) : Promise.resolve(null),
  );
}

/** B's side of a comparison step: the rows highlighted on it, and (kept) with their columns. */
export interface GuideB {
  highlight: readonly number[] | undefined;
  /** B kept in its worker: its highlighted rows as that worker picked them. */
  lit: LitRows | null;
}

/**
 * A comparison step points at the same kinds on both sides: B's marks are highlighted too, so
 * the reader sees what the words compare (and that B may have none of them). `highlightA`:
 * A's highlighted rows (none: the step highlights nothing, or A's are still coming).
 */
export function useGuideB(
  step: Step | null,
  b: RunResult | null,
  highlightA: readonly number[],
  fullExtent: [number, number],
): GuideB {
  const on = !!(b && step?.compare && highlightA.length && !isRecorded(b));
  const kept = on && !!b?.trace.remote;
  const ask = useMemo(
    () =>
      kept && b && step
        ? {
            trace: b.trace,
            kinds: highlightKinds(step),
            cpus: step.cpus,
            window: step.window ?? fullExtent,
            limit: MAX_HIGHLIGHT,
          }
        : null,
    [kept, b, step, fullExtent],
  );
  const lit = useRemotePick(ask);
  const highlight = useMemo(
    () =>
      !on || !b || !step
        ? undefined
        : kept
          ? Array.from(lit?.rows ?? [])
          : highlightRows(b.trace, step, step.window ?? fullExtent),
    [on, kept, b, step, fullExtent, lit],
  );
  return { highlight, lit: kept ? lit : null };
}
