// "Why was each flush slow?" under the summary: a model run's slowest flush cut into its parts,
// its button selecting the flush; a real recording (bench/kit on this machine, under load) read
// without claims its events cannot support; A and B side by side when comparing.
import { AT_ONCE_ROWS } from '../../web/src/workers/analysisJob';
import { analyzeFlushes } from '../../web/src/model/flushAnalysis';
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { basename } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { SimPage } from './sim-page';

const CONSOLE = 'tests/fixtures/recordings/madvise-touch-2cpu-console.trace';

/** A recording chosen in the sidebar, loaded, and the analysis panel opened: its side A. */
async function analyseRecording(sim: SimPage, file: string, loaded = basename(file)) {
  const { page } = sim;
  await page.setInputFiles('#recording-input', file);
  await expect(page.getByTestId('recording-loaded')).toContainText(loaded);
  await sim.waitForIdle();
  const panel = page.locator('details.flush-analysis');
  await panel.locator('summary').click();
  return panel.locator('[data-analysis="A"]');
}

/** The time axis's labels in ms (the first timeline's), once they all lie in [lo, hi]. */
async function expectAxisWithin(page: Page, lo: number, hi: number) {
  const ticks = page.locator('.timeline').first().locator('.axis text');
  await expect
    .poll(async () => {
      const ms = (await ticks.allTextContents())
        .map((t) => /^([\d.]+) ms$/.exec(t.trim()))
        .filter((m) => m !== null)
        .map((m) => Number(m[1]));
      return ms.length >= 3 && ms.every((t) => t >= lo && t <= hi);
    })
    .toBe(true);
}

