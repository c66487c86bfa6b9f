// Views of a run kept in its worker (`remote=<rows>` lowers the threshold, so a run of tens of
// thousands of rows takes that path), compared with the same run computed in Node by the same
// WASM build and the page's own functions.
import { readFileSync } from 'node:fs';
import { toPerfettoJson } from '../../web/src/export/perfetto';
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { expect, test } from './fixtures';

const SET = ['cpus=16', 'flushes=700'];

test('a run kept in its worker downloads whole as the same Perfetto file as the run in Node', async ({
  sim,
}) => {
  test.setTimeout(120_000);
  initSimulatorForNode();
  const run = runScenario(readScenario('x86-munmap-shootdown'), { overrides: SET });
  const rows = run.trace.n;
  // More rows than one slice the page asks for (16,384): the file is written across slices.
  expect(rows).toBeGreaterThan(40_000);
  const q = new URLSearchParams({ scenario: 'x86-munmap-shootdown', remote: '10000' });
  for (const s of SET) q.append('set', s);
  const { page } = sim;
  await page.goto(`./?${q}`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 100_000 });
  await expect(page.locator('.timeline.remote')).toBeVisible();
  const button = page.getByTestId('perfetto-whole');
  // The button says how large the file will be before it is asked for.
  await expect(button).toHaveText(
    new RegExp(`all of A \\(${rows.toLocaleString('en-US')} rows, about [\\d.]+ MB\\)`),
  );
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const text = readFileSync(await download.path(), 'utf8');
  const want = toPerfettoJson(run.trace, {
    title: run.title,
    source: 'predicted by the tlbscope model (A)',
  });
  expect(text.length).toBe(want.length);
  expect(text === want).toBe(true);
  await expect(page.getByTestId('perfetto-progress')).toHaveText(
    `Exported all ${rows.toLocaleString('en-US')} rows (${(want.length / 1e6).toFixed(1)} MB).`,
  );
});
