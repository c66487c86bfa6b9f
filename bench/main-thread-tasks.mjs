// Main-thread benchmark of the page's decoders: feeds each kind of outside input at its cap to
// the production build in headless Chromium and prints the longest main-thread task it caused
// (PerformanceObserver 'longtask', from the input until the page is idle again), and the main
// thread's CPU time over that span. Target: every class's longest task under 100 ms. A
// benchmark, not a test: it exits 0 whatever it measures.
//
//   npm run build:site && node bench/main-thread-tasks.mjs [--case link,scenario,...] [--port N]
//     [--dist DIR]   serve another build (a before/after pair measured under the same load)
//
// Classes (--case a,b; default all):
//   baseline  a short link to another scenario, arriving the same way: what running and
//             drawing a new scenario costs, included in the link and scenario figures
//   link      a link whose src= is just under the 128 KiB link cap (arrives as Back brings it:
//             static servers refuse request lines that long)
//   bomb      a short link whose src= would unpack to 3.2 MB (stopped at the 1 MiB text cap)
//   scenario  an own scenario file of 1 MiB (a long comment), picked in the sidebar
//   host      an embed's host posting a 64 KiB message, a 10 MB one and a circular one
//   png       a dropped PNG carrying a 50 MB tlbscope-state text chunk
//   svg       a dropped 64 MB SVG (the drop cap) with its metadata at the head
//   csv       a 50 MB CSV (the import cap) picked in the Measured data view
//   recording a tracefs recording of --rec-lines lines (default 200,000) picked in the explorer
/* global window, document, history, dispatchEvent, PopStateEvent, DataTransfer, DragEvent */
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import lz from 'lz-string';
import { chromiumArgs, chromiumPath } from '../tests/chromium.mjs';
import { tracefsChunks } from './gen-tracefs.mjs';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

if (process.argv.includes('--help')) {
  const text = (await import('node:fs')).readFileSync(fileURLToPath(import.meta.url), 'utf8');
  console.log(
    text
      .split('\n')
      .filter((l) => l.startsWith('//'))
      .map((l) => l.slice(3))
      .join('\n'),
  );
  process.exit(0);
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const PORT = Number(arg('port', 4192));
const BASE = `http://127.0.0.1:${PORT}/`;
const CASES = String(arg('case', 'baseline,link,bomb,scenario,host,png,svg,csv,recording')).split(
  ',',
);
const REC_LINES = Number(arg('rec-lines', 200_000));
const TARGET_MS = 100;

async function waitForServer(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
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

// Every frame records its long tasks from the start; `mark` empties the list.
const OBSERVE = () => {
  window.__longTasks = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: false });
};

async function idle(page) {
  await page.locator('.app').first().waitFor();
  await page.waitForFunction(
    () => document.querySelector('.app')?.getAttribute('data-state') === 'idle',
    null,
    { timeout: 120_000 },
  );
}

/** The longest task since `reset`, after waiting `settle` ms of quiet. */
async function longest(target, settle = 1500) {
  await new Promise((r) => setTimeout(r, settle));
  cpu.ms = (await threadTime()) - cpu.from;
  return target.evaluate(() => Math.max(0, ...window.__longTasks));
}

// The renderer main thread's CPU time over the same span (CDP Performance ThreadTime): unlike a
// task's length it does not grow while other processes hold the cores, so it compares builds
// measured on a loaded machine. (A page and its same-origin embed share that thread.)
const cpu = { session: null, from: 0, ms: NaN };
async function threadTime() {
  if (!cpu.session) return NaN;
  const { metrics } = await cpu.session.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN) * 1000;
}
/** Drops the file the page made earlier (window.__file) on it, as a user dragging it in. */
const drop = () => {
  const d = new DataTransfer();
  d.items.add(window.__file);
  for (const t of ['dragover', 'drop'])
    document.body.dispatchEvent(
      new DragEvent(t, { dataTransfer: d, bubbles: true, cancelable: true }),
    );
};
/** Gives the file the page made earlier (window.__file) to the file input `sel`. */
const pick = (sel) => {
  const input = document.querySelector(sel);
  const d = new DataTransfer();
  d.items.add(window.__file);
  input.files = d.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
};
/** Makes `text` a File in the page, outside the measured time. */
const makeFile = (page, text, name, type) =>
  page.evaluate(([t, n, y]) => (window.__file = new File([t], n, { type: y })), [text, name, type]);
