// How long the CLI takes to report an error in a large scenario file: files of 1,000, 5,000,
// 10,000 and 50,000 tasks, each with a bad `cpu` in its last task (which under the task cap is
// a validation error located by field, and over it the cap's own error at the first task over
// it). The error must come at once: locating it used to walk the file once per line.
//
//   node bench/locate-errors.mjs [--tasks 1000,5000,10000,50000]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

const repo = resolve(fileURLToPath(import.meta.url), '../..');
const i = process.argv.indexOf('--tasks');
const counts = (i > 0 ? process.argv[i + 1] : '1000,5000,10000,50000').split(',').map(Number);

/** @param {number} n */
function scenario(n) {
  const task = (/** @type {number} */ cpu) => `[[tasks]]\ncpu = ${cpu}\nprogram = "spin 5ns"\n`;
  return `title = "many tasks"\n[machine]\ncpus = 2\n${task(0).repeat(n - 1)}${task(99)}`;
}

const dir = mkdtempSync(join(tmpdir(), 'tlbscope-locate-'));
try {
  console.log('tasks   lines      seconds  error');
  for (const n of counts) {
    const file = join(dir, `tasks-${n}.toml`);
    const text = scenario(n);
    writeFileSync(file, text);
    const t0 = process.hrtime.bigint();
    const r = spawnSync('node', [join(repo, 'web/cli/tlbscope.mjs'), 'run', file], {
      encoding: 'utf8',
    });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const lines = text.split('\n').length - 1;
    const error = r.stderr.trim().split('\n')[0].replace(`${file}:`, 'line ');
    console.log(
      `${String(n).padEnd(7)} ${String(lines).padEnd(10)} ${seconds.toFixed(2).padStart(7)}  ${error}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
