// The simulator inside the real page: how long a run takes in Chromium, from the moment the
// page asks the worker to run until the trace is back on the main thread (performance marks
// 'tlbscope:run-start' → 'tlbscope:run-done'). Needs a production build in dist/.
//   node bench/sim-browser.mjs [scenario id] [--set key=value ...]
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../tests/chromium.mjs';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

const argv = process.argv.slice(2);
const scenario = argv[0] && !argv[0].startsWith('--') ? argv.shift() : 'x86-bench-128cpu';
const sets = [];
for (let i = 0; i < argv.length; i++) if (argv[i] === '--set') sets.push(argv[++i]);
const PORT = 4191;
const RUNS = 3;

const server = spawn(
  'npx',
  ['vite', 'preview', '-c', 'web/vite.config.ts', '--port', String(PORT), '--strictPort'],
  {
    stdio: 'ignore',
    detached: true,
  },
);
const up = () =>
  new Promise((ok) => {
    const r = request({ host: '127.0.0.1', port: PORT, path: '/' }, () => ok(true));
    r.on('error', () => ok(false));
    r.end();
  });
for (let i = 0; i < 100 && !(await up()); i++) await new Promise((r) => setTimeout(r, 200));

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: [...chromiumArgs, `--explicitly-allowed-ports=${PORT}`],
});
const times = [];
/** @type {{ wall: number, text: string }[]} */
const checks = [];
let events = 0;
try {
  for (let r = 0; r < RUNS; r++) {
    const page = await browser.newPage();
    const q = new URLSearchParams({ scenario });
    for (const s of sets) q.append('set', s);
    await page.goto(`http://127.0.0.1:${PORT}/?${q}`);
    await page.waitForSelector('.app[data-state=idle]', { timeout: 120_000 });
    const m = await page.evaluate(() => {
      const start = performance.getEntriesByName('tlbscope:run-start').at(-1);
      const done = performance.getEntriesByName('tlbscope:run-done').at(-1);
      return done && start ? done.startTime - start.startTime : null;
    });
    const ev = await page.locator('[data-summary="Simulator events"]').textContent();
    events = Number(ev?.replace(/,/g, ''));
    if (m !== null) times.push(m);
    await page.close();
  }
  // The interleaving checker's 3-CPU, 2-flush proof as a reader runs it: the button, the
  // simulator's worker, the verdict (target < 20 s in the browser).
  for (let r = 0; r < RUNS; r++) {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${PORT}/?scenario=x86-check-3cpu-2flush`);
    await page.waitForSelector('.app[data-state=idle]', { timeout: 120_000 });
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Check all interleavings' }).click();
    const verdict = page.locator('[data-verdict][data-side="A"]');
    await verdict.waitFor({ timeout: 300_000 });
    checks.push({ wall: (Date.now() - t0) / 1000, text: (await verdict.innerText()).trim() });
    await page.close();
  }
} finally {
  await browser.close();
  process.kill(-server.pid);
}
times.sort((a, b) => a - b);
console.log(
  `browser run of ${scenario}${sets.length ? ` (${sets.join(' ')})` : ''}: ${events.toLocaleString('en-US')} events`,
);
console.log(
  `  run-start → run-done, best of ${RUNS}: ${times[0]?.toFixed(0)} ms (all: ${times.map((t) => t.toFixed(0)).join(', ')} ms)   target < 1000 ms`,
);
for (const c of checks) {
  console.log(
    `check of x86-check-3cpu-2flush in the page: ${c.text.replace(/\s+/g, ' ')}; click → verdict ${c.wall.toFixed(1)} s   target < 20 s`,
  );
}
