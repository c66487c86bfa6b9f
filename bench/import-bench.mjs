// How fast `tlbscope import` reads a long recording: a generated tracefs recording
// (bench/gen-tracefs.mjs, written once to the temporary directory) read by the CLI's own reader
// (web/cli/recording.mjs readRecording: the stream, the parser and the builder's finish) in a
// fresh process per run, so each run pays its JIT warm-up as the CLI does. Prints lines/s, MB/s
// and CPU seconds as best and median of the runs, beside the load average a shared machine
// needs with any wall time; the target (1.5 M lines/s) is printed as PASS/FAIL, never asserted.
//   node bench/import-bench.mjs [--lines N (default 2,000,000)] [--runs N (default 5)]
//                               [--against DIR]
// --against DIR times the reader of another checkout too (e.g. `git worktree add DIR <commit>`),
// its runs alternating with this one's, so that a before and an after share the machine's load.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';
import { writeTracefs } from './gen-tracefs.mjs';

exitIfHelp(import.meta.url);

const TARGET_LINES_S = 1.5e6;
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

/** One run, in this (child) process: the read's wall and CPU seconds, with `tree`'s reader. */
async function child(path, tree) {
  const { register } = await import('node:module');
  const cli = pathToFileURL(join(tree, 'web/cli/'));
  register(new URL('tsLoader.mjs', cli));
  const { readRecording } = await import(new URL('recording.mjs', cli).href);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { rec } = await readRecording(path);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const rss = process.memoryUsage().rss;
  console.log(
    JSON.stringify({
      wall,
      cpu: (cpu.user + cpu.system) / 1e6,
      lines: rec.lines,
      rows: rec.columns.time.length,
      rss,
    }),
  );
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { best: s[0], median: s[Math.floor((s.length - 1) / 2)], worst: s[s.length - 1] };
};

/** Runs `runs` fresh processes for each tree, alternating; their results per tree. */
function measure(path, trees, runs) {
  const self = fileURLToPath(import.meta.url);
  const results = trees.map(() => []);
  for (let i = 0; i < runs; i++) {
    trees.forEach((tree, k) => {
      const r = spawnSync(process.execPath, [self, '--child', path, tree], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`run ${i + 1} of ${tree} failed:\n${r.stderr}`);
      results[k].push(JSON.parse(r.stdout.trim().split('\n').pop()));
    });
  }
  return results;
}

function report(label, results, bytes) {
  const wall = stats(results.map((r) => r.wall));
  const cpu = stats(results.map((r) => r.cpu));
  const n = results[0].lines;
  console.log(`${label}: ${results.length} runs`);
  console.log(`  ${''.padEnd(12)} ${'best'.padStart(12)}  ${'median'.padStart(12)}`);
  const row = (name, f) => console.log(`  ${name.padEnd(12)} ${f(wall.best)}  ${f(wall.median)}`);
  row('wall s', (w) => w.toFixed(2).padStart(12));
  row('lines/s', (w) => `${(n / w / 1e6).toFixed(2)} M`.padStart(12));
  row('MB/s', (w) => (bytes / w / 1e6).toFixed(0).padStart(12));
  console.log(
    `  ${'CPU s'.padEnd(12)} ${cpu.best.toFixed(2).padStart(12)}  ${cpu.median.toFixed(2).padStart(12)}`,
  );
  const rss = stats(results.map((r) => r.rss));
  console.log(`  ${'RSS at end'.padEnd(12)} ${(rss.median / 1e6).toFixed(0).padStart(9)} MB`);
  const ok = n / wall.median >= TARGET_LINES_S;
  console.log(`  target ≥ ${TARGET_LINES_S / 1e6} M lines/s (median): ${ok ? 'PASS' : 'FAIL'}`);
}

async function main() {
  const lines = arg('lines', 2_000_000);
  const runs = arg('runs', 5);
  const i = process.argv.indexOf('--against');
  const against = i > 0 ? resolve(process.argv[i + 1]) : null;
  const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const path = join(tmpdir(), `tlbscope-import-bench-${lines}.trace`);
  if (!existsSync(path)) await writeTracefs(path, lines, 64);
  const bytes = statSync(path).size;
  const trees = against ? [here, against] : [here];
  const before = loadavg();
  const results = measure(path, trees, runs);
  const load = (xs) => xs.map((x) => x.toFixed(2)).join(' ');
  const r0 = results[0][0];
  console.log(
    `tlbscope import of ${path}: ${r0.lines.toLocaleString('en-US')} lines, ` +
      `${(bytes / 1e6).toFixed(0)} MB, ${r0.rows.toLocaleString('en-US')} rows; ` +
      `load ${load(before)} before, ${load(loadavg())} after`,
  );
  trees.forEach((tree, k) => report(tree, results[k], bytes));
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else await main();
