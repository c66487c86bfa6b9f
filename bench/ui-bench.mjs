// UI benchmark: the explorer with large traces in headless Chromium. Prints figures against
// the targets (median and worst over --runs runs); a benchmark, not a test, so it exits 0.
//
//   npm run wasm && npx vite build -c web/vite.config.ts && node bench/ui-bench.mjs
//
// Cases (--case a,b; default all):
//   1m      a ~1,000,000-row run (--cpus N, default 128; --flushes N, default 2000)
//   1m-kept the same run kept in its worker (remote=500000), not held on the page
//   run10m  a ~10,000,000-row run: 512 CPUs, 4,850 flushes
//   rec10m  a 10,000,000-line tracefs recording (bench/gen-tracefs.mjs, written once to the
//           temporary directory), imported through the page's recording input
//
// Measures (all in the page, with performance.now()):
//   overview       'tlbscope:run-done' to the 'tlbscope:overview' mark: the run's lane
//                  aggregates drawn while the worker builds the timeline's model
//   first render   'tlbscope:run-done' mark (set when the worker hands back the trace; for a
//                  recording 'tlbscope:import-done') to the first 'tlbscope:rendered' mark
//                  after it (the timeline's first draw)
//   zoom / pan     60 Ctrl+wheel zoom steps and a 60-step drag; each step is dispatched at
//                  the start of an animation frame and timed until a task queued after that
//                  frame's paint runs: input handling + draw + React + style/layout/paint
//   draw           the timeline's own draw time per frame (window.__tlbscopePerf)
//   floor          the same measurement around a trivial paint (a 20 px box changing colour):
//                  what a frame of this page costs the browser whatever the timeline does.
//                  (~3-4 ms on 2 cores; it is not a whole frame, so the zoom/pan figures do
//                  not include a vsync wait that the app does not cause)
//   CPU per step   per zoom or pan step, the CPU time (Linux /proc, 10 ms ticks over 60 steps)
//                  of the renderer's main thread and of every Chromium process and thread
//                  (compositor, raster, GPU, workers): what a frame costs the machine, far less
//                  sensitive to the load than frame times (which include waiting for a core);
//                  and the main thread's script and style + layout time (CDP Performance
//                  ScriptDuration, LayoutDuration + RecalcStyleDuration, wall clock)
//   long tasks     PerformanceObserver('longtask') from navigation to idle, and while zooming
//   analysis       "Why was each flush slow?" opened after the zoom and pan steps: the time to
//                  its table (in the worker that keeps a big run, on the page for a small one)
//                  and the longest main-thread task meanwhile
//   initial JS     gzip size of the scripts index.html loads (the worker is reported apart)
//   page JS heap   the page's used JS heap plus array-buffer backing stores after a forced GC
//                  (CDP Runtime.getHeapUsage), once interaction is over
//   index pass     the worker's one pass over a run above 2 M rows (which stays in the worker)
//                  building its window index, before it sends 'done': add it to first render
//                  for the time from the simulator's last event to the first picture
//   worker B/event what the simulator worker keeps of the run: its WASM memory (the simulator's
//                  own trace, high-water mark), its JavaScript copy of the columns (runs up to
//                  2 M rows only) and the window index; for a recording above 2 M rows, what
//                  its import worker keeps (packed columns, recorded fields, window index);
//                  and what that worker's JavaScript holds after a forced collection (JS heap
//                  plus array buffers, CDP Runtime.getHeapUsage; WASM memory is not counted
//                  there: a 1 M-row run's worker shows its 47 B column copy and index), per row
// Options: --runs N (default 3) --flushes N (default 2000) --cpus N (default 128) --port N
//          --detail (print every zoom and pan step: frame, handler and draw time, marks drawn)
//          --trace FILE (record a Chromium trace of the zoom steps and rank where the time goes)
//          --profile (sample the page's JavaScript over the zoom and pan steps, CDP Profiler,
//          and rank functions by self time per step; build with --minify false for names)
/* global window, document, WheelEvent */ // page.evaluate bodies
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../tests/chromium.mjs';
import { writeTracefs } from './gen-tracefs.mjs';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

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
const PROFILE = process.argv.includes('--profile');
const RUNS = Math.max(1, Number(arg('runs', 3)));
const CASE_NAMES = String(arg('case', '1m,run10m,rec10m')).split(',');
const REC_LINES = 10_000_000;

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
// Self time per function of a CDP CPU profile, per step (the page's main thread only).
function summariseProfile(profile, steps) {
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...self].filter(([k]) => !k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
  console.log(
    `\nJavaScript profile of the zoom and pan steps: ${(total / steps).toFixed(2)} ms a step`,
  );
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`  ${(v / steps).toFixed(2).padStart(7)} ms  ${k}`);
  }
}
const BASE = `http://127.0.0.1:${PORT}/`;

