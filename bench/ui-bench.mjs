// UI benchmark: the explorer with a ~1,000,000-row trace in headless Chromium. Prints figures
// against the targets; a benchmark, not a test, so it always exits 0.
//
//   npm run wasm && npx vite build -c web/vite.config.ts && node bench/ui-bench.mjs
//
// Measures (all in the page, with performance.now()):
//   first render   'tlbscope:run-done' mark (set when the worker hands back the trace) to
//                  the first 'tlbscope:rendered' mark after it (the timeline's first draw)
//   zoom / pan     60 Ctrl+wheel zoom steps and a 60-step drag; each step is dispatched at
//                  the start of an animation frame and timed until a task queued after that
//                  frame's paint runs: input handling + draw + React + style/layout/paint
//   draw           the timeline's own draw time per frame (window.__tlbscopePerf)
//   floor          the same measurement around a trivial paint (a 20 px box changing colour):
//                  what a frame of this page costs the browser whatever the timeline does.
//                  (~3-4 ms on 2 cores; it is not a whole frame, so the zoom/pan figures do
//                  not include a vsync wait that the app does not cause)
//   long tasks     PerformanceObserver('longtask') from navigation to idle, and while zooming
//   initial JS     gzip size of the scripts index.html loads (the worker is reported apart)
// Options: --flushes N (default 2000) --cpus N (default 128) --port N (default 4190)
//          --detail (print every zoom and pan step: frame, handler and draw time, marks drawn)
//          --trace FILE (record a Chromium trace of the zoom steps and rank where the time goes)
/* global window, document, WheelEvent */ // page.evaluate bodies
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../tests/chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const CPUS = Number(arg('cpus', 128));
const FLUSHES = Number(arg('flushes', 2000));
const PORT = Number(arg('port', 4190));
const STEPS = 60;
const DETAIL = process.argv.includes('--detail');
const TRACE = arg('trace', null);

// Where the zoom frames' time goes, per thread and event name (self time is not separated:
// nested events are counted in their parents too, so read it as a ranking, not a sum).
function summariseTrace(trace, steps) {
  const events = trace.traceEvents ?? trace;
  const threads = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const totals = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur) continue;
    const key = `${threads.get(`${e.pid}:${e.tid}`) ?? e.tid} ${e.name}`;
    totals.set(key, (totals.get(key) ?? 0) + e.dur / 1000);
  }
  console.log(`\ntrace of the zoom steps: top events by total ms per step (${TRACE})`);
  for (const [k, v] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`  ${(v / steps).toFixed(2).padStart(7)} ms  ${k}`);
  }
}
const BASE = `http://127.0.0.1:${PORT}/`;

const pct = (xs, p) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a');

