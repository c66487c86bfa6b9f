// Simulator throughput, native vs WASM-in-Node, on the same scenario in one run.
//   node bench/sim-throughput.mjs [scenario id|file] [--set key=value ...]
// Native: the release build of sim-wasm/examples/throughput.rs. WASM: the same pkg the site
// and CLI load. Prints events/s for each and their ratio (target: ≥10 M/s native, WASM ≥ 60 %).
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { readScenarioArg, loadWasm } from '../web/cli/wasm.mjs';

const argv = process.argv.slice(2);
const scenarioArg = argv[0] && !argv[0].startsWith('--') ? argv.shift() : 'x86-bench-128cpu';
const overrides = [];
for (let i = 0; i < argv.length; i++) if (argv[i] === '--set') overrides.push(argv[++i]);
const { file, text, id } = readScenarioArg(scenarioArg);
const REPS = 3;

function native() {
  const args = [
    'run',
    '-q',
    '--release',
    '--manifest-path',
    'sim-wasm/Cargo.toml',
    '--example',
    'throughput',
    '--',
    file,
  ];
  for (const o of overrides) args.push('--set', o);
  let best;
  for (let r = 0; r < REPS; r++) {
    const line = execFileSync('cargo', args, { encoding: 'utf8' }).trim().split('\n').pop();
    const m = JSON.parse(line);
    if (!best || m.events_per_sec > best.events_per_sec) best = m;
  }
  return best;
}

async function wasm() {
  const m = await loadWasm();
  let best;
  for (let r = 0; r < REPS; r++) {
    const sim = new m.Simulator(text, overrides, 1);
    const t0 = performance.now();
    sim.run();
    const seconds = (performance.now() - t0) / 1000;
    const events = sim.events;
    const rows = sim.time().length;
    sim.free();
    const run = { events, seconds, events_per_sec: events / seconds, trace_rows: rows };
    if (!best || run.events_per_sec > best.events_per_sec) best = run;
  }
  return best;
}

// Memory: WASM linear memory after runs of growing length, in a fresh instance each time
// (linear memory never shrinks, so one instance would only show the largest run).
async function memoryGrowth() {
  const { readFileSync } = await import('node:fs');
  const pkg = new URL('../sim-wasm/pkg/', import.meta.url);
  const bytes = readFileSync(new URL('tlbscope_sim_bg.wasm', pkg));
  const rows = [];
  for (const flushes of [5000, 10000, 20000]) {
    const m = await import(`${new URL('tlbscope_sim.js', pkg).href}?fresh=${flushes}`);
    const exports = m.initSync({ module: bytes });
    const sim = new m.Simulator(text, [...overrides, `workload.flushes=${flushes}`], 1);
    sim.run();
    rows.push({ flushes, events: sim.events, mib: exports.memory.buffer.byteLength / 2 ** 20 });
    sim.free();
  }
  return rows;
}

const fmt = (x) => `${(x / 1e6).toFixed(2)} M/s`;
const n = native();
const w = await wasm();
console.log(
  `scenario ${id}${overrides.length ? ` (${overrides.join(' ')})` : ''}, best of ${REPS}`,
);
console.log(
  `  native      ${fmt(n.events_per_sec).padStart(12)}   ${n.events} events in ${n.seconds.toFixed(3)} s, ${n.trace_rows} trace rows`,
);
console.log(
  `  wasm (node) ${fmt(w.events_per_sec).padStart(12)}   ${w.events} events in ${w.seconds.toFixed(3)} s, ${w.trace_rows} trace rows`,
);
console.log(
  `  wasm/native ${((100 * w.events_per_sec) / n.events_per_sec).toFixed(1)} %   (targets: native ≥ 10 M/s, wasm ≥ 60 % of native)`,
);
const mem = await memoryGrowth().catch((e) => {
  console.log(`  memory: not measured (${e.message})`);
  return [];
});
for (const r of mem) {
  console.log(
    `  memory      ${r.mib.toFixed(1).padStart(7)} MiB wasm linear memory after ${r.events.toLocaleString('en-US')} events (${((r.mib * 2 ** 20) / r.events).toFixed(0)} B/event)`,
  );
}
if (n.events !== w.events) {
  console.error(
    `  MISMATCH: native processed ${n.events} events, wasm ${w.events}: the builds disagree`,
  );
  process.exitCode = 1;
}