/**
 * CPU seconds so far of Chromium (every process descended from the one whose command line
 * holds `marker`) and of its renderers' main threads, from /proc; null off Linux.
 */
function chromiumCpu(marker) {
  if (!existsSync('/proc/self/stat')) return null;
  const tick = 100; // USER_HZ on Linux
  const stat = (path) => {
    try {
      const t = readFileSync(path, 'utf8');
      const close = t.lastIndexOf(')');
      const f = t.slice(close + 2).split(' ');
      return {
        comm: t.slice(t.indexOf('(') + 1, close),
        ppid: Number(f[1]),
        cpu: (Number(f[11]) + Number(f[12])) / tick,
      };
    } catch {
      return null;
    }
  };
  const procs = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = stat(`/proc/${d}/stat`);
    if (st) procs.set(Number(d), st);
  }
  const roots = [...procs.keys()].filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
    } catch {
      return false;
    }
  });
  const inTree = (pid) => {
    for (let p = pid, i = 0; p > 1 && i < 64; p = procs.get(p)?.ppid ?? 0, i++)
      if (roots.includes(p)) return true;
    return false;
  };
  let all = 0;
  let main = 0;
  for (const [pid, st] of procs) {
    if (!inTree(pid)) continue;
    all += st.cpu;
    // A renderer's main thread is its first (tid = pid), named after the process.
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer'))
        main += stat(`/proc/${pid}/task/${pid}/stat`)?.cpu ?? 0;
    } catch {
      // gone meanwhile
    }
  }
  return { all, main };
}
const CPU_MARKER = `--explicitly-allowed-ports=${PORT}`;

/**
 * Each worker's used JS heap plus array-buffer backing stores (not its WASM memory) after a
 * forced collection, by its script's URL: what it really holds, beside what it says it keeps.
 * Workers are reached through the browser's CDP session (Playwright's page sessions do not
 * reach them), one non-flat session each.
 */
async function workerHeaps(browser) {
  const cdp = await browser.newBrowserCDPSession();
  let next = 1;
  const waiting = new Map();
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const m = JSON.parse(e.message);
    waiting.get(m.id)?.(m.result ?? null);
    waiting.delete(m.id);
  });
  const call = (sessionId, method) =>
    new Promise((r) => {
      const id = next++;
      waiting.set(id, r);
      cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id, method, params: {} }),
      });
    });
  const out = [];
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    for (const t of targetInfos.filter((x) => x.type === 'worker')) {
      const { sessionId } = await cdp.send('Target.attachToTarget', {
        targetId: t.targetId,
        flatten: false,
      });
      await call(sessionId, 'HeapProfiler.collectGarbage');
      const u = await call(sessionId, 'Runtime.getHeapUsage');
      if (u) out.push({ url: t.url, bytes: u.usedSize + (u.backingStorageSize ?? 0) });
      await cdp.send('Target.detachFromTarget', { sessionId });
    }
  } finally {
    await cdp.detach();
  }
  return out;
}

const pct = (xs, p) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

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

const scenarioUrl = (cpus, flushes) =>
  `${BASE}?scenario=x86-munmap-shootdown&set=cpus=${cpus}&set=flushes=${flushes}&set=max_memory_mb=1024`;

