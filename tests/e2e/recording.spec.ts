import { writeTracefs } from '../../bench/gen-tracefs.mjs';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from './fixtures';

// A kernel recording from tests/fixtures/recordings (made with bench/kit/trace.sh on a 2-CPU
// KVM guest) imported in the explorer: parsed in a worker, drawn in the model's lanes with its
// IPI arrows, summarised in the model's terms and compared with a model run as B.
const FIXTURE = resolve('tests/fixtures/recordings/tracefs.trace');
const text = readFileSync(FIXTURE, 'utf8');
const count = (re: RegExp) => text.split('\n').filter((l) => re.test(l)).length;

test('an imported recording is drawn as run A with its lanes, IPI arrows and summary', async ({
  sim,
}) => {
  await sim.open();
  const page = sim.page;
  await page.setInputFiles('#recording-input', FIXTURE);
  await expect(page.getByTestId('recording-loaded')).toContainText('tracefs.trace');
  await sim.waitForIdle();
  await expect(page.locator('section.intro h2')).toHaveText('Recording: tracefs.trace');
  // Two CPUs recorded: two lanes, and one IPI arrow per handler event with a send before it.
  await expect(sim.lanes()).toHaveCount(2);
  const handlers = count(/call_function_single_entry:/);
  await expect(page.locator('.timeline svg [data-kind="IpiHandler"]')).toHaveCount(handlers);
  await expect(sim.marks('IpiArrow')).toHaveCount(handlers);
  await expect(sim.marks('AckArrow')).toHaveCount(
    count(/csd_function_exit: func=flush_tlb_func, csd=0*[1-9a-f]/),
  );
  const summary = page.getByRole('region', { name: 'Recording summary' });
  await expect(summary.locator('[data-summary="tlb_flush events"]')).toHaveText(
    String(count(/tlb_flush:/)),
  );
  await expect(summary).toContainText('Measured, not predicted');
  // A handler's row names the line it was read from.
  // (Selected in the event log: a handler's mark is under a pixel wide at this zoom.)
  await page.getByRole('row').filter({ hasText: 'IpiHandler' }).first().click();
  const line = await page.locator('[data-recorded="line"]').textContent();
  const n = Number(/line (\d+) of/.exec(line ?? '')?.[1]);
  expect(text.split('\n')[n - 1]).toMatch(/call_function_single_entry:/);
  expect(sim.consoleErrors).toEqual([]);
});

test('a recording without handler events marks each IPI send as unpaired, in the legend too', async ({
  sim,
}) => {
  await sim.open();
  const page = sim.page;
  const noHandlers = text
    .split('\n')
    .filter((l) => !/call_function(_single)?_(entry|exit):/.test(l))
    .join('\n');
  await page.setInputFiles('#recording-input', {
    name: 'no-handlers.trace',
    mimeType: 'text/plain',
    buffer: Buffer.from(noHandlers),
  });
  await expect(page.getByTestId('recording-loaded')).toContainText('no-handlers.trace');
  await sim.waitForIdle();
  await expect(sim.marks('IpiArrow')).toHaveCount(0);
  await expect(sim.marks('UnpairedIpi')).toHaveCount(count(/ipi_send_cpu:/));
  await expect(sim.marks('UnpairedIpi').first().locator('title')).toContainText(
    'no handler answering it was recorded',
  );
  await expect(page.getByRole('list', { name: 'Legend' }).first()).toContainText(
    'IPI sent, no handler recorded (unpaired)',
  );
  expect(sim.consoleErrors).toEqual([]);
});

test('the recording is A in Compare A/B, with a model run as B', async ({ sim }) => {
  await sim.open();
  const page = sim.page;
  await sim.loadRecording(FIXTURE);
  await sim.waitForIdle();
  await page.keyboard.press('c');
  await sim.waitForIdle();
  await expect(page.locator('.timeline')).toHaveCount(2);
  await expect(page.locator('.timeline').first()).toContainText('A: Recording: tracefs.trace');
  const ipis = page.locator('[data-metric="IPIs sent"] td');
  await expect(ipis.nth(0)).toHaveText(String(count(/ipi_send_cpu:/)));
  await expect(ipis.nth(1)).toHaveText(/^\d+$/);
  await expect(page.locator('path.ecdf')).toHaveCount(2);
  // Back to the model: A is the scenario again.
  await page.getByRole('button', { name: 'back to the model' }).click();
  await sim.waitForIdle();
  await expect(page.locator('.timeline').first()).not.toContainText('Recording');
  expect(sim.consoleErrors).toEqual([]);
});

