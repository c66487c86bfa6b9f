// tlbscope command line: run scenarios and sweeps headless on the same WASM build as the site.
//   tlbscope list
//   tlbscope settings [--format text|json]
//   tlbscope run <scenario file|id> [--set key=value ...] [--seed N] [--format json|csv|perfetto]
//   tlbscope sweep <scenario file|id> --vary key=v1,v2 [--vary ...] [--set ...] [--seed N] [--format csv|json]
//   tlbscope calibrate [--costs file] [--strict] [--leave-one-out] [--format text|json|csv]
//   tlbscope fit <dataset.csv> [--benchmark id] [--params a,b] [--machine preset] [--out file] [--leave-one-out]
//   tlbscope import <recording> [--format text|json|perfetto]
//   tlbscope analyze <recording|scenario file|id> [--top N] [--set ...] [--format text|json]
//   tlbscope fit-recording <recording> [--out preset.toml] [--format text|json]
//   tlbscope history <scenario file|id> [--set key=value ...] [--seed N] [--format text|json]
//   tlbscope check <scenario file|id> | --race <id> [--set ...] [--max-steps N] [--format text|json]
import { readFileSync, writeFileSync } from 'node:fs';
import { loadWasm, scenarioIds, readScenarioArg } from './wasm.mjs';
import { parseArgs, UsageError, USAGE } from './args.mjs';
import { commandHelp } from './help.mjs';
import { importRecording, RecordingFailure, runPerfetto } from './recording.mjs';
import { analyze } from './analyze.mjs';
import { fitRecording } from './fitRecording.mjs';
import { toCsv, toRows } from './csv.mjs';
import { BudgetStop, runOnce, expandSweep, ScenarioFailure, SimulatorTrap } from './run.mjs';
import { bandOfRun } from './band.mjs';
import { calibrate, DatasetError, formatReport, reportCsv } from './calibrate.mjs';
import { formatSettings } from './settingsHelp.mjs';
import { err, out, progress, stderrIsTty } from './terminal.mjs';
import { formatHistory, history } from './history.mjs';
import { formatLeaveOneOut, leaveOneOut, leaveOneOutDataset } from './leaveOneOut.mjs';
import { CheckInputError, EXIT as CHECK_EXIT, runCheck } from './check.mjs';
import {
  costsFileOverrides,
  fit,
  FitError,
  formatFit,
  readCsv,
  selectRows,
  toToml,
} from './fit.mjs';

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code
 */
async function main(argv) {
  const args = parseArgs(argv);
  if (args.command === 'help') {
    out(args.topic ? commandHelp(args.topic) : USAGE);
    return 0;
  }
  /** The command's scenario, dataset or recording (parseArgs has checked there is one). */
  const target = () => {
    if (args.scenario === undefined) throw new UsageError(`${args.command} needs a file`);
    return args.scenario;
  };
  if (args.command === 'import') return importRecording(target(), args.format);
  if (args.command === 'fit-recording') return fitRecording(target(), args);
  const wasm = await loadWasm();
  if (args.command === 'settings') {
    const vocab = wasm.vocabularyJson();
    out(args.format === 'json' ? `${vocab}\n` : formatSettings(JSON.parse(vocab)));
    return 0;
  }
  if (args.command === 'list') {
    for (const id of scenarioIds()) {
      const { text } = readScenarioArg(id);
      const info = describe(wasm, text, id);
      out(`${id.padEnd(40)} ${info.arch.padEnd(6)} ${info.title}\n`);
    }
    return 0;
  }
  const costs = args.costs ? costsFileOverrides(readFileSync(args.costs, 'utf8'), args.costs) : [];
  if (args.command === 'calibrate' && args.leaveOneOut) {
    const report = leaveOneOut(wasm, {
      extra: costs,
      maxRuns: args.maxRuns,
      progress: (m) => err(`${m}\n`),
    });
    if (args.format === 'json') out(`${JSON.stringify(report, null, 2)}\n`);
    else out(formatLeaveOneOut(report));
    return 0;
  }
  if (args.command === 'calibrate') {
    const report = calibrate(wasm, { extra: costs, band: !!args.band });
    if (args.format === 'json') out(`${JSON.stringify(report, null, 2)}\n`);
    else if (args.format === 'csv') out(reportCsv(report));
    else out(formatReport(report));
    return report.failures > 0 || (args.strict && report.gaps > 0) ? 1 : 0;
  }
  if (args.command === 'fit') {
    const { selected, skipped } = selectRows(readCsv(target(), args.map, args), {
      benchmark: args.benchmark,
    });
    if (selected.length === 0) {
      const why = skipped.map((s) => `  line ${s.line}: ${s.reason}`).join('\n');
      throw new FitError(`no row of ${target()} can be fitted${why ? `:\n${why}` : ''}`);
    }
    if (args.leaveOneOut) {
      const report = leaveOneOutDataset(wasm, selected, {
        params: args.params,
        machine: args.machine,
        maxRuns: args.maxRuns,
        progress: (m) => err(`${m}\n`),
      });
      if (args.format === 'json') out(`${JSON.stringify(report, null, 2)}\n`);
      else out(formatLeaveOneOut(report));
      return 0;
    }
    const result = fit(wasm, selected, {
      params: args.params,
      machine: args.machine,
      maxRuns: args.maxRuns,
      progress: (m) => err(`${m}\n`),
    });
    if (args.out) {
      writeFileSync(args.out, toToml(result, target(), args));
      err(`fit: wrote ${args.out}\n`);
    }
    if (args.format === 'json') {
      out(`${JSON.stringify({ ...result, skipped }, null, 2)}\n`);
    } else {
      out(formatFit(result, skipped));
      if (!args.out) out(`\n${toToml(result, target(), args)}`);
    }
    return 0;
  }
  args.set = [...costs, ...args.set];
  if (args.command === 'analyze') return analyze(wasm, target(), args);
  if (args.command === 'check') return runCheck(wasm, args);
  const { id, text, file } = readScenarioArg(target());
  if (args.command === 'history') {
    const steps = history(wasm, { text, file }, args.set, args.seed);
    out(args.format === 'json' ? `${JSON.stringify(steps, null, 2)}\n` : formatHistory(id, steps));
    return 0;
  }
  if (args.command === 'run' && args.format === 'perfetto') {
    return runPerfetto(wasm, { id, text, file }, args.set, args.seed);
  }
  const runs =
    args.command === 'run'
      ? [runOnce(wasm, text, file, args.set, args.seed)]
      : sweep(wasm, { text, file }, args);
  // The band runs each run twice more: a sweep reports those runs as it does its own.
  const showBand = args.command === 'sweep' && (args.progress || stderrIsTty());
  const bands = args.band
    ? runs.map((r, i) => {
        const b = bandOfRun(wasm, text, file, r);
        if (showBand)
          progress(`band: ${i + 1}/${runs.length} runs at both ends of the cost ranges`, {
            done: i + 1 === runs.length,
          });
        return b;
      })
    : null;
  if (args.format === 'csv') {
    out(toCsv(runs.flatMap((r) => toRows(id, r))));
  } else if (args.command === 'run') {
    const summary = bands ? { ...runs[0].summary, band: bands[0] } : runs[0].summary;
    out(`${JSON.stringify(summary, null, 2)}\n`);
  } else {
    const result = runs.map((r, i) => ({
      overrides: r.overrides,
      summary: r.summary,
      ...(bands ? { band: bands[i] } : {}),
    }));
    out(`${JSON.stringify(result, null, 2)}\n`);
  }
  return 0;
}

