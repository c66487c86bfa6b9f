// The simulator's WASM module in headless Chromium, the engine the site's worker runs it in:
// the same pkg the CLI loads in Node, served from disk to a blank page, one instance whose
// grown memory later runs reuse (as the page's worker reuses it from its second run on).
// Chromium's V8 is years newer than Node 20's (it inlines wasm-to-wasm calls, which Node 20's
// does not), so the two engines' rates differ for the same module; the benchmark prints both.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../tests/chromium.mjs';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

const ORIGIN = 'http://bench.invalid';

/** @param {string} scenarioText */
export async function openChromiumSim(scenarioText) {
  const pkg = new URL('../sim-wasm/pkg/', import.meta.url);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const page = await browser.newPage();
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') {
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>bench</title>',
      });
    }
    const body = readFileSync(new URL(path.slice(1), pkg));
    const wasm = path.endsWith('.wasm');
    return route.fulfill({ contentType: wasm ? 'application/wasm' : 'text/javascript', body });
  });
  await page.goto(`${ORIGIN}/`);
  await page.evaluate(async () => {
    const m = await import('/tlbscope_sim.js');
    await m.default();
    /** @type {any} */ (globalThis).sim = m;
  });
  return {
    /**
     * `reps` timed runs after an untimed first one (which grows the instance's memory).
     * @param {string[]} set
     * @param {number} reps
     */
    run: (set, reps) =>
      page.evaluate(
        ({ text, set, reps }) => {
          const m = /** @type {any} */ (globalThis).sim;
          const runs = [];
          for (let r = 0; r <= reps; r++) {
            const sim = new m.Simulator(text, set, 1);
            const t0 = performance.now();
            sim.run();
            const seconds = (performance.now() - t0) / 1000;
            runs.push({ events: sim.events, rows: sim.rows, wall: sim.events / seconds });
            sim.free();
          }
          return runs.slice(1);
        },
        { text: scenarioText, set, reps },
      ),
    close: () => browser.close(),
  };
}
