/// <reference lib="webworker" />
// Fits a machine's cost parameters to imported rows off the main thread: the same row
// selection and Levenberg–Marquardt as `tlbscope fit` (model/fitCore.mjs), predicting each
// row with the same WASM build the page runs. Progress lines go back as they come.
import benchmarks from '../../../content/benchmarks.json';
import { readSummaryPath } from '../content/benchmarks';
import {
  defaultParams,
  FitError,
  fitCosts,
  selectRows,
  type BenchmarkModel,
} from '../model/fitCore.mjs';
import { thisBuild } from '../sim/run';
import { parseSummary } from '../trace/summary';
import { loadSimulator } from '../sim/wasm';
import type { FitReply, FitRequest } from './fitProtocol';

const { Simulator } = thisBuild;
const ready = loadSimulator();
const table = benchmarks as unknown as Record<string, BenchmarkModel>;

function post(msg: FitReply) {
  (self as DedicatedWorkerGlobalScope).postMessage(msg);
}

function isPreset(text: string, machine: string): boolean {
  try {
    new Simulator(text, [`machine=${machine}`], 1).free();
    return true;
  } catch {
    return false;
  }
}

function fitRows(req: FitRequest) {
  const { selected, skipped } = selectRows(req.rows, { benchmarks: table });
  if (!selected.length) {
    const why = skipped.map((s) => `row ${s.line}: ${s.reason}`).join('; ');
    throw new FitError(`no row of this file can be fitted${why ? ` (${why})` : ''}`);
  }
  const textOf = (id: string) => {
    const t = req.texts[id];
    if (t === undefined) throw new FitError(`no scenario ${id} in this build`);
    return t;
  };
  const first = textOf(selected[0].scenario);
  const fromFile = selected[0].machine;
  let preset: string;
  if (fromFile && isPreset(first, fromFile)) preset = fromFile;
  else {
    const sim = new Simulator(first, [], 1);
    preset = sim.preset;
    sim.free();
  }
  const start = new Simulator(first, [`machine=${preset}`], 1);
  const costs = JSON.parse(start.costsJson()) as Record<string, number>;
  start.free();
  const names = defaultParams(selected, table);
  const predict = (x: number[]) =>
    selected.map((s) => {
      const sim = new Simulator(
        textOf(s.scenario),
        [`machine=${preset}`, ...s.overrides, ...names.map((p, j) => `costs.${p}=${x[j]}`)],
        1,
      );
      try {
        sim.run();
        const v = readSummaryPath(parseSummary(sim.summaryJson()), s.summaryPath);
        if (v === null) throw new FitError(`${s.scenario}: the summary has no ${s.summaryPath}`);
        return v;
      } finally {
        sim.free();
      }
    });
  const result = fitCosts({
    selected,
    names,
    costs,
    preset,
    predict,
    maxRuns: req.maxRuns,
    progress: (line) => post({ type: 'progress', id: req.id, line }),
  });
  return { result, skipped: skipped.map((s) => ({ line: s.line, reason: s.reason })) };
}

self.onmessage = async (e: MessageEvent<FitRequest>) => {
  await ready;
  const req = e.data;
  try {
    const { result, skipped } = fitRows(req);
    post({ type: 'fitted', id: req.id, result, skipped });
  } catch (err) {
    post({ type: 'error', id: req.id, message: err instanceof Error ? err.message : String(err) });
  }
};