test("a model run's slowest flush: its parts, the CPU that acked last, and a button to it", async ({
  sim,
}) => {
  await sim.open({ scenario: 'x86-munmap-shootdown', set: ['cpus=8'] });
  const page = sim.page;
  const panel = page.locator('details.flush-analysis');
  await panel.locator('summary').click();
  const a = panel.locator('[data-analysis="A"]');
  await expect(a.locator('.provenance')).toContainText('1 flush, 1 with IPIs');
  const row = a.locator('table.analysis-slowest tbody tr').first();
  // Seven targets sent to in turn: the last one sent to acks last, and the sends dominate.
  await expect(row.locator('[data-part="delivery"]')).toContainText('delivery → CPU 7');
  await expect(row.locator('[data-why]')).toContainText(
    /IPI sends, up to CPU 7's \(\d+ %\): 7 IPIs sent one after another/,
  );
  await expect(a.getByRole('list', { name: 'Last to ack per CPU' })).toContainText(
    'CPU 7: 1 of 1 · delivery itself 1',
  );
  await row.getByRole('button').click();
  await expect(page.locator('.inspector [data-inspector="kind"]')).toHaveText('FlushRange');
  // Its critical path as brackets: the sends on CPU 0's lane, the delivery on CPU 7's.
  const parts = page.locator('.timeline').first().locator('g.lens[data-lens="flush_part"]');
  await expect(
    parts.locator('title', { hasText: /^sends, up to CPU 7's .* on CPU 0:/ }),
  ).toHaveCount(1);
  await expect(parts.locator('title', { hasText: /^delivery → CPU 7 .* on CPU 7:/ })).toHaveCount(
    1,
  );
  // Another event chosen, the brackets go.
  await page.getByRole('button', { name: 'Next event' }).click();
  await expect(parts).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});

test('a real recording: unknown where its events are missing, and no word on interrupts it cannot back', async ({
  sim,
}) => {
  test.setTimeout(90_000);
  await sim.open();
  const a = await analyseRecording(sim, 'content/recordings/madvise-touch-kvm-2cpu-loaded.trace');
  await expect(a.locator('.provenance')).toContainText('Measured');
  const why = a.locator('[data-why]').first();
  await expect(why).toContainText('whether its interrupts were off is not in the trace');
  await expect(a).not.toContainText('interrupts on');
  expect(sim.consoleErrors).toEqual([]);
});

test('a recording made with a CPU holding interrupts off: the analysis names that CPU and why', async ({
  sim,
}) => {
  test.setTimeout(90_000);
  await sim.open();
  const page = sim.page;
  // bench/kit/trace.sh with CONSOLE=1: the busy thread on CPU 1 printed to the serial console.
  const a = await analyseRecording(sim, CONSOLE);
  await expect(page.getByRole('region', { name: 'Recording summary' })).toContainText(
    /Irqs off, inferred.*\d+ stretches/,
  );
  const row = a.locator('table.analysis-slowest tbody tr').first();
  await expect(row.locator('[data-part="delivery"]')).toContainText('delivery → CPU 1');
  await expect(row.locator('[data-why]')).toContainText(
    /CPU 1 had interrupts off in task madvise_touch \(pid \d+\) when the IPI arrived \([\d.]+ ms of the wait; inferred/,
  );
  await expect(a.getByRole('list', { name: 'Last to ack per CPU' })).toContainText(
    /CPU 1: \d+ of \d+ · interrupts off \d+/,
  );
  // Chosen, the flush is selected and framed: the time axis spans it and little else.
  const at = Number(/at ([\d.]+) ms/.exec(await row.getByRole('button').innerText())?.[1]);
  const took = Number(/([\d.]+) ms/.exec(await row.locator('td').nth(1).innerText())?.[1]);
  await row.getByRole('button').click();
  await expect(page.locator('.inspector [data-inspector="kind"]')).toHaveText('FlushRange');
  await expectAxisWithin(page, at - took / 4, at + took * 1.25);
  // ...and its parts are bracketed under the lanes: the wait on CPU 1's, with its length.
  const parts = page.locator('.timeline').first().locator('g.lens[data-lens="flush_part"]');
  await expect(
    parts.filter({ has: page.locator('title', { hasText: 'delivery → CPU 1' }) }),
  ).toHaveAttribute('data-cpu', '1');
  await expect(parts.locator('text', { hasText: /^delivery → CPU 1 [\d.]+ ms$/ })).toHaveCount(1);
  expect(sim.consoleErrors).toEqual([]);
});

test('a recording kept in its worker is analysed there, with progress, as on the page', async ({
  sim,
}) => {
  test.setTimeout(90_000);
  const page = sim.page;
  // remote=1000 keeps this 2,962-row recording in its import worker, as a 10 M-line one is.
  await page.goto('./?scenario=x86-munmap-shootdown&remote=1000');
  await sim.waitForIdle();
  const a = await analyseRecording(sim, CONSOLE, 'kept in the import worker');
  // The same answer the page gives when it holds the rows (the test above).
  const row = a.locator('table.analysis-slowest tbody tr').first();
  await expect(row.locator('[data-why]')).toContainText(
    /CPU 1 had interrupts off in task madvise_touch \(pid \d+\) when the IPI arrived/,
  );
  await expect(a.locator('.provenance')).toContainText('348 flushes, 329 with IPIs');
  await expect(a.getByRole('list', { name: 'Last to ack per CPU' })).toContainText(
    'CPU 1: 329 of 329 · interrupts off 84',
  );
  // Chosen, the flush is framed: the axis spans it.
  const at = Number(/at ([\d.]+) ms/.exec(await row.getByRole('button').innerText())?.[1]);
  await row.getByRole('button').click();
  await expectAxisWithin(page, at - 5, at + 20);
  // ...and its parts bracketed on the kept timeline's strips, the wait on CPU 1's.
  const parts = page.locator('.timeline').first().locator('g.lens[data-lens="flush_part"]');
  await expect(
    parts.locator('title', { hasText: /^delivery → CPU 1 [\d.]+ ms on CPU 1:/ }),
  ).toHaveCount(1);
  expect(sim.consoleErrors).toEqual([]);
});

test('a large run the page holds is analysed between frames, to the same answer as in Node', async ({
  sim,
}) => {
  test.setTimeout(90_000);
  initSimulatorForNode();
  const run = runScenario(readScenario('x86-madvise-touch'));
  expect(run.trace.n).toBeGreaterThan(AT_ONCE_ROWS);
  const want = analyzeFlushes(run.trace, 5);
  await sim.open({ scenario: 'x86-madvise-touch' });
  const panel = sim.page.locator('details.flush-analysis');
  await panel.locator('summary').click();
  const a = panel.locator('[data-analysis="A"]');
  await expect(a.locator('.provenance')).toContainText(
    `${want.flushes.toLocaleString('en-US')} flushes, ${want.withIpis.toLocaleString('en-US')} with IPIs`,
  );
  await expect(
    a.locator('table.analysis-slowest tbody tr').first().locator('[data-why]'),
  ).toHaveText(want.slowest[0].why);
  expect(sim.consoleErrors).toEqual([]);
});

test('comparing, A and B are analysed side by side', async ({ sim }) => {
  const page = sim.page;
  await page.goto('./?scenario=x86-munmap-shootdown&compare=1&setB=cpus%3D8');
  await sim.waitForIdle();
  const panel = page.locator('details.flush-analysis');
  await panel.locator('summary').click();
  await expect(panel.locator('[data-analysis="A"] h3')).toHaveText('A: model');
  await expect(panel.locator('[data-analysis="B"] h3')).toHaveText('B: model');
  expect(sim.consoleErrors).toEqual([]);
});

test.describe('at 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('opened, the analysis widens nothing: its tables scroll, not the page', async ({ sim }) => {
    await sim.open({ scenario: 'x86-munmap-shootdown', set: ['cpus=8'] });
    const panel = sim.page.locator('details.flush-analysis');
    await panel.locator('summary').click();
    await expect(panel.locator('table.analysis-slowest')).toBeVisible();
    expect(
      await sim.page.evaluate(() => document.documentElement.scrollWidth - innerWidth),
    ).toBeLessThanOrEqual(0);
    expect(sim.consoleErrors).toEqual([]);
  });
});

test('a recording with the kit’s syscall events: the syscall path in its summary and its costs', async ({
  sim,
}) => {
  await sim.open();
  const page = sim.page;
  await analyseRecording(sim, 'tests/fixtures/recordings/madvise-touch-2cpu-ticks.trace');
  await expect(page.getByRole('region', { name: 'Recording summary' })).toContainText(
    /Syscall path: a syscall around one shootdown, less it .*\(n=\d{3}\)/,
  );
  const model = page.getByRole('region', { name: 'Model this recording' });
  await model.getByRole('button', { name: 'Model this recording' }).click();
  await expect(model.locator('[data-setting="costs.syscall_ns"] input')).toHaveValue(/^\d{4,5}$/);
  await expect(model.locator('[data-costs-missing]')).not.toContainText('syscall_ns');
  expect(sim.consoleErrors).toEqual([]);
});