const reset = async (target) => {
  await target.evaluate(() => (window.__longTasks = []));
  cpu.from = await threadTime();
};

function randomText(chars) {
  const words = ['flush', 'tlb', 'ipi', 'cpu', 'mm', 'gen', 'pcid', 'asid', 'lazy', 'batch'];
  let s = '';
  let x = 12345;
  while (s.length < chars) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += `${words[x % words.length]}${x % 9973} `;
  }
  return s.slice(0, chars);
}

const cases = {
  // Not an input at a cap: the same arrival of a plain link to another scenario, the cost of
  // running and drawing a new scenario that every other class's figure includes.
  async baseline(page) {
    await page.goto(`${BASE}?view=explore`);
    await idle(page);
    await reset(page);
    await page.evaluate((q) => {
      history.pushState(null, '', q);
      dispatchEvent(new PopStateEvent('popstate'));
      // Not the default scenario (x86-munmap-shootdown), which ?view=explore already shows: a
      // link to it would change nothing and measure nothing.
    }, '?scenario=x86-lazy-tlb');
    await idle(page);
    return { ms: await longest(page), what: 'a short link to another scenario' };
  },
  async link(page) {
    // Grow random text until its packed form is just under the cap.
    let n = 100_000;
    let src = '';
    for (;;) {
      const next = lz.compressToEncodedURIComponent(`# ${randomText(n)}\n`);
      if (next.length > 128 * 1024) break;
      src = next;
      n = Math.round(n * 1.1);
    }
    await page.goto(`${BASE}?view=explore`);
    await idle(page);
    await reset(page);
    await page.evaluate((q) => {
      history.pushState(null, '', q);
      dispatchEvent(new PopStateEvent('popstate'));
    }, `?file=cap.toml&src=${src}`);
    await idle(page);
    return { ms: await longest(page), what: `src= of ${(src.length / 1024).toFixed(0)} KiB` };
  },
  async bomb(page) {
    // 64 random letters repeated: as small a link, but lz-string packs it in a second.
    const src = lz.compressToEncodedURIComponent(`# ${randomText(64).repeat(50_000)}\n`);
    await page.goto(`${BASE}?view=explore`);
    await idle(page);
    await reset(page);
    await page.evaluate((q) => {
      history.pushState(null, '', q);
      dispatchEvent(new PopStateEvent('popstate'));
    }, `?file=bomb.toml&src=${src}`);
    await idle(page);
    return { ms: await longest(page), what: `src= of ${src.length} chars unpacking to 3.2 MB` };
  },
  async scenario(page) {
    const base = (await import('node:fs')).readFileSync(
      resolve(root, 'content/scenarios/x86-munmap-shootdown.toml'),
      'utf8',
    );
    const text = `${base}\n# ${randomText(1024 * 1024 - base.length - 4)}\n`;
    await page.goto(`${BASE}?view=explore`);
    await idle(page);
    // The file is made in the page and given to the input there: the test driver's own
    // setInputFiles works on the page's thread and would be counted.
    await makeFile(page, text, 'big.toml', 'text/plain');
    await reset(page);
    await page.evaluate(pick, '#scenario-file-input');
    await idle(page);
    return { ms: await longest(page, 4000), what: `${(text.length / 1024).toFixed(0)} KiB file` };
  },
  async host(page) {
    await page.route(`${BASE}host.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><iframe id="f" src="./?scenario=x86-flush-info-story&step=3&embed=1" width="800" height="450"></iframe>`,
      }),
    );
    await page.goto(`${BASE}host.html`);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    await frame.waitForFunction(
      () => document.querySelector('.app')?.getAttribute('data-state') === 'idle',
      null,
      { timeout: 120_000 },
    );
    await reset(frame);
    await page.evaluate(() => {
      const f = document.getElementById('f').contentWindow;
      const loop = { type: 'tlbscope' };
      loop.command = loop;
      f.postMessage({ type: 'tlbscope', command: 'next', pad: 'x'.repeat(64 * 1024 - 64) }, '*');
      f.postMessage({ type: 'tlbscope', command: 'next', pad: 'x'.repeat(10_000_000) }, '*');
      f.postMessage(loop, '*');
    });
    return { ms: await longest(frame, 3000), what: '64 KiB, 10 MB and circular messages' };
  },
  async png(page) {
    await page.goto(`${BASE}?view=explore`);
    await idle(page);
    await page.evaluate((base) => {
      const size = 50 * 1024 * 1024;
      const key = 'tlbscope-state\0';
      const sig = [137, 80, 78, 71, 13, 10, 26, 10];
      const chunk = new Uint8Array(12 + key.length + size).fill(0x70);
      new DataView(chunk.buffer).setUint32(0, key.length + size);
      chunk.set(
        [...'tEXt'].map((c) => c.charCodeAt(0)),
        4,
      );
      chunk.set(
        [...key].map((c) => c.charCodeAt(0)),
        8,
      );
      chunk.set(new TextEncoder().encode(`${base}?scenario=x86-lazy-tlb&pad=`), 8 + key.length);
      const iend = new Uint8Array([0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130]);
      const file = new File([new Uint8Array(sig), chunk, iend], 'big.png', { type: 'image/png' });
      window.__file = file;
    }, BASE);
    await reset(page);
    await page.evaluate(drop);
    await page.getByRole('alert').waitFor();
    return { ms: await longest(page), what: '50 MB text chunk' };
  },
  async svg(page) {
    await page.goto(`${BASE}?view=explore`);
    await idle(page);
    await page.evaluate((base) => {
      const head = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><title>t</title><metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Description><dc:source>${base}?scenario=x86-lazy-tlb&amp;pad=${'p'.repeat(2 * 1024 * 1024)}</dc:source></rdf:Description></rdf:RDF></metadata>`;
      const fill = new Uint8Array(64 * 1024 * 1024 - head.length - 16).fill(0x20);
      const file = new File([head, fill, '</svg>'], 'big.svg', { type: 'image/svg+xml' });
      window.__file = file;
    }, BASE);
    await reset(page);
    await page.evaluate(drop);
    await page.getByRole('alert').waitFor();
    return { ms: await longest(page), what: '64 MB file, 2 MB link' };
  },
  async csv(page) {
    const header = 'arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source\n';
    const row = 'x86,bench-box,4,madvise-touch,flush_info=percpu,op_latency,2.61,us,0.05,5,b\n';
    const rows = Math.floor((50 * 1024 * 1024 - header.length) / row.length);
    const buffer = Buffer.from(header + row.repeat(rows));
    await page.goto(`${BASE}?view=data`);
    await page.getByLabel('Choose a CSV file').waitFor();
    await new Promise((r) => setTimeout(r, 1500));
    await makeFile(page, buffer.toString('latin1'), 'big.csv', 'text/csv');
    await reset(page);
    await page.evaluate(pick, 'input[aria-label="Choose a CSV file"]');
    return { ms: await longest(page, 15_000), what: `${(buffer.length / 1e6).toFixed(0)} MB` };
  },
  async recording(page) {
    const text = [...tracefsChunks(REC_LINES, 16)].join('');
    await page.goto(`${BASE}?view=explore`);
    await idle(page);
    await makeFile(page, text, 'rec.txt', 'text/plain');
    await reset(page);
    await page.evaluate(pick, '#recording-input');
    await idle(page);
    return {
      ms: await longest(page, 5000),
      what: `${REC_LINES.toLocaleString('en')} lines, ${(text.length / 1e6).toFixed(0)} MB`,
    };
  },
};

const server = spawn(
  'npx',
  [
    'vite',
    'preview',
    '-c',
    'web/vite.config.ts',
    '--port',
    String(PORT),
    '--strictPort',
    ...(arg('dist') ? ['--outDir', resolve(arg('dist'))] : []),
  ],
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
  console.log(`longest main-thread task per input class (target < ${TARGET_MS} ms)`);
  for (const name of CASES) {
    const run = cases[name];
    if (!run) {
      console.log(`${name}: no such class`);
      continue;
    }
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript(OBSERVE);
    const page = await context.newPage();
    cpu.session = await context.newCDPSession(page);
    await cpu.session.send('Performance.enable');
    cpu.ms = NaN;
    try {
      const { ms, what } = await run(page);
      const verdict = ms < TARGET_MS ? 'ok' : 'OVER';
      const busy = Number.isFinite(cpu.ms) ? `${cpu.ms.toFixed(0).padStart(5)} ms CPU` : '';
      console.log(
        `${name.padEnd(10)} ${ms.toFixed(0).padStart(6)} ms  ${verdict.padEnd(4)} ${busy}  (${what})`,
      );
    } catch (e) {
      console.log(`${name.padEnd(10)}  failed: ${String(e).split('\n')[0]}`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  stop();
}
