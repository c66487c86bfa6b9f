// Model predictions for measured numbers, run one at a time in the simulator worker
// (SimSession) so the page stays responsive. Results are cached per plan key for the life of
// the view.
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  countPerIteration,
  derivedValue,
  planPrediction,
  readSummaryPath,
  toNs,
  type PredictionPlan,
} from '../../content/benchmarks';
import type { Measurement } from '../../content/datasets';
import type { PredictionState } from '../../model/overlay';
import { RunCancelled, SimSession } from '../../workers/session';

/** Distinct model runs one page starts for measured data (each takes up to a second). */
export const MAX_MODEL_RUNS = 100;

/**
 * Simulator workers the predictions share: a thread sweep is two dozen runs of up to a second
 * each, so they run side by side, leaving a core to the page.
 */
export function predictionWorkers(cores = globalThis.navigator?.hardwareConcurrency ?? 2): number {
  return Math.max(1, Math.min(3, cores - 1));
}

export function usePredictions(measurements: readonly Measurement[]) {
  const [results, setResults] = useState<ReadonlyMap<string, PredictionState>>(new Map());
  const sessions = useRef<SimSession[]>([]);
  const started = useRef(new Set<string>());
  const overCap = useRef(new Set<string>());
  const plans = useMemo(() => {
    const byMeasurement = new Map<Measurement, PredictionPlan>();
    for (const m of measurements) byMeasurement.set(m, planPrediction(m));
    return byMeasurement;
  }, [measurements]);

  useEffect(() => {
    type Run = Extract<PredictionPlan, { status: 'run' }>;
    const todo = new Map<string, Run>();
    for (const p of plans.values()) {
      if (p.status !== 'run' || started.current.has(p.key)) continue;
      // Each distinct variant is a model run: beyond the cap, say so instead of running it.
      if (started.current.size + todo.size >= MAX_MODEL_RUNS) {
        overCap.current.add(p.key);
        continue;
      }
      todo.set(p.key, p);
    }
    if (!todo.size) return;
    for (const p of todo.values()) started.current.add(p.key);
    while (sessions.current.length < predictionWorkers()) sessions.current.push(new SimSession());
    // Each worker takes the next plan in chart order when it is free.
    const queue = [...todo.values()];
    const drain = async (s: SimSession) => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        const key = p.key;
        let r: PredictionState;
        try {
          // Only the summary is read: no trace, no timeline model.
          const run = await s.run(p.text, { overrides: p.overrides, seed: 1, summaryOnly: true });
          const v = readSummaryPath(run.summary, p.summaryPath);
          r =
            v === null
              ? { status: 'none', reason: `the simulator does not report ${p.summaryPath} yet` }
              : {
                  status: 'done',
                  ns: toNs(v, p.summaryUnit),
                  scenario: p.scenario,
                  preset: p.preset,
                  ignored: p.ignored,
                  aliased: p.aliased,
                  perIteration: Object.fromEntries(
                    Object.entries(p.counts).map(([metric, c]) => [
                      metric,
                      countPerIteration(run.summary, c),
                    ]),
                  ),
                  derived: Object.fromEntries(
                    Object.entries(p.derived).map(([metric, d]) => [
                      metric,
                      derivedValue(run.summary, d, p.overrides),
                    ]),
                  ),
                };
        } catch (e) {
          // Unmounted (or React's dev double mount, which clears `started` to run them again).
          if (e instanceof RunCancelled) return;
          r = {
            status: 'none',
            reason: `the model could not run ${p.scenario}: ${(e as Error).message}`,
          };
        }
        setResults((m) => new Map(m).set(key, r));
      }
    };
    for (const s of sessions.current) void drain(s);
  }, [plans]);

  useEffect(
    () => () => {
      for (const s of sessions.current) s.dispose();
      sessions.current = [];
      started.current.clear();
      overCap.current.clear();
    },
    [],
  );

  return (m: Measurement): PredictionState => {
    const p = plans.get(m) ?? planPrediction(m);
    if (p.status === 'none') return p;
    const r = results.get(p.key);
    if (r) return r;
    if (
      overCap.current.has(p.key) ||
      (!started.current.has(p.key) && started.current.size >= MAX_MODEL_RUNS)
    ) {
      return {
        status: 'none',
        reason: `not run: the page runs the model for at most ${MAX_MODEL_RUNS} distinct variants (the model-run limit)`,
      };
    }
    return { status: 'pending' };
  };
}
