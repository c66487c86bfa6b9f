// The interleaving checker's speed, native vs WASM-in-Node, on the 3-CPU, 2-flush x86 scenario
// explored exhaustively (targets, printed and not asserted: < 10 s native, < 20 s in a
// browser). Native and WASM must agree on the state and transition counts.
//   node bench/check-bench.mjs [scenario id|file] [--max-states N]
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { readScenarioArg, loadWasm } from '../web/cli/wasm.mjs';

const argv = process.argv.slice(2);
const scenarioArg = argv[0] && !argv[0].startsWith('--') ? argv.shift() : 'x86-check-3cpu-2flush';
const i = argv.indexOf('--max-states');
const maxStates = i >= 0 ? Number(argv[i + 1]) : 1000000;
// WASM is timed on a prefix of the same breadth-first search (the whole one takes minutes).
const wasmStates = Math.min(maxStates, 50000);
const { file, text, id } = readScenarioArg(scenarioArg);

function native(/** @type {number} */ cap) {
  const args = ['run', '-q', '--release', '--manifest-path', 'sim-wasm/Cargo.toml'];
  args.push('--example', 'check', '--', file, '--max-states', String(cap));
  const line = execFileSync('cargo', args, { encoding: 'utf8' }).trim().split('\n').pop();
  return JSON.parse(line ?? '{}');
}

async function wasm() {
  const m = await loadWasm();
  const c = new m.Checker(text, [], wasmStates, 400);
  const t0 = performance.now();
  while (!c.runFor(20000));
  const seconds = (performance.now() - t0) / 1000;
  const r = JSON.parse(c.reportJson());
  c.free();
  return { ...r, seconds, states_per_sec: r.states / seconds };
}

const line = (/** @type {string} */ name, /** @type {any} */ r) =>
  console.log(
    `  ${name.padEnd(12)} ${r.verdict.padEnd(14)} ${String(r.states).padStart(8)} states ${String(r.transitions).padStart(9)} transitions  depth ${String(r.depth).padStart(3)}  ${r.seconds.toFixed(2).padStart(7)} s  ${Math.round(r.states_per_sec).toLocaleString('en-US').padStart(8)} states/s`,
  );

console.log(`interleaving check of ${id} (state cap ${maxStates.toLocaleString('en-US')})`);
const n = native(wasmStates);
const full = native(maxStates);
const w = await wasm();
line('native', full);
line(`native ${wasmStates / 1000}k`, n);
line(`wasm ${wasmStates / 1000}k`, w);
if (n.states !== w.states || n.transitions !== w.transitions) {
  console.error('  MISMATCH: native and wasm explored different state spaces');
  process.exitCode = 1;
}
console.log('  targets: < 10 s native, < 20 s in the browser (the page runs the same WASM)');
