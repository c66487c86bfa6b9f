// Simulator throughput and trace memory, native vs WASM-in-Node, on the same scenario in one run.
//   node bench/sim-throughput.mjs [scenario id|file] [--set key=value ...] [--reps N]
// The scenario runs at three lengths (about 1, 2.5 and 10 million events, by its flush count);
// each length runs --reps times (default 3) natively (the release build of
// sim-wasm/examples/throughput.rs) and in the WASM pkg the site and CLI load, and the best and
// the median are printed, with the page faults of a native run (the kernel handing out fresh
// pages for the trace: most of a native run's system time). Events/s is wall time; "cpu"
// divides by the time the thread was on a CPU instead, which other processes on a busy machine
// distort far less (both are printed, with the load average, because the figures mean little
// without it). WASM rates are of runs that
// reuse an instance's grown memory (as the page's worker does); the first run of a fresh
// instance, which pays for growing it, is printed apart. Bytes/event: growth of the native
// resident set, and of WASM linear memory in a fresh instance, over one run.
// Targets (printed, never asserted): native ≥ 25 M events/s, WASM ≥ 85 % of native,
// ≤ 40 B/event in WASM memory.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { readScenarioArg } from '../web/cli/wasm.mjs';
import { openChromiumSim } from './wasm-chromium.mjs';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

const argv = process.argv.slice(2);
const scenarioArg = argv[0] && !argv[0].startsWith('--') ? argv.shift() : 'x86-bench-128cpu';
const overrides = [];
let reps = 3;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--set') overrides.push(argv[++i]);
  else if (argv[i] === '--reps') reps = Math.max(1, Number(argv[++i]) || 1);
}
const { file, text, id } = readScenarioArg(scenarioArg);

// Flush counts of x86-bench-128cpu for ~1, 2.5 and 10 M events (≈ 101 events per flush); the
// 10 M run needs more than the default 256 MB memory budget.
const SIZES = [
  { label: '1 M', set: ['workload.flushes=9900'] },
  { label: '2.5 M', set: ['workload.flushes=25000'] },
  { label: '10 M', set: ['workload.flushes=99100', 'max_memory_mb=1024'] },
];
const sizes = id === 'x86-bench-128cpu' ? SIZES : [{ label: 'as set', set: [] }];

/** @param {string[]} set */
function native(set) {
  execFileSync('cargo', [
    'build',
    '-q',
    '--release',
    '--manifest-path',
    'sim-wasm/Cargo.toml',
    '--example',
    'throughput',
  ]);
  const args = [file];
  for (const o of [...set, ...overrides]) args.push('--set', o);
  const runs = [];
  for (let r = 0; r < reps; r++) {
    const out = execFileSync('sim-wasm/target/release/examples/throughput', args, {
      encoding: 'utf8',
    });
    const m = JSON.parse(out.trim().split('\n').pop() ?? '{}');
    runs.push({
      events: m.events,
      rows: m.trace_rows,
      wall: m.events / m.seconds,
      cpu: m.events / (m.cpu_seconds || m.seconds),
      bytes: m.rss_bytes_per_event,
      faults: m.page_faults ?? 0,
    });
  }
  return runs;
}

const pkg = new URL('../sim-wasm/pkg/', import.meta.url);
const wasmModule = new WebAssembly.Module(readFileSync(new URL('tlbscope_sim_bg.wasm', pkg)));
let instances = 0;
/** A fresh instance (own linear memory) of the one compiled module, so V8's optimised code is reused. */
async function instance() {
  const m = await import(`${new URL('tlbscope_sim.js', pkg).href}?instance=${++instances}`);
  const exports = m.initSync({ module: wasmModule });
  return { m, memory: /** @type {WebAssembly.Memory} */ (exports.memory) };
}

/**
 * One fresh instance per length: its first run grows linear memory from nothing (bytes/event,
 * and the rate of a page's first run), then `reps` more runs reuse the grown memory, as the
 * page's worker does from its second run on.
 * @param {string[]} set
 */
