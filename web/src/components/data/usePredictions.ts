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
import { boundOverrides } from '../../model/band';
import type { BandEnd, PredictionState, Readout } from '../../model/overlay';
import type { RunResult } from '../../sim/run';
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

/** What the charts read from one run's summary (null: the benchmark's figure is not in it). */
function readoutOf(
  summary: RunResult['summary'],
  p: Extract<PredictionPlan, { status: 'run' }>,
): Readout | null {
  const v = readSummaryPath(summary, p.summaryPath);
  if (v === null) return null;
  return {
    ns: toNs(v, p.summaryUnit),
    perIteration: Object.fromEntries(
      Object.entries(p.counts).map(([metric, c]) => [metric, countPerIteration(summary, c)]),
    ),
    derived: Object.fromEntries(
      Object.entries(p.derived).map(([metric, d]) => [
        metric,
        derivedValue(summary, d, p.overrides),
      ]),
    ),
  };
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
    // Each worker takes the next job when it is free: every central run in chart order first,
    // then the band's two end runs of each, so the predictions show before their bands.
    type Job = { p: Run; end?: { which: BandEnd; overrides: string[] } };
    const queue: Job[] = [...todo.values()].map((p) => ({ p }));
    const ends = new Map<string, Partial<Record<BandEnd, Readout | null>>>();
    // Both ends in: the band joins the prediction (null when an end gave no figure).
    const settleBand = (key: string, which: BandEnd, read: Readout | null) => {
      const got = { ...ends.get(key), [which]: read };
      ends.set(key, got);
      if (got.low === undefined || got.high === undefined) return;
      const band = got.low && got.high ? { low: got.low, high: got.high } : null;
      setResults((m) => {
        const r = m.get(key);
        return r?.status === 'done' ? new Map(m).set(key, { ...r, band }) : m;
      });
    };
    const drain = async (s: SimSession) => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const { p, end } = job;
        const key = p.key;
        let run;
        try {
          // Only the summary is read: no trace, no timeline model.
          const overrides = end ? [...p.overrides, ...end.overrides] : p.overrides;
          run = await s.run(p.text, { overrides, seed: 1, summaryOnly: true });
        } catch (e) {
          // Unmounted (or React's dev double mount, which clears `started` to run them again).
          if (e instanceof RunCancelled) return;
          if (end) {
            settleBand(key, end.which, null);
            continue;
          }
          const reason = `the model could not run ${p.scenario}: ${(e as Error).message}`;
          setResults((m) => new Map(m).set(key, { status: 'none', reason }));
          continue;
        }
        const read = readoutOf(run.summary, p);
        if (end) {
          settleBand(key, end.which, read);
          continue;
        }
        const r: PredictionState =
          read === null
            ? { status: 'none', reason: `the simulator does not report ${p.summaryPath} yet` }
            : {
                status: 'done',
                ...read,
                scenario: p.scenario,
                preset: p.preset,
                ignored: p.ignored,
                aliased: p.aliased,
              };
        setResults((m) => new Map(m).set(key, r));
        if (read !== null) {
          const bounds = boundOverrides(run.info.costs, p.overrides);
          queue.push({ p, end: { which: 'low', overrides: bounds.low } });
          queue.push({ p, end: { which: 'high', overrides: bounds.high } });
        }
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
