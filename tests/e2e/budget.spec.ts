// Runs that would outgrow a browser tab stop at the simulator's budget: the page shows the part
// that ran with a message naming the budget and how to raise it, and stays usable.
import { expect, test } from './fixtures';

test('the flushes=10000000 link stops at the memory budget and shows the partial run', async ({
  sim,
}) => {
  test.setTimeout(120_000);
  const q = new URLSearchParams({ scenario: 'x86-munmap-shootdown' });
  for (const s of ['flushes=10000000', 'max_events=100000000', 'max_time_ns=1000000000000'])
    q.append('set', s);
  await sim.page.goto(`./?${q}`);
  const alert = sim.page.getByRole('alert').filter({ hasText: 'stopped early' });
  await expect(alert).toBeVisible({ timeout: 90_000 });
  await expect(alert).toContainText('machine.max_memory_mb: the run reached its memory budget');
  await expect(alert).toContainText('--set max_memory_mb=<MB>');
  await expect(sim.page.locator('.app')).toHaveAttribute('data-state', 'idle', {
    timeout: 60_000,
  });
  await expect(sim.lanes()).toHaveCount(4);
  // Still alive: another scenario runs in the same tab.
  await sim.open({ scenario: 'x86-munmap-shootdown' });
  await expect(sim.marks('IpiHandler')).toHaveCount(3);
  await expect(sim.page.getByRole('alert')).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});

test('a task that never ends (repeat = 0) stops at its event budget with a message', async ({
  sim,
}) => {
  const text = [
    'title = "forever"',
    '[machine]',
    'max_events = 200000',
    '[[tasks]]',
    'cpu = 0',
    'repeat = 0',
    'program = "touch 0; madvise 0"',
  ].join('\n');
  await sim.open();
  await sim.page.setInputFiles('#scenario-file-input', {
    name: 'forever.toml',
    mimeType: 'text/plain',
    buffer: Buffer.from(text),
  });
  await sim.waitForIdle();
  await expect(sim.page.getByRole('alert')).toContainText(
    'forever.toml: machine.max_events: the run reached its event budget of 200,000 events',
  );
  await expect(sim.lanes()).toHaveCount(4);
  expect(sim.consoleErrors).toEqual([]);
});
