// A cancelled or refused run does not empty the page: the previous picture and the controls
// stay, the page says what happened and offers the way on (run again; open the link with its
// refused setting clamped to the nearest value allowed).
import { expect, test } from './fixtures';

test('Escape during a long run keeps the previous timeline and controls, and offers "Run again"', async ({
  sim,
}) => {
  const page = sim.page;
  await sim.open({ scenario: 'x86-munmap-shootdown' });
  const lanes = await sim.lanes().count();
  expect(lanes).toBeGreaterThan(0);
  const cpus = page.locator('[data-setting="cpus"]');
  const before = await cpus.inputValue();
  const flushes = page.locator('[data-setting="flushes"]');
  await flushes.fill('5000000');
  await flushes.press('Enter');
  await expect(page.getByRole('progressbar', { name: 'Simulating A' })).toBeVisible();
  await page.keyboard.press('Escape');
  const status = page.locator('.run-cancelled');
  await expect(status).toContainText('Run A was cancelled');
  await expect(status).toContainText('The timeline below is still the previous run of A');
  await sim.waitForIdle();
  await expect(sim.lanes()).toHaveCount(lanes);
  await expect(page.locator('[data-run-title]')).toBeVisible();
  await expect(cpus).toHaveValue(before);
  await page.getByRole('button', { name: 'Run again' }).click();
  await expect(page.getByRole('progressbar', { name: 'Simulating A' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(status).toContainText('Run A was cancelled');
  await expect(sim.lanes()).toHaveCount(lanes);
  expect(sim.consoleErrors).toEqual([]);
});

test('a link with an out-of-range value offers to open with the nearest value allowed', async ({
  sim,
}) => {
  const page = sim.page;
  // The controls do not offer `initiator`: the link passes it to the simulator, which knows
  // that this machine has CPUs 0 to 3 only.
  await page.goto('./?scenario=x86-munmap-shootdown&set=cpus=4&set=initiator=99');
  await sim.waitForIdle();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Run A could not start');
  await expect(alert).toContainText('must be between 0 and 3, got 99');
  await expect(alert).toContainText('initiator=3 instead of initiator=99');
  await alert.getByRole('button', { name: 'Open without the refused settings' }).click();
  await sim.waitForIdle();
  await expect(page).toHaveURL(/set=cpus%3D4&set=initiator%3D3(&|$)/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(sim.lanes()).toHaveCount(4);
  await expect(page.locator('[data-setting="cpus"]')).toHaveValue('4');
  expect(sim.consoleErrors).toEqual([]);
});

test('a link with an unknown setting opens without it', async ({ sim }) => {
  const page = sim.page;
  await page.goto('./?scenario=x86-madvise-touch&set=bogus=1');
  await sim.waitForIdle();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Run A could not start');
  await expect(alert).toContainText('without bogus=1');
  await alert.getByRole('button', { name: 'Open without the refused settings' }).click();
  await sim.waitForIdle();
  await expect(page).not.toHaveURL(/bogus/);
  await expect(sim.lanes().first()).toBeVisible();
  expect(sim.consoleErrors).toEqual([]);
});