/**
 * Every combination of the --vary lists, reporting progress on stderr when it is a terminal or
 * --progress asks: runs done of the total, the time so far and an estimate of the rest.
 * @param {import('../src/sim/run').SimulatorApi} wasm
 * @param {{ text: string, file: string }} scenario
 * @param {import('./args.mjs').Args} args
 */
function sweep(wasm, { text, file }, args) {
  const combos = expandSweep(args.vary);
  const show = args.progress || stderrIsTty();
  const start = Date.now();
  let shown = 0;
  return combos.map((combo, i) => {
    const run = runOnce(wasm, text, file, [...args.set, ...combo], args.seed);
    const now = Date.now();
    const last = i + 1 === combos.length;
    // At most about four reports a second, and always the last one.
    if (show && (last || now - shown >= 250)) {
      shown = now;
      const elapsed = (now - start) / 1000;
      const left = (elapsed / (i + 1)) * (combos.length - i - 1);
      progress(
        `sweep: ${i + 1}/${combos.length} runs, ${elapsed.toFixed(1)} s elapsed` +
          (last ? '' : `, about ${left.toFixed(1)} s left`),
        { done: last },
      );
    }
    return run;
  });
}

/**
 * @param {import('../src/sim/run').SimulatorApi} wasm
 * @param {string} text
 * @param {string} id
 */
function describe(wasm, text, id) {
  try {
    const sim = new wasm.Simulator(text, [], 1);
    const info = { title: sim.title, arch: typeof sim.arch === 'string' ? sim.arch : archOf(text) };
    sim.free();
    return info;
  } catch (e) {
    return { title: `(invalid: ${String(e)})`, arch: archOf(text) ?? '?', id };
  }
}

/** @param {string} text */
function archOf(text) {
  return /^\s*arch\s*=\s*"([^"]+)"/m.exec(text)?.[1] ?? 'x86';
}

const argvCommand = process.argv[2];
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof CheckInputError || (e instanceof UsageError && argvCommand === 'check')) {
    err(`tlbscope: ${e.message}\n`);
    process.exitCode = CHECK_EXIT.bad_input;
  } else if (e instanceof UsageError) {
    err(`tlbscope: ${e.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else if (e instanceof BudgetStop) {
    // What ran before the budget stopped it is still worth seeing: its summary on stdout.
    out(`${JSON.stringify(e.partial.summary, null, 2)}\n`);
    err(`tlbscope: ${e.message}\n`);
    process.exitCode = 1;
  } else if (e instanceof SimulatorTrap) {
    err(`tlbscope: ${e.message}\n`);
    process.exitCode = 3;
  } else if (
    e instanceof ScenarioFailure ||
    e instanceof FitError ||
    e instanceof DatasetError ||
    e instanceof RecordingFailure
  ) {
    err(`tlbscope: ${e.message}\n`);
    process.exitCode = 1;
  } else {
    err(`tlbscope: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  }
}
