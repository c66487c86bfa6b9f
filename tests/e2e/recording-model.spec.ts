import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  await sim.loadRecording(resolve('tests/fixtures/recordings/madvise-touch-2cpu-quiet.trace'));
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
  await sim.loadRecording(resolve('tests/fixtures/recordings/madvise-touch-2cpu-quiet.trace'));
  await sim.waitForIdle();
  await page.keyboard.press('c');
  await sim.waitForIdle();
  const b = page.locator('.timeline').nth(1);
  await expect(b).toContainText('B: cpus=2 busy_threads=1 flushes=300');
  await expect(b.locator('svg g.lane')).toHaveCount(2);
  expect(sim.consoleErrors).toEqual([]);
});

// The same proposal for a recording kept in its import worker (remote= lowers the threshold
// from 2 M rows): the costs are measured there, and download as the file fit-recording writes.
test('a recording kept in its worker: its costs are measured there and download as a costs file', async ({
  sim,
}) => {
  const page = sim.page;
  const file = 'tests/fixtures/recordings/madvise-touch-2cpu-console-perf.txt';
  await page.goto('./?scenario=x86-munmap-shootdown&remote=1000');
  await sim.waitForIdle();
  await page.setInputFiles('#recording-input', resolve(file));
  await expect(page.getByTestId('recording-loaded')).toContainText('kept in the import worker');
  const panel = page.getByRole('region', { name: 'Model this recording' });
  await panel.getByRole('button', { name: 'Model this recording' }).click();
  const settings = panel.getByRole('list', { name: 'Proposed settings' });
  // perf's nanosecond timestamps measure the handler too.
  const handler = settings.locator('[data-setting="costs.ipi_handler_ns"] input');
  await expect(handler).toHaveValue(/^\d+$/);
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download the costs (.toml)' }).click(),
  ]);
  expect(saved.suggestedFilename()).toBe('madvise-touch-2cpu-console-perf.costs.toml');
  const toml = readFileSync(await saved.path(), 'utf8');
  expect(toml).toContain(`ipi_handler_ns = ${await handler.inputValue()}\n`);
  // The [costs] the CLI writes for the same file (its preset comes from the file's
  // .source.json, which a page given only the file does not have).
  const cli = spawnSync(process.execPath, ['web/cli/tlbscope.mjs', 'fit-recording', file], {
    encoding: 'utf8',
  });
  const costsOf = (t: string) => t.slice(t.indexOf('[costs]'));
  expect(costsOf(toml)).toBe(costsOf(cli.stdout.slice(cli.stdout.indexOf('# Costs estimated'))));
  expect(sim.consoleErrors).toEqual([]);
});

test('with a recording as A, the settings column says it is the model’s, and what it runs', async ({
  sim,
}) => {
  await sim.open();
  const page = sim.page;
  await sim.loadRecording(resolve('tests/fixtures/recordings/madvise-touch-2cpu-quiet.trace'));
  const column = page.getByRole('group', { name: 'Settings of the model' });
  await expect(column.locator('legend')).toHaveText('Settings of the model');
  await expect(column.locator('.controls-note')).toContainText(
    'A is the recording. These settings run the model: as B beside it in Compare A/B',
  );
  // Back to the model, the column is A's again.
  await page.getByRole('button', { name: 'back to the model' }).click();
  await sim.waitForIdle();
  await expect(page.getByRole('group', { name: 'Settings A' }).locator('legend')).toHaveText(
    'Settings A',
  );
  expect(sim.consoleErrors).toEqual([]);
});