const CASES = {
  '1m': { label: `run, cpus=${CPUS} flushes=${FLUSHES}`, url: scenarioUrl(CPUS, FLUSHES) },
  // The same run kept in its worker (below the default threshold, the page holds it).
  '1m-kept': {
    label: `run, cpus=${CPUS} flushes=${FLUSHES}, kept in its worker`,
    url: `${scenarioUrl(CPUS, FLUSHES)}&remote=500000`,
  },
  run10m: { label: 'run, cpus=512 flushes=4850 (~10 M rows)', url: scenarioUrl(512, 4850) },
  rec10m: {
    label: `tracefs recording, ${REC_LINES.toLocaleString('en-US')} lines`,
    recording: true,
  },
};

/** The generated recording, written once per machine (about 1 GB). */
async function recordingFile() {
  const file = join(tmpdir(), `tlbscope-bench-${REC_LINES}.trace`);
  if (!existsSync(file)) {
    const t = Date.now();
    await writeTracefs(file, REC_LINES, 64);
    console.log(`wrote ${file} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  return file;
}

/** One page load of a case, then the zoom and pan steps: every figure of one run. */
async function measureOnce(browser, c) {
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
  try {
    const t0 = Date.now();
    // The bare URL is the landing page; the explorer needs a scenario.
    await page.goto(c.url ?? `${BASE}?scenario=x86-munmap-shootdown`);
    await page.waitForSelector('.app[data-state="idle"]', { timeout: 300_000 });
    const doneMark = c.recording ? 'tlbscope:import-done' : 'tlbscope:run-done';
    if (c.recording) {
      await page.setInputFiles('#recording-input', c.file);
      await page.waitForSelector('[data-testid="recording-loaded"]', { timeout: 600_000 });
    }
    // Wait for the first draw after the trace arrived.
    await page.waitForFunction(
      (mark) => {
        const done = performance.getEntriesByName(mark).at(-1);
        return (
          done &&
          performance
            .getEntriesByName('tlbscope:rendered')
            .some((e) => e.startTime >= done.startTime)
        );
      },
      doneMark,
      { timeout: 300_000, polling: 100 },
    );
    const wall = Date.now() - t0;
    const load = await page.evaluate((mark) => {
      const done = performance.getEntriesByName(mark).at(-1);
      const start = performance.getEntriesByName('tlbscope:run-start').at(-1);
      const rendered = performance
        .getEntriesByName('tlbscope:rendered')
        .find((e) => done && e.startTime >= done.startTime);
      const overview = performance
        .getEntriesByName('tlbscope:overview')
        .find((e) => done && e.startTime >= done.startTime);
      const p = window.__tlbscopePerf;
      const chosen = performance.getEntriesByName('tlbscope:import-start').at(-1);
      const sketch = performance.getEntriesByName('tlbscope:import-sketch').at(-1);
      return {
        importStart: chosen?.startTime ?? null,
        sketchAt: chosen && sketch ? sketch.startTime - chosen.startTime : null,
        renderAt: chosen && rendered ? rendered.startTime - chosen.startTime : null,
        runDone: done?.startTime ?? null,
        runStart: start?.startTime ?? null,
        firstRender: done && rendered ? rendered.startTime - done.startTime : null,
        overview: done && overview ? overview.startTime - done.startTime : null,
        rows: p?.rows ?? 0,
        modelMs: p?.modelMs ?? 0,
        firstDraw: p?.drawMs.at(-1) ?? 0,
        worker: p?.worker ?? null,
        events: document.querySelector('[data-summary="Simulator events"]')?.textContent ?? '',
        longTasks: window.__longTasks.slice(),
      };
    }, doneMark);

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

    const perf = await page.context().newCDPSession(page);
    await perf.send('Performance.enable');
    const metrics = async () =>
      Object.fromEntries(
        (await perf.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]),
      );
    const m0 = await metrics();
    const c0 = chromiumCpu(CPU_MARKER);
    const profiler = PROFILE ? await page.context().newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 250 });
      await profiler.send('Profiler.start');
    }
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
    const m1 = await metrics();
    const c1 = chromiumCpu(CPU_MARKER);
    // Pan at a mid zoom level (dense canvas view): drag left and back.
    await page.keyboard.press('0');
    for (let i = 0; i < 4; i++) await page.keyboard.press('w');
    const m2 = await metrics();
    const c2 = chromiumCpu(CPU_MARKER);
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
    const m3 = await metrics();
    const c3 = chromiumCpu(CPU_MARKER);
    const cpuStep = (a, b, key) => (a && b ? ((b[key] - a[key]) * 1000) / STEPS : NaN);
    if (profiler) summariseProfile((await profiler.send('Profiler.stop')).profile, 2 * STEPS);
    // ms of main-thread time per step between two metric snapshots.
    const perStep = (a, b, key) => ((b[key] - a[key]) * 1000) / STEPS;
    const after = await page.evaluate((from) => window.__longTasks.slice(from), lt0);

    // The page's heap once interaction is over, after a forced collection: the JS heap plus
    // the typed arrays' backing stores (where trace columns live; V8 keeps them off-heap).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const usage = await cdp.send('Runtime.getHeapUsage');
    const heap = usage.usedSize + (usage.backingStorageSize ?? NaN);
    // The worker that keeps the trace: the import's for a recording, else the simulator's.
    const heaps = await workerHeaps(browser).catch(() => []);
    const keeper = heaps.find((h) =>
      c.recording ? /\/worker-[^/]*\.js/.test(h.url) : /simWorker/.test(h.url),
    );
    // "Why was each flush slow?" opened: the whole run analysed (in the worker that keeps it, or
    // on the page that holds it), timed to its table, with the main thread's long tasks meanwhile.
    const lt1 = await page.evaluate(() => window.__longTasks.length);
    const a0 = await page.evaluate(() => performance.now());
    await page.click('details.flush-analysis summary');
    await page.waitForSelector(
      '[data-analysis="A"], [data-analysis-state="failed"], [data-analysis-state="cancelled"]',
      { timeout: 600_000 },
    );
    const analysisMs = (await page.evaluate(() => performance.now())) - a0;
    const analysing = await page.evaluate((from) => window.__longTasks.slice(from), lt1);
    const frames = (xs) => xs.filter((s) => s.drew).map((s) => s.frame);
    const draws = (xs) => xs.filter((s) => s.drew).map((s) => s.draw);
    // A recording has no run: run-start belongs to the page's first run. Its worker figures
    // are the import worker's (set at import, none when the page holds the columns).
    // Its "run" is the read, from the file's choice to the import's end: the main thread's
    // long tasks then are the page's while the worker reads.
    if (c.recording) load.runStart = load.importStart;
    const during = load.longTasks.filter(
      ([s]) =>
        load.runStart !== null && load.runDone !== null && s >= load.runStart && s < load.runDone,
    );
    const runLong = load.longTasks.filter(([s]) => load.runDone === null || s >= load.runDone);
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
    const w = load.worker;
    return {
      rows: load.rows,
      events: load.events,
      firstRender: load.firstRender ?? NaN,
      readMs:
        c.recording && load.importStart !== null && load.runDone !== null
          ? load.runDone - load.importStart
          : NaN,
      sketchAt: load.sketchAt ?? NaN,
      renderAt: c.recording ? (load.renderAt ?? NaN) : NaN,
      overview: load.overview ?? NaN,
      modelMs: load.modelMs,
      firstDraw: load.firstDraw,
      zoomP50: pct(frames(zoom), 50),
      zoomP95: pct(frames(zoom), 95),
      zoomDrawP95: pct(draws(zoom), 95),
      panP50: pct(frames(pan), 50),
      panP95: pct(frames(pan), 95),
      panDrawP95: pct(draws(pan), 95),
      zoomCpuMain: cpuStep(c0, c1, 'main'),
      zoomCpuAll: cpuStep(c0, c1, 'all'),
      panCpuMain: cpuStep(c2, c3, 'main'),
      panCpuAll: cpuStep(c2, c3, 'all'),
      zoomScript: perStep(m0, m1, 'ScriptDuration'),
      zoomLayout: perStep(m0, m1, 'LayoutDuration') + perStep(m0, m1, 'RecalcStyleDuration'),
      panScript: perStep(m2, m3, 'ScriptDuration'),
      panLayout: perStep(m2, m3, 'LayoutDuration') + perStep(m2, m3, 'RecalcStyleDuration'),
      floorP50: pct(
        floor.map((s) => s.frame),
        50,
      ),
      drawn: `${frames(zoom).length}+${frames(pan).length}/${2 * STEPS}`,
      longDuringRun: Math.max(0, ...during.map(([, d]) => d)),
      longAfterDone: Math.max(0, ...runLong.map(([, d]) => d)),
      longInteract: Math.max(0, ...after.map(([, d]) => d)),
      longInteractCount: after.length,
      analysisMs,
      longAnalysing: Math.max(0, ...analysing.map(([, d]) => d)),
      heapMB: heap / 2 ** 20,
      workerB: w && w.rows ? (w.wasmBytes + w.columnBytes + (w.indexBytes ?? 0)) / w.rows : NaN,
      workerHeapB: keeper && load.rows ? keeper.bytes / load.rows : NaN,
      workerWasmB: w && w.rows ? w.wasmBytes / w.rows : NaN,
      workerColsB: w && w.rows ? w.columnBytes / w.rows : NaN,
      workerIndexB: w && w.rows ? (w.indexBytes ?? 0) / w.rows : NaN,
      indexMs: w ? (w.indexMs ?? NaN) : NaN,
      wall,
      errors,
    };
  } finally {
    await page.close();
  }
}

const median = (xs) => pct(xs, 50);
/** Worst of a figure: the largest (every figure here is better smaller); n/a if a run had none. */
const worst = (xs) => (xs.some((x) => !Number.isFinite(x)) ? NaN : Math.max(...xs));

// figure, key, unit, target (printed beside, never asserted)
const FIGURES = [
  ['run finished → overview drawn (runs only)', 'overview', 'ms', ''],
  ['run/import finished → first render', 'firstRender', 'ms', '≤ 1000 ms'],
  // A recording's read, from the file's choice (mark 'tlbscope:import-start').
  ['file chosen → import done (recordings)', 'readMs', 'ms', ''],
  ['file chosen → rows drawn while reading (recordings)', 'sketchAt', 'ms', ''],
  ['file chosen → first render (recordings)', 'renderAt', 'ms', '≤ 8000 ms'],
  ['  of which view model, main thread', 'modelMs', 'ms', ''],
  ['  of which first draw', 'firstDraw', 'ms', ''],
  ['zoom frame p50', 'zoomP50', 'ms', ''],
  ['zoom frame p95', 'zoomP95', 'ms', '≤ 16 ms'],
  ['  zoom draw p95 (timeline only)', 'zoomDrawP95', 'ms', ''],
  ['pan frame p50', 'panP50', 'ms', ''],
  ['pan frame p95', 'panP95', 'ms', '≤ 16 ms'],
  ['  pan draw p95 (timeline only)', 'panDrawP95', 'ms', ''],
  ['  measurement floor p50 (trivial paint)', 'floorP50', 'ms', ''],
  ['CPU per zoom step, renderer main thread', 'zoomCpuMain', 'ms', ''],
  ['  script (main thread)', 'zoomScript', 'ms', ''],
  ['  style + layout (main thread)', 'zoomLayout', 'ms', ''],
  ['  all Chromium processes', 'zoomCpuAll', 'ms', ''],
  ['CPU per pan step, renderer main thread', 'panCpuMain', 'ms', ''],
  ['  script (main thread)', 'panScript', 'ms', ''],
  ['  style + layout (main thread)', 'panLayout', 'ms', ''],
  ['  all Chromium processes', 'panCpuAll', 'ms', ''],
  ['longest task while zooming/panning', 'longInteract', 'ms', '≤ 50 ms'],
  ['  long tasks while zooming/panning', 'longInteractCount', '', '0'],
  ['longest task during the run (a recording: its read)', 'longDuringRun', 'ms', '< 100 ms'],
  ['longest task after run/import done', 'longAfterDone', 'ms', ''],
  ['flush analysis opened → shown', 'analysisMs', 'ms', ''],
  ['longest task while analysing', 'longAnalysing', 'ms', '< 100 ms'],
  ['page JS heap + array buffers after GC', 'heapMB', 'MB', ''],
  // For a recording above 2 M rows: the import worker's packed columns (trace and recorded
  // fields) and index; n/a for one the page holds (its worker ends after parsing).
  ['worker bytes/event (WASM + columns + index)', 'workerB', 'B', '≤ 40 B'],
  ['  of which WASM memory', 'workerWasmB', 'B', ''],
  ['  of which JS columns (runs ≤ 2 M rows; recordings)', 'workerColsB', 'B', ''],
  ['  of which window index (grid, long spans)', 'workerIndexB', 'B', ''],
  // What its JavaScript really holds after a forced collection (WASM memory not included).
  ['worker JS heap + buffers after GC, per row', 'workerHeapB', 'B', ''],
  // Before 'done' is sent, so not inside "first render"; printed so the two can be added.
  ['worker pass building the window index', 'indexMs', 'ms', ''],
  ['page load → first render (wall clock)', 'wall', 'ms', ''],
];

function printCase(name, c, runs) {
  const fmt = (x, unit) =>
    !Number.isFinite(x)
      ? 'n/a'
      : `${unit === 'ms' || unit === 'MB' ? x.toFixed(1) : x.toFixed(unit === 'B' ? 1 : 0)}${unit ? ` ${unit}` : ''}`;
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  console.log(`\n== ${name}: ${c.label} — ${runs.length} run(s), load ${load}`);
  const r0 = runs[0];
  console.log(
    `trace rows ${r0.rows.toLocaleString('en-US')}${r0.events ? `, simulator events ${r0.events}` : ''}, frames drawn ${runs.map((r) => r.drawn).join(' ')}`,
  );
  const w0 = Math.max(...FIGURES.map((f) => f[0].length));
  console.log(`${''.padEnd(w0)}  ${'median'.padStart(10)}  ${'worst'.padStart(10)}  target`);
  for (const [label, key, unit, target] of FIGURES) {
    const xs = runs.map((r) => r[key]);
    console.log(
      `${label.padEnd(w0)}  ${fmt(median(xs), unit).padStart(10)}  ${fmt(worst(xs), unit).padStart(10)}  ${target}`,
    );
  }
  if (c.recording) {
    // The read's rate, from the best and median read times (the target: ≥ 1.5 M lines/s).
    const reads = runs.map((r) => r.readMs).filter(Number.isFinite);
    const bytes = statSync(c.file).size;
    for (const [which, ms] of [
      ['best', Math.min(...reads)],
      ['median', median(reads)],
    ]) {
      if (!Number.isFinite(ms)) continue;
      console.log(
        `read rate (${which}): ${(REC_LINES / ms / 1e3).toFixed(2)} M lines/s, ` +
          `${(bytes / ms / 1e3).toFixed(0)} MB/s (target ≥ 1.5 M lines/s, ≥ 150 MB/s)`,
      );
    }
  }
  const errors = runs.flatMap((r) => r.errors);
  console.log(
    `console errors: ${errors.length}${errors.length ? ` ${errors.slice(0, 3).join(' | ')}` : ''}`,
  );
}

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
    const js = initialJs();
    console.log(`tlbscope UI benchmark: Chromium headless, 1400×900, ${RUNS} run(s) a case`);
    console.log(
      `initial JS (gzip) ${(js.initial / 1024).toFixed(1)} KB (target < 300 KB): ${js.files.join(', ')}`,
    );
    for (const [f, n] of js.other)
      console.log(`  not initial: ${f} ${(n / 1024).toFixed(1)} KB gzip`);
    for (const name of CASE_NAMES) {
      const c = CASES[name];
      if (!c) {
        console.log(`\nno case '${name}' (cases: ${Object.keys(CASES).join(', ')})`);
        continue;
      }
      if (c.recording) c.file = await recordingFile();
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        try {
          runs.push(await measureOnce(browser, c));
        } catch (e) {
          console.log(`${name} run ${i + 1} failed: ${e.message.split('\n')[0]}`);
        }
      }
      if (runs.length) printCase(name, c, runs);
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
