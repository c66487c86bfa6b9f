// The single-file build (npm run build:single → dist-single/tlbscope.html) opened from file://
// with the network blocked: every scenario runs, a guided step shows, a link's own scenario
// opens, the Data view parses a CSV in its worker. Anything the page asks for beyond file:,
// data: and blob: fails the test.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import lz from 'lz-string';
import { expect, test } from './fixtures';

const FILE = resolve('dist-single/tlbscope.html');
const LOCAL = /^(file|data|blob):/;
const scenarios = readdirSync(resolve('content/scenarios'))
  .filter((f) => f.endsWith('.toml'))
  .map((f) => f.replace(/\.toml$/, ''))
  .sort();

test.beforeEach(async ({ context }) => {
  expect(existsSync(FILE), `${FILE} is missing: run npm run build:single first`).toBe(true);
  await context.route('**/*', (route) =>
    LOCAL.test(route.request().url()) ? route.continue() : route.abort('internetdisconnected'),
  );
});

test('the single file holds everything: one HTML file, nothing else', () => {
  expect(readdirSync(resolve('dist-single'))).toEqual(['tlbscope.html']);
  // The simulator's WASM is in there (it alone is hundreds of kB).
  expect(statSync(FILE).size).toBeGreaterThan(500_000);
});

test('every scenario runs from file:// with no network', async ({ sim }) => {
  test.setTimeout(60_000 + scenarios.length * 20_000);
  const { page } = sim;
  const remote: string[] = [];
  page.on('request', (r) => {
    if (!LOCAL.test(r.url())) remote.push(r.url());
  });
  const url = pathToFileURL(FILE);
  url.search = '?scenario=x86-munmap-shootdown&step=2';
  await page.goto(url.href);
  await sim.waitForIdle();
  await expect(page.locator('[data-step-title]')).toBeVisible();
  await expect(page.locator('.narration')).toContainText('Step 2 of');

  for (const id of scenarios) {
    await page.locator('header').getByLabel('Scenario').selectOption(id);
    await sim.waitForIdle();
    await expect(page.getByRole('alert'), id).toHaveCount(0);
    await expect(page.locator('.summary [data-summary="Simulator events"]'), id).toBeVisible();
    await expect(page.locator('.timeline svg g.lane').first(), id).toBeAttached();
  }
  expect(remote).toEqual([]);
  expect(sim.consoleErrors).toEqual([]);
});

test('a link’s own scenario (src=) opens from file://', async ({ sim }) => {
  const { page } = sim;
  const text = readFileSync(resolve('content/scenarios/x86-munmap-shootdown.toml'), 'utf8')
    .replace(/^title = ".*"$/m, 'title = "Own, from the file"')
    .concat(`\n# ${'a long comment '.repeat(2000)}\n`);
  const url = pathToFileURL(FILE);
  url.search = `?file=own.toml&src=${lz.compressToEncodedURIComponent(text)}`;
  await page.goto(url.href);
  await sim.waitForIdle();
  await expect(page.locator('.intro h2')).toHaveText('Own, from the file');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});

test('the Data view parses a CSV in its worker from file://', async ({ sim }) => {
  const { page } = sim;
  const url = pathToFileURL(FILE);
  url.search = '?view=data';
  await page.goto(url.href);
  await expect(page.locator('.data-view')).toHaveAttribute('data-state', 'idle', {
    timeout: 20_000,
  });
  await sim.importCsv(resolve('tests/fixtures/good.csv'));
  await expect(sim.importPreview()).toContainText('rows accepted');
  expect(sim.consoleErrors).toEqual([]);
});

test('talk mode and export work from the file too', async ({ sim }) => {
  const { page } = sim;
  const url = pathToFileURL(FILE);
  url.search = '?scenario=x86-munmap-shootdown&step=2&talk=1';
  await page.goto(url.href);
  await sim.waitForIdle();
  await expect(page.locator('.narration')).toContainText('Step 2 of');
  await page.keyboard.press('PageDown');
  await expect(page.locator('.narration')).toContainText('Step 3 of');
  await sim.waitForIdle();
  await page.keyboard.press('t');
  const [svg] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /as SVG$/ }).click(),
  ]);
  expect(svg.suggestedFilename()).toBe('tlbscope-x86-munmap-shootdown-step3.svg');
  const [png] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /as PNG$/ }).click(),
  ]);
  expect(png.suggestedFilename()).toBe('tlbscope-x86-munmap-shootdown-step3.png');
  expect(sim.consoleErrors).toEqual([]);
});
