#!/usr/bin/env node
// tlbscope command line: run scenarios and sweeps headless on the same WASM build as the site.
//   tlbscope list
//   tlbscope run <scenario file|id> [--set key=value ...] [--seed N] [--format json|csv]
//   tlbscope sweep <scenario file|id> --vary key=v1,v2 [--vary ...] [--set ...] [--seed N] [--format csv|json]
import { loadWasm, scenarioIds, readScenarioArg } from './wasm.mjs';
import { parseArgs, UsageError, USAGE } from './args.mjs';
import { toCsv, toRows } from './csv.mjs';
import { runOnce, expandSweep, ScenarioFailure } from './run.mjs';

async function main(argv) {
  const args = parseArgs(argv);
  if (args.command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const wasm = await loadWasm();
  if (args.command === 'list') {
    for (const id of scenarioIds()) {
      const { text } = readScenarioArg(id);
      const info = describe(wasm, text, id);
      process.stdout.write(`${id.padEnd(40)} ${info.arch.padEnd(6)} ${info.title}\n`);
    }
    return 0;
  }
  const { id, text, file } = readScenarioArg(args.scenario);
  const runs =
    args.command === 'run'
      ? [runOnce(wasm, text, file, args.set, args.seed)]
      : expandSweep(args.vary).map((combo) =>
          runOnce(wasm, text, file, [...args.set, ...combo], args.seed),
        );
  if (args.format === 'csv') {
    process.stdout.write(toCsv(runs.flatMap((r) => toRows(id, r))));
  } else if (args.command === 'run') {
    process.stdout.write(`${JSON.stringify(runs[0].summary, null, 2)}\n`);
  } else {
    const out = runs.map((r) => ({ overrides: r.overrides, summary: r.summary }));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  }
  return 0;
}

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

function archOf(text) {
  return /^\s*arch\s*=\s*"([^"]+)"/m.exec(text)?.[1] ?? 'x86';
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError) {
    process.stderr.write(`tlbscope: ${e.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else if (e instanceof ScenarioFailure) {
    process.stderr.write(`tlbscope: ${e.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`tlbscope: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  }
}
