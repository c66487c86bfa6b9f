// @ts-check
// Writes docs/img/explorer.png, the README's picture: the production build (`npm run
// build:site` first) served by `vite preview`, opened at 1440×900 in the Chromium the tests use,
// on the first scenario with an event selected so the inspector shows its causal chain.
//   node web/scripts/screenshot.mjs [--port 4220]
import { spawn } from 'node:child_process';
import console from 'node:console';
import process from 'node:process';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../tests/chromium.mjs';
import { exitIfHelp } from './scriptHelp.mjs';

exitIfHelp(import.meta.url);

const at = process.argv.indexOf('--port');
const port = at > 0 ? Number(process.argv[at + 1]) : 4220;
const OUT = 'docs/img/explorer.png';
// A shootdown on four CPUs, the cursor inside it and its first IPI handler selected.
const VIEW = '?scenario=x86-munmap-shootdown&theme=light';

const server = spawn(
  process.execPath,
  [
    'node_modules/vite/bin/vite.js',
    'preview',
    '-c',
    'web/vite.config.ts',
    '--port',
    String(port),
    '--strictPort',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
try {
  await new Promise((ok, fail) => {
    server.stdout?.on('data', (d) => String(d).includes(`${port}`) && ok(undefined));
    server.on('exit', (code) => fail(new Error(`vite preview exited with ${code}`)));
  });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`http://127.0.0.1:${port}/${VIEW}`);
  const app = page.locator('.app');
  await app.and(page.locator('[data-state="idle"]')).waitFor({ timeout: 30_000 });
  await page.locator('.timeline svg [data-kind="IpiHandler"]').first().click();
  await app.and(page.locator('[data-state="idle"]')).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: OUT });
  await browser.close();
  console.log(`wrote ${OUT}`);
} finally {
  server.kill();
}