test('a pasted recording that is not a trace is refused, naming the line', async ({ sim }) => {
  await sim.open();
  const page = sim.page;
  await page.getByText('Paste a recording').click();
  await page.getByLabel('Recording text').fill('time,cpu\n1,2\n');
  await page.getByRole('button', { name: 'Import pasted text' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'pasted text: not a trace this importer reads',
  );
  await expect(page.getByRole('alert')).toContainText('line 1');
  await expect(page.locator('section.intro h2')).not.toContainText('Recording');
});

test('the recording downloads as a Perfetto trace with one slice per row', async ({ sim }) => {
  await sim.open();
  const page = sim.page;
  await sim.loadRecording(FIXTURE);
  await sim.waitForIdle();
  const rows = Number(
    (await page.getByTestId('recording-loaded').textContent())
      ?.match(/([\d,]+) rows/)?.[1]
      .replace(/,/g, ''),
  );
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download A as a Perfetto trace' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('tracefs.trace.perfetto.json');
  const doc = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const slices = doc.traceEvents.filter((e: { ph: string }) => e.ph === 'X');
  expect(slices.length).toBe(rows);
  expect(
    slices.filter((e: { args: { reason?: string } }) => e.args.reason !== undefined).length,
  ).toBe(count(/tlb_flush:/));
});

test('the guided step sets a real recording beside the model, on its first shootdown', async ({
  sim,
}) => {
  await sim.open({ scenario: 'x86-munmap-shootdown', step: 8 });
  const page = sim.page;
  await expect(page.locator('[data-step-title]')).toHaveText('The same shootdown on a real kernel');
  const beside = page.getByRole('region', { name: 'A real kernel beside the model' });
  await expect(beside).toContainText('Recorded on AMD EPYC, 2 CPUs');
  // Its own timeline, opened on one shootdown: one IPI arrow and its ack, two CPU lanes.
  const timeline = beside.locator('.timeline');
  await expect(timeline.locator('svg g.lane')).toHaveCount(2);
  await expect(timeline.locator('[data-kind="IpiArrow"]')).toHaveCount(1);
  await expect(timeline.locator('[data-kind="AckArrow"]')).toHaveCount(1);
  await expect(beside.locator('[data-summary="IPI delivery"]')).toHaveText(/µs \/ .*µs/);
  // The model's own timeline is still there, below.
  await expect(page.locator('main > .timeline, main .timeline')).toHaveCount(2);
  expect(sim.consoleErrors).toEqual([]);
});

test('a large recording shows its progress and can be cancelled, leaving the model as A', async ({
  sim,
}) => {
  await sim.open();
  const page = sim.page;
  // ~100 MB of generated tracefs lines whose clock only goes forward: large enough that the
  // worker is still reading when the click lands. (The real fixture repeated would not do: its
  // time goes back at every copy, and those events are dropped unread, so it parses too fast.)
  // Written to a file: Playwright hands a buffer over 50 MB to the page only by path.
  const path = test.info().outputPath('big.trace');
  await writeTracefs(path, 1_000_000, 4);
  const size = statSync(path).size;
  await page.setInputFiles('#recording-input', path);
  const status = page.getByRole('status').filter({ hasText: 'Reading big.trace' });
  await expect(status).toBeVisible();
  await expect(status.locator('progress')).toHaveAttribute('max', String(size));
  await status.getByRole('button', { name: 'Cancel' }).click();
  await expect(status).toHaveCount(0);
  await expect(page.getByTestId('recording-loaded')).toHaveCount(0);
  await expect(page.locator('section.intro h2')).not.toContainText('Recording');
  expect(sim.consoleErrors).toEqual([]);
});
