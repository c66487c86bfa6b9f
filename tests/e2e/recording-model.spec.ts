import { resolve } from 'node:path';
import { expect, test } from './fixtures';

// "Model this recording": the quiet 2-CPU recording (tests/fixtures/recordings) opened on the
// default 4-CPU munmap scenario proposes its own settings, lists them with their reasons and
// runs them as B, whose shootdowns then meet the recording's flush by flush.
test('Model this recording runs B on the recording’s 2 CPUs and its flushes match A’s', async ({
  sim,
}) => {
  await sim.open();
  const page = sim.page;
  await page.setInputFiles(
    '#recording-input',
    resolve('tests/fixtures/recordings/madvise-touch-2cpu-quiet.trace'),
  );
  await expect(page.getByTestId('recording-loaded')).toBeVisible();
  await sim.waitForIdle();
  const panel = page.getByRole('region', { name: 'Model this recording' });
  await panel.getByRole('button', { name: 'Model this recording' }).click();
  const settings = panel.getByRole('list', { name: 'Proposed settings' });
  await expect(settings.locator('[data-setting="cpus"]')).toContainText(
    "2 CPUs: the recording's cpus=2",
  );
  await expect(settings.locator('[data-setting="cpus"] input')).toHaveValue('2');
  await expect(settings.locator('[data-setting="busy_threads"] input')).toHaveValue('1');
  await expect(settings.locator('[data-setting="busy_threads"]')).toContainText('CPU 1 took');
  await expect(settings.locator('[data-setting="machine"] input')).toHaveValue('generic-x86');
  // The IPI delivery this recording measured, with its sample count; what it cannot measure is
  // named, not guessed.
  const delivery = settings.locator('[data-setting="costs.ipi_delivery_ns"]');
  await expect(delivery).toContainText(/measured here: the median of \d+ \(p10 /);
  const measured = await delivery.locator('input').inputValue();
  expect(Number(measured)).toBeGreaterThan(0);
  await expect(panel.locator('[data-costs-missing]')).toContainText('syscall_ns');
  await panel.getByRole('button', { name: 'Run as B in Compare A/B' }).click();
  await sim.waitForIdle();
  await expect(page).toHaveURL(/scenario=x86-madvise-touch/);
  await expect(page).toHaveURL(/setB=cpus%3D2/);
  await expect(page).toHaveURL(new RegExp(`setB=costs.ipi_delivery_ns%3D${measured}`));
  const timelines = page.locator('.timeline');
  await expect(timelines).toHaveCount(2);
  await expect(timelines.first()).toContainText('Recording: madvise-touch-2cpu-quiet.trace');
  await expect(timelines.nth(1).locator('svg g.lane')).toHaveCount(2);
  const match = page.locator('[data-match-summary]');
  await expect(match).toContainText('matched by initiating CPU and order');
  const both = Number(/; (\d+) matched/.exec((await match.textContent()) ?? '')?.[1]);
  expect(both).toBeGreaterThan(0);
  // The proposal stays listed beside the comparison it made.
  await expect(settings.locator('[data-setting="flushes"]')).toBeVisible();
  expect(sim.consoleErrors).toEqual([]);
});

test('with a recording as A, the link’s set= settings are the model’s: B runs them', async ({
  sim,
}) => {
  // Before, `set=` belonged to A alone; a recording replaced A, so B ran the scenario's
  // 128-CPU preset whatever the link said.
  await sim.open({
    scenario: 'x86-madvise-touch',
    set: ['cpus=2', 'busy_threads=1', 'flushes=300'],
  });
  const page = sim.page;
  await page.setInputFiles(
    '#recording-input',
    resolve('tests/fixtures/recordings/madvise-touch-2cpu-quiet.trace'),
  );
  await expect(page.getByTestId('recording-loaded')).toBeVisible();
  await sim.waitForIdle();
  await page.keyboard.press('c');
  await sim.waitForIdle();
  const b = page.locator('.timeline').nth(1);
  await expect(b).toContainText('B: cpus=2 busy_threads=1 flushes=300');
  await expect(b.locator('svg g.lane')).toHaveCount(2);
  expect(sim.consoleErrors).toEqual([]);
});