async function wasm(set) {
  const { m, memory } = await instance();
  const before = memory.buffer.byteLength;
  const runs = [];
  for (let r = 0; r <= reps; r++) {
    const sim = new m.Simulator(text, [...set, ...overrides], 1);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    sim.run();
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    runs.push({
      events: sim.events,
      rows: sim.rows,
      wall: sim.events / seconds,
      cpu: sim.events / Math.max(cpuSeconds, 1e-9),
      bytes: (memory.buffer.byteLength - before) / sim.events,
      budget: sim.budgetError,
    });
    sim.free();
  }
  const [first, ...warm] = runs;
  return { first, warm };
}

/** @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** @param {number} x */
const mps = (x) => `${(x / 1e6).toFixed(2)}`;
/** @param {{ wall: number, cpu: number, bytes: number }[]} runs */
function figures(runs) {
  const wall = runs.map((r) => r.wall);
  const cpu = runs.map((r) => r.cpu);
  return {
    text: `${mps(Math.max(...wall))} / ${mps(median(wall))} M/s  cpu ${mps(Math.max(...cpu))} / ${mps(median(cpu))} M/s  ${median(runs.map((r) => r.bytes)).toFixed(1)} B/event`,
    bestWall: Math.max(...wall),
    bestCpu: Math.max(...cpu),
  };
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(
  `scenario ${id}${overrides.length ? ` (${overrides.join(' ')})` : ''}: best / median of ${reps}, load average ${load()}`,
);
// Warm V8 up on the module (tier-up to optimised code) before anything is timed.
await wasm(['workload.flushes=2000']);
const browserSim = await openChromiumSim(text);
await browserSim.run(['workload.flushes=2000', ...overrides], 1);
for (const size of sizes) {
  const n = native(size.set);
  const { first, warm } = await wasm(size.set);
  const nf = figures(n);
  const wf = figures(warm.map((r) => ({ ...r, bytes: first.bytes })));
  console.log(
    `${size.label} events (${n[0].events.toLocaleString('en-US')} events, ${n[0].rows.toLocaleString('en-US')} trace rows)`,
  );
  const faults = median(n.map((r) => r.faults));
  console.log(
    `  native      ${nf.text} (resident set), ${faults.toLocaleString('en-US')} page faults`,
  );
  console.log(`  wasm (node) ${wf.text} (linear memory)`);
  const c = await browserSim.run([...size.set, ...overrides], reps);
  const cWall = c.map((r) => r.wall);
  console.log(
    `  wasm (chromium) ${mps(Math.max(...cWall))} / ${mps(median(cWall))} M/s wall, the site's engine; ${((100 * Math.max(...cWall)) / nf.bestWall).toFixed(1)} % of native (wall)`,
  );
  if (c[0].events !== n[0].events || c[0].rows !== n[0].rows) {
    console.error(`  MISMATCH: chromium ran ${c[0].events} events / ${c[0].rows} rows`);
    process.exitCode = 1;
  }
  console.log(
    `  wasm/native ${((100 * wf.bestWall) / nf.bestWall).toFixed(1)} % (wall)  ${((100 * wf.bestCpu) / nf.bestCpu).toFixed(1)} % (cpu)` +
      `   wasm first run, memory not yet grown: ${mps(first.wall)} M/s  cpu ${mps(first.cpu)} M/s`,
  );
  if (first.budget) console.log(`  budget stop: ${first.budget}`);
  if (n[0].events !== first.events || n[0].rows !== first.rows) {
    console.error(
      `  MISMATCH: native ${n[0].events} events / ${n[0].rows} rows, wasm ${first.events} / ${first.rows}: the builds disagree`,
    );
    process.exitCode = 1;
  }
}
await browserSim.close();
console.log(
  `targets: native ≥ 25 M/s, wasm ≥ 85 % of native, ≤ 40 B/event; load average now ${load()}`,
);
