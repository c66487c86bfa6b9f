// How long `tlbscope run <guided scenario>` takes from process start to its first line of
// output, for the two ways the CLI starts: from a clone (web/cli/tsLoader.mjs serves the web
// app's TypeScript from its transpile cache) and as the bundle an installed package runs
// (web/scripts/pack-cli.mjs, rebuilt here first so that it matches the sources). Prints the best
// and median of several runs with the load average, which a shared machine needs beside any
// wall time, and the CPU seconds of a whole run, which a loaded machine moves much less; the
// target (0.3 s to the first line) is printed as PASS/FAIL and never asserted.
//   node bench/cli-start.mjs [runs]
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { packCli } from '../web/scripts/pack-cli.mjs';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const launcher = resolve(repo, 'web/cli/tlbscope.mjs');
const SCENARIO = 'x86-munmap-shootdown';
const TARGET_S = 0.3;
const runs = Number(process.argv[2] ?? 9);

/** Seconds from spawn to the first complete line on stdout. @param {NodeJS.ProcessEnv} env */
function firstLine(env) {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [launcher, 'run', SCENARIO], { env, cwd: repo });
    /** @type {number | undefined} */
    let at;
    child.stdout.on('data', (/** @type {Buffer} */ chunk) => {
      if (at === undefined && chunk.includes(10)) at = (performance.now() - t0) / 1000;
    });
    child.on('error', fail);
    child.on('close', (code) => {
      if (code !== 0 || at === undefined)
        fail(new Error(`tlbscope run ${SCENARIO} exited ${code}`));
      else done(at);
    });
  });
}

/**
 * CPU seconds (user + system) of one whole run, as bash's `time` reads them from the kernel:
 * on a machine other jobs load, this moves far less than the wall time.
 * @param {NodeJS.ProcessEnv} env
 */
function cpuSeconds(env) {
  const r = spawnSync(
    'bash',
    [
      '-c',
      'TIMEFORMAT="%3U %3S"; time "$0" "$1" run "$2" >/dev/null',
      process.execPath,
      launcher,
      SCENARIO,
    ],
    { env, cwd: repo, encoding: 'utf8' },
  );
  const [user, sys] = r.stderr.trim().split('\n').at(-1)?.split(' ').map(Number) ?? [NaN, NaN];
  return user + sys;
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await packCli();
const paths = {
  'clone (TS loader)': { ...process.env, TLBSCOPE_BUNDLE: '0' },
  'bundle (npm package)': { ...process.env, TLBSCOPE_BUNDLE: '1' },
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
process.stdout.write(`cli-start: tlbscope run ${SCENARIO}, ${runs} runs each, load ${load()}\n`);
/** Node's own start on this machine now: the floor under both paths. */
function bare() {
  return new Promise((done) => {
    const t0 = performance.now();
    spawn(process.execPath, ['-e', 'console.log(1)']).on('close', () =>
      done((performance.now() - t0) / 1000),
    );
  });
}
/** @type {number[]} */
const floor = [];
for (let i = 0; i < runs; i++) floor.push(await bare());
process.stdout.write(
  `  ${'node -e (floor)'.padEnd(22)} best ${Math.min(...floor).toFixed(3)} s  median ${median(floor).toFixed(3)} s\n`,
);
for (const [name, env] of Object.entries(paths)) {
  await firstLine(env); // warms the OS file cache and, for the clone, the transpile cache
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await firstLine(env));
  const best = Math.min(...times);
  const med = median(times);
  const cpu = median(Array.from({ length: Math.min(runs, 5) }, () => cpuSeconds(env)));
  const verdict = med <= TARGET_S ? 'PASS' : 'FAIL';
  process.stdout.write(
    `  ${name.padEnd(22)} best ${best.toFixed(3)} s  median ${med.toFixed(3)} s  ` +
      `cpu ${cpu.toFixed(3)} s  ${verdict} (target median <= ${TARGET_S} s)\n`,
  );
}
process.stdout.write(`  load after: ${load()}\n`);
