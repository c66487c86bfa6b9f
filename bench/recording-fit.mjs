// Your machine as a model, checked: for each quiet recording made with bench/kit on this
// project's guest, `tlbscope fit-recording` estimates the costs it measures, the madvise
// benchmark's scenario is run on them in the recording's shape (its busy threads, one CPU each,
// beside the main thread's), and `tlbscope analyze` reads both. Prints the recording's median
// shootdown latency and IPI delivery beside the model's, with the difference; the target
// (within 15 %) is printed as PASS/FAIL and never asserted. The real CLI throughout.
//   node bench/recording-fit.mjs [recording ...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

const QUIET = [
  'content/recordings/madvise-touch-kvm-2cpu.trace',
  'tests/fixtures/recordings/madvise-touch-2cpu-ticks.trace',
];
const TARGET = 0.15;
const recordings = process.argv.slice(2).length ? process.argv.slice(2) : QUIET;

/** @param {string[]} args */
function cli(args) {
  const r = spawnSync(process.execPath, ['web/cli/tlbscope.mjs', ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`tlbscope ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** The benchmark's busy threads, from the command the kit wrote beside the recording. */
function busyThreads(/** @type {string} */ file) {
  const src = `${file}.source.json`;
  if (!existsSync(src)) return 1;
  const m = / -b (\d+)/.exec(JSON.parse(readFileSync(src, 'utf8')).command ?? '');
  return m ? Number(m[1]) : 1;
}

const pct = (/** @type {number} */ model, /** @type {number} */ real) => (model - real) / real;
const us = (/** @type {number} */ ns) => `${(ns / 1000).toFixed(2)} µs`;
const dir = mkdtempSync(join(tmpdir(), 'tlbscope-fit-'));
console.log(
  `recording-fit: load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
let failed = 0;
for (const file of recordings) {
  const costs = join(dir, `${basename(file)}.toml`);
  cli(['fit-recording', file, '--out', costs]);
  const real = JSON.parse(cli(['analyze', file, '--format', 'json']));
  const busy = busyThreads(file);
  const shape = ['--set', `cpus=${busy + 1}`, '--set', `workload.busy_threads=${busy}`];
  const model = JSON.parse(
    cli(['analyze', 'x86-madvise-touch', '--costs', costs, ...shape, '--format', 'json']),
  );
  console.log(`\n${file} (${busy} busy thread(s), so the model runs on ${busy + 1} CPUs)`);
  for (const [what, r, m] of [
    ['shootdown latency p50', real.latency?.p50, model.latency?.p50],
    ['IPI delivery p50     ', real.parts.delivery?.p50, model.parts.delivery?.p50],
  ]) {
    if (r == null || m == null) {
      console.log(`  ${what}  unknown (the recording or the run has none)`);
      failed++;
      continue;
    }
    const d = pct(m, r);
    const ok = Math.abs(d) <= TARGET;
    if (!ok) failed++;
    console.log(
      `  ${what}  recorded ${us(r)}  model ${us(m)}  ${d >= 0 ? '+' : ''}${(d * 100).toFixed(1)} %  ${ok ? 'PASS' : 'FAIL'} (target within ${TARGET * 100} %)`,
    );
  }
}
console.log(
  `\nrecording-fit: ${failed ? `${failed} figure(s) outside the target` : 'all within the target'}`,
);
