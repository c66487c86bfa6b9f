import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * The fixture's three marks under `timeline` (a locator of the timeline): one a CPU, one lane or
 * strip per CPU top to bottom, on one time axis. Returns their boxes, CPUs 0 to 2.
 */
async function threeMarks(page: Page, timeline: string) {
  const marks = page.locator(`${timeline} g.measured-mark`);
  await expect(marks).toHaveCount(3);
  await expect(marks.locator('title').first()).toContainText('measured on local-test-vm (ftrace)');
  const box = async (cpu: number) => {
    const m = page.locator(`${timeline} g.measured-mark[data-cpu="${cpu}"]`);
    await expect(m).toHaveCount(1);
    return (await m.boundingBox())!;
  };
  const [c0, c1, c2] = [await box(0), await box(1), await box(2)];
  // One lane per CPU, top to bottom; the same time gives the same x in every lane.
  expect(c0.y).toBeLessThan(c1.y);
  expect(c1.y).toBeLessThan(c2.y);
  expect(c0.x).toBeLessThan(c1.x);
  expect(Math.abs(c2.x + c2.width / 2 - (c1.x + 3))).toBeLessThan(10);
  return [c0, c1, c2];
}

// Per-event measurements (content/datasets/README.md, "Per-event timings") loaded from the
// explorer sidebar are drawn under their CPU lanes, labelled as measured, apart from the model.
test('a per-event CSV draws measured marks under the right CPU lanes', async ({ sim }) => {
  await sim.open();
  const page = sim.page;
  await page.setInputFiles('#measured-events-input', resolve('tests/fixtures/measured-events.csv'));
  await expect(page.getByTestId('measured-summary')).toContainText(
    '3 events from measured-events.csv, drawn under each CPU lane: measured on local-test-vm (ftrace)',
  );
  const marks = page.locator('.timeline g.measured g.measured-mark');
  const [, c1] = await threeMarks(page, '.timeline g.measured');
  // Not a model mark: no data-row of the trace, and each measured lane says so.
  await expect(page.locator('.timeline .mark.measured-mark')).toHaveCount(0);
  await expect(page.locator('.timeline text.measured-lane')).toHaveCount(3);
  await expect(page.locator('.timeline text.measured-lane').first()).toHaveText(/measured/);
  // Each mark sits in the gap under its own lane: below the lane's top and above the next's.
  const lane = await page.locator('.timeline text.measured-lane').nth(1).boundingBox();
  expect(Math.abs(lane!.y + lane!.height / 2 - (c1.y + c1.height / 2))).toBeLessThan(8);

  await page.getByRole('button', { name: 'remove' }).click();
  await expect(marks).toHaveCount(0);
});

test('on a run kept in its worker the measured marks sit over their CPU strips', async ({
  sim,
}) => {
  const page = sim.page;
  await page.goto('./?scenario=x86-munmap-shootdown&remote=10');
  await sim.waitForIdle();
  await expect(page.locator('.timeline.remote')).toHaveCount(1);
  await page.setInputFiles('#measured-events-input', resolve('tests/fixtures/measured-events.csv'));
  await expect(page.getByTestId('measured-summary')).toContainText(
    '3 events from measured-events.csv, drawn over each CPU’s strip: measured on local-test-vm (ftrace)',
  );
  const marks = page.locator('.timeline.remote g.measured-mark');
  // One strip per CPU, on the same time axis as the page-held timeline's.
  await threeMarks(page, '.timeline.remote');
  await page.getByRole('button', { name: 'remove' }).click();
  await expect(marks).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});

test('a per-event CSV named otherwise is mapped, then drawn', async ({ sim }) => {
  await sim.open();
  const page = sim.page;
  await page.setInputFiles(
    '#measured-events-input',
    resolve('tests/fixtures/measured-events-renamed.csv'),
  );
  const step = page.getByTestId('event-mapping');
  // The file's own rows, as it has them, before anything is drawn.
  await expect(step.locator('thead th')).toHaveText(['Host', 'Core', 'Tracepoint', 'at', 'dur_ns']);
  await expect(step.locator('tbody tr').first()).toContainText('tlb_flush');
  await expect(page.locator('.timeline g.measured-mark')).toHaveCount(0);
  // Known other names are found; a time column of unstated unit and a missing source are not.
  await expect(step.getByLabel('Column for cpu')).toHaveValue('1');
  await expect(step.getByTestId('event-mapping-missing')).toHaveText(
    'Still needed: “time_ns”, “source”.',
  );
  const draw = step.getByRole('button', { name: 'Draw these events' });
  await expect(draw).toBeDisabled();
  await step.getByLabel('Column for time_ns').selectOption({ label: 'at' });
  await step.getByLabel('Fixed source').fill('ftrace');
  await draw.click();
  await expect(step).toHaveCount(0);
  await expect(page.getByTestId('measured-summary')).toContainText(
    '3 events from measured-events-renamed.csv, drawn under each CPU lane: measured on local-test-vm (ftrace)',
  );
  // The same marks, lanes and times as the file with the overlay's own column names.
  await threeMarks(page, '.timeline g.measured');
  expect(sim.consoleErrors).toEqual([]);
});