function initialJs() {
  const dist = join(root, 'dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const loaded = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const all = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  const gz = (f) => gzipSync(readFileSync(join(dist, f))).length;
  const initial = loaded.reduce((s, f) => s + gz(f), 0);
  const other = all.filter((f) => !loaded.includes(`assets/${f}`));
  return { initial, files: loaded, other: other.map((f) => [f, gz(`assets/${f}`)]) };
}

async function waitForServer(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // node:http, not fetch: 4190 is on the WHATWG "bad ports" list (so Chromium is launched
    // with --explicitly-allowed-ports too).
    const ok = await new Promise((r) => {
      get(url, (res) => {
        res.resume();
        r(res.statusCode === 200);
      }).on('error', () => r(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server at ${url} did not start`);
}

// In the page: dispatch one input at the start of a frame, resolve after that frame's paint.
const STEP_IN_PAGE = `
window.__benchPointer = (type, x, y) =>
  document.querySelector('.timeline').dispatchEvent(
    new PointerEvent(type, { clientX: x, clientY: y, button: 0, pointerId: 7, bubbles: true }),
  );
window.__benchStep = (make) => new Promise((resolve) => {
  requestAnimationFrame(() => {
    const t0 = performance.now();
    const draws = window.__tlbscopePerf.draws;
    make();
    const handler = performance.now() - t0;
    // A task queued now runs after this frame's rendering (and after React's own task).
    setTimeout(() => {
      const p = window.__tlbscopePerf;
      resolve({ frame: performance.now() - t0, handler, drew: p.draws > draws, draw: p.drawMs[p.drawMs.length - 1], mode: p.mode, marks: p.marks });
    }, 0);
  });
});`;

async function main() {
  const server = spawn(
    'npx',
    ['vite', 'preview', '-c', 'web/vite.config.ts', '--port', String(PORT), '--strictPort'],
    { cwd: root, stdio: 'ignore', detached: true },
  );
  const stop = () => {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--explicitly-allowed-ports=${PORT}`],
  });
  try {
    await waitForServer(BASE, 60_000);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
    });
    const t0 = Date.now();
    // The bare URL is the landing page; the explorer needs a scenario.
    await page.goto(
      `${BASE}?scenario=x86-munmap-shootdown&set=cpus=${CPUS}&set=flushes=${FLUSHES}`,
    );
    await page.waitForSelector('.app[data-state="idle"]', { timeout: 180_000 });
    const wall = Date.now() - t0;
    const load = await page.evaluate(() => {
      const done = performance.getEntriesByName('tlbscope:run-done').at(-1);
      const start = performance.getEntriesByName('tlbscope:run-start').at(-1);
      const rendered = performance
        .getEntriesByName('tlbscope:rendered')
        .find((e) => done && e.startTime >= done.startTime);
      const p = window.__tlbscopePerf;
      return {
        runDone: done?.startTime ?? null,
        runStart: start?.startTime ?? null,
        firstRender: done && rendered ? rendered.startTime - done.startTime : null,
        rows: p?.rows ?? 0,
        modelMs: p?.modelMs ?? 0,
        firstDraw: p?.drawMs[0] ?? 0,
        mode: p?.mode,
        events: document.querySelector('[data-summary="Simulator events"]')?.textContent ?? '',
        longTasks: window.__longTasks.slice(),
      };
    });

    await page.evaluate(STEP_IN_PAGE);
    const box = await page.locator('.timeline').first().boundingBox();
    const cx = box.x + box.width * 0.6;
    const cy = box.y + 120;
    await page.locator('.timeline').first().focus();
    const lt0 = await page.evaluate(() => window.__longTasks.length);

    // The measurement's floor: the same step around a change that paints almost nothing.
    const floor = [];
    await page.evaluate(() => {
      const d = document.createElement('div');
      d.id = 'bench-floor';
      d.style.cssText = 'position:fixed;top:0;left:0;width:20px;height:20px;background:red';
      document.body.append(d);
    });
    for (let i = 0; i < 20; i++) {
      floor.push(
        await page.evaluate(() =>
          window.__benchStep(() => {
            const d = document.getElementById('bench-floor');
            d.style.background = d.style.background === 'red' ? 'blue' : 'red';
          }),
        ),
      );
    }
    await page.evaluate(() => document.getElementById('bench-floor').remove());

    if (TRACE) {
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc'],
      });
    }
    const zoom = [];
    for (let i = 0; i < STEPS; i++) {
      // 30 steps in, 30 out: covers dense (canvas) and sparse (SVG) levels of detail.
      const dy = i < STEPS / 2 ? -120 : 120;
      zoom.push(
        await page.evaluate(
          ([x, y, d]) =>
            window.__benchStep(() =>
              document.querySelector('.timeline').dispatchEvent(
                new WheelEvent('wheel', {
                  clientX: x,
                  clientY: y,
                  deltaY: d,
                  ctrlKey: true,
                  bubbles: true,
                  cancelable: true,
                }),
              ),
            ),
          [cx, cy, dy],
        ),
      );
    }
    if (TRACE) {
      const buf = await browser.stopTracing();
      writeFileSync(TRACE, buf);
      summariseTrace(JSON.parse(buf.toString()), STEPS);
    }
    // Pan at a mid zoom level (dense canvas view): drag left and back.
    await page.keyboard.press('0');
    for (let i = 0; i < 4; i++) await page.keyboard.press('w');
    const pan = [];
    const pointer = (type, x) =>
      page.evaluate(([t, px, py]) => window.__benchPointer(t, px, py), [type, x, cy]);
    await pointer('pointerdown', cx);
    for (let i = 1; i <= STEPS; i++) {
      const x = cx + (i <= STEPS / 2 ? -8 * i : -8 * (STEPS - i));
      pan.push(
        await page.evaluate(
          ([px, py]) => window.__benchStep(() => window.__benchPointer('pointermove', px, py)),
          [x, cy],
        ),
      );
    }
    await pointer('pointerup', cx);
    const after = await page.evaluate((from) => window.__longTasks.slice(from), lt0);

    const js = initialJs();
    const frames = (xs) => xs.filter((s) => s.drew).map((s) => s.frame);
    const draws = (xs) => xs.filter((s) => s.drew).map((s) => s.draw);
    const runLong = load.longTasks.filter(([s]) => load.runDone === null || s >= load.runDone);
    // Tasks that start while the worker simulates (the main thread should stay responsive).
    const during = load.longTasks.filter(
      ([s]) =>
        load.runStart !== null && load.runDone !== null && s >= load.runStart && s < load.runDone,
    );
    const duringMax = Math.max(0, ...during.map(([, d]) => d));
    const rows = [
      ['trace rows', load.rows.toLocaleString('en-US'), '≥ 1,000,000', load.rows >= 1e6],
      ['simulator events', load.events, '', null],
      [
        'run finished → first render',
        ms(load.firstRender),
        '< 1000 ms',
        load.firstRender !== null && load.firstRender < 1000,
      ],
      // The worker builds the model after run-done; the main thread only wraps it.
      ['  of which view model, main thread', ms(load.modelMs), '', null],
      ['  of which first draw', ms(load.firstDraw), '', null],
      [
        'zoom frame p50 / p95',
        `${ms(pct(frames(zoom), 50))} / ${ms(pct(frames(zoom), 95))}`,
        'p95 < 16 ms',
        pct(frames(zoom), 95) < 16,
      ],
      [
        '  measurement floor p50 (trivial paint)',
        ms(
          pct(
            floor.map((s) => s.frame),
            50,
          ),
        ),
        '',
        null,
      ],
      ['zoom draw p95 (timeline only)', ms(pct(draws(zoom), 95)), '', null],
      [
        'pan frame p50 / p95',
        `${ms(pct(frames(pan), 50))} / ${ms(pct(frames(pan), 95))}`,
        'p95 < 16 ms',
        pct(frames(pan), 95) < 16,
      ],
      ['pan draw p95 (timeline only)', ms(pct(draws(pan), 95)), '', null],
      [
        'frames drawn (zoom, pan)',
        `${frames(zoom).length}, ${frames(pan).length} of ${STEPS} each`,
        '',
        null,
      ],
      [
        'long tasks during the run (count / max)',
        `${during.length} / ${ms(duringMax)}`,
        'max < 100 ms',
        duringMax < 100,
      ],
      [
        'long tasks after run-done (count / max)',
        `${runLong.length} / ${ms(Math.max(0, ...runLong.map(([, d]) => d)))}`,
        '',
        null,
      ],
      [
        'long tasks while zooming/panning',
        `${after.length} / ${ms(Math.max(0, ...after.map(([, d]) => d)))}`,
        '0',
        after.length === 0,
      ],
      [
        'initial JS (gzip)',
        `${(js.initial / 1024).toFixed(1)} KB (${js.files.join(', ')})`,
        '< 300 KB',
        js.initial < 300 * 1024,
      ],
      ...js.other.map(([f, n]) => [
        `  not initial: ${f}`,
        `${(n / 1024).toFixed(1)} KB gzip`,
        '',
        null,
      ]),
      ['page load → idle (wall clock)', `${wall} ms`, '', null],
      ['console errors', String(errors.length), '0', errors.length === 0],
    ];
    const w0 = Math.max(...rows.map((r) => r[0].length));
    const w1 = Math.max(...rows.map((r) => String(r[1]).length));
    console.log(
      `tlbscope UI benchmark: cpus=${CPUS} flushes=${FLUSHES}, Chromium headless, 1400×900`,
    );
    for (const [k, v, t, ok] of rows) {
      const label = ok === null ? '' : ok ? 'PASS' : 'FAIL';
      console.log(`${k.padEnd(w0)}  ${String(v).padEnd(w1)}  ${t.padEnd(12)}  ${label}`);
    }
    if (errors.length) console.log('errors:', errors.slice(0, 5));
    if (DETAIL) {
      for (const [name, xs] of [
        ['zoom', zoom],
        ['pan', pan],
      ]) {
        console.log(
          `\n${name} steps: frame / handler / draw ms, mode, svg marks, canvas rects, arrows`,
        );
        xs.forEach((s, i) => {
          const m = s.marks ?? {};
          const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
          console.log(
            `${String(i).padStart(3)}  ${f(s.frame)} / ${f(s.handler)} / ${s.drew ? f(s.draw) : '-'}  ${s.mode} ${m.svg} ${m.canvas} ${m.arrows}`,
          );
        });
      }
    }
  } finally {
    await browser.close();
    stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 0;
});
