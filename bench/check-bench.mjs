// The interleaving checker's speed, native vs WASM-in-Node, on the 3-CPU, 2-flush x86 scenario
// explored exhaustively, with the reductions off (--reduce none) and on (all, the default).
// Targets, printed as PASS/FAIL and never asserted: the whole proof in < 10 s native and < 20 s
// in a browser (the page runs the same WASM build as Node here). Native and WASM must agree on
// the state and transition counts. CPU seconds are printed beside wall seconds: on a machine
// other jobs load, the wall time measures them too.
// The transitions partial-order reduction saved are printed beside the unreduced search's.
// Then, unless a scenario is named, CPU symmetry: the bystanders scenario's proof with the
// reductions but symmetry (por) and with all of them, states with and without; and every race
// `check --race` answers, faulty and fixed, timed in WASM as the CLI runs it (target: each
// race < 20 s, as in the page; printed, never asserted).
//   node bench/check-bench.mjs [scenario id|file] [--max-states N] [--reduce none|por|sym|all]
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { readScenarioArg, loadWasm } from '../web/cli/wasm.mjs';
import { checkOnce } from '../web/cli/check.mjs';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

const argv = process.argv.slice(2);
const named = Boolean(argv[0] && !argv[0].startsWith('--'));
const scenarioArg = named ? String(argv.shift()) : 'x86-check-3cpu-2flush';
const opt = (/** @type {string} */ name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const maxStates = Number(opt('--max-states') ?? 2000000);
const reductions = opt('--reduce') ? [String(opt('--reduce'))] : ['none', 'all'];
const TARGET = { native: 10, wasm: 20 };
const { file, text, id } = readScenarioArg(scenarioArg);

function native(/** @type {string} */ reduce, f = file, /** @type {string[]} */ set = []) {
  const args = ['run', '-q', '--release', '--manifest-path', 'sim-wasm/Cargo.toml'];
  args.push('--example', 'check', '--', f, '--max-states', String(maxStates));
  args.push('--reduce', reduce);
  for (const s of set) args.push('--set', s);
  const line = execFileSync('cargo', args, { encoding: 'utf8' }).trim().split('\n').pop();
  return JSON.parse(line ?? '{}');
}

async function wasm(
  /** @type {any} */ m,
  /** @type {string} */ reduce,
  t = text,
  /** @type {string[]} */ set = [],
) {
  const c = new m.Checker(t, set, maxStates, 400);
  c.setReduce(reduce);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (!c.runFor(20000));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const r = JSON.parse(c.reportJson());
  c.free();
  const cpu_seconds = (cpu.user + cpu.system) / 1e6;
  return { ...r, seconds, cpu_seconds, states_per_sec: r.states / seconds };
}

const line = (/** @type {string} */ name, /** @type {any} */ r, /** @type {number} */ target) => {
  const done = r.verdict === 'holds' || r.verdict === 'violated';
  const mark = done && r.seconds < target ? 'PASS' : 'FAIL';
  console.log(
    `  ${name.padEnd(18)} ${r.verdict.padEnd(14)} ${String(r.states).padStart(8)} states ${String(r.transitions).padStart(9)} transitions  depth ${String(r.depth).padStart(3)}  ${r.seconds.toFixed(2).padStart(7)} s (cpu ${r.cpu_seconds.toFixed(2).padStart(6)} s)  ${Math.round(r.states_per_sec).toLocaleString('en-US').padStart(8)} states/s  ${mark} < ${target} s`,
  );
};

console.log(`interleaving check of ${id} (state cap ${maxStates.toLocaleString('en-US')})`);
const m = await loadWasm();
/** @type {Record<string, any>} */
const byReduce = {};
for (const reduce of reductions) {
  const n = native(reduce);
  const w = await wasm(m, reduce);
  line(`native, ${reduce}`, n, TARGET.native);
  line(`wasm, ${reduce}`, w, TARGET.wasm);
  if (n.states !== w.states || n.transitions !== w.transitions) {
    console.error(`  MISMATCH (${reduce}): native and wasm explored different state spaces`);
    process.exitCode = 1;
  }
  byReduce[reduce] = n;
}
if (byReduce.none && byReduce.all) {
  const [none, all] = [byReduce.none.transitions, byReduce.all.transitions];
  console.log(
    `  partial-order reduction: ${all.toLocaleString('en-US')} transitions instead of ${none.toLocaleString('en-US')} (-${(100 * (1 - all / none)).toFixed(1)} %)`,
  );
}
console.log(
  `  targets: the whole proof < ${TARGET.native} s native, < ${TARGET.wasm} s in the browser (the page runs the same WASM)`,
);

if (!named) {
  const sym = readScenarioArg('x86-check-bystanders');
  const set = ['switch_mm_barrier=full'];
  console.log(`CPU symmetry: ${sym.id} (${set.join(' ')}), CPUs 2 and 3 interchangeable`);
  const runs = [];
  for (const reduce of ['por', 'all']) {
    const n = native(reduce, sym.file, set);
    const w = await wasm(m, reduce, sym.text, set);
    line(`native, ${reduce}`, n, TARGET.native);
    line(`wasm, ${reduce}`, w, TARGET.wasm);
    if (n.states !== w.states) {
      console.error(`  MISMATCH (${reduce}): native and wasm explored different state spaces`);
      process.exitCode = 1;
    }
    runs.push(n);
  }
  const [without, withSym] = runs;
  const cut = (100 * (1 - withSym.states / without.states)).toFixed(0);
  console.log(
    `  symmetry: ${withSym.states.toLocaleString('en-US')} states instead of ${without.states.toLocaleString('en-US')} (-${cut} %), both ${withSym.verdict}`,
  );
}

if (!named) {
  const RACE_TARGET = 20;
  console.log(`check --race, every race the checker answers (WASM in Node, default limits)`);
  for (const race of JSON.parse(m.racesJson())) {
    const sc = readScenarioArg(race.scenario);
    const sets = [race.faulty, ...race.fixed.map((/** @type {string} */ f) => [f])];
    const cpu0 = process.cpuUsage();
    const runs = sets.map((set) => checkOnce(m, sc.text, sc.file, set, {}));
    const cpu = process.cpuUsage(cpu0);
    const total = runs.reduce((sum, r) => sum + r.seconds, 0);
    const each = runs
      .map(
        (r) =>
          `${r.settings.join(' ') || 'own settings'}: ${r.verdict} ${r.states.toLocaleString('en-US')} states ${r.seconds.toFixed(2)} s`,
      )
      .join('; ');
    const mark = total < RACE_TARGET ? 'PASS' : 'FAIL';
    console.log(
      `  ${race.id.padEnd(4)} ${total.toFixed(2).padStart(6)} s (cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2).padStart(6)} s)  ${mark} < ${RACE_TARGET} s  (${each})`,
    );
  }
}
