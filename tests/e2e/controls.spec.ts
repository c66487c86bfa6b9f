// The sidebar shows the design in effect: every control holds the value the run used and says
// whose choice it is (the scenario's, the guided step's, or the reader's, which resets); the
// file inputs stay inside the sidebar; each mark kind has its own colour.
import { expect, test } from './fixtures';

test('controls show the scenario’s values, and the reader’s override until it is reset', async ({
  sim,
}) => {
  await sim.open({ scenario: 'x86-flush-info-story' });
  const flushInfo = sim.page.locator('[data-setting="flush_info"]');
  await expect(flushInfo).toHaveValue('percpu');
  await expect(sim.page.locator('[data-control-source="flush_info"]')).toHaveText('scenario');
  const cpus = sim.page.locator('[data-setting="cpus"]');
  await expect(cpus).toHaveValue('4');
  // A preset default the file does not set is shown too, not "(scenario)".
  await expect(sim.page.locator('[data-setting="machine"]')).toHaveValue('generic-x86');

  await cpus.fill('8');
  await cpus.press('Enter');
  await sim.waitForIdle();
  await expect(sim.page).toHaveURL(/set=cpus%3D8/);
  await expect(sim.page.locator('[data-control-source="cpus"]')).toHaveText('yours');
  await expect(cpus).toHaveValue('8');
  await sim.page.getByRole('button', { name: /Reset CPUs \(A\)/ }).click();
  await sim.waitForIdle();
  await expect(sim.page).not.toHaveURL(/cpus%3D/);
  await expect(sim.page.locator('[data-setting="cpus"]')).toHaveValue('4');
  await expect(sim.page.locator('[data-control-source="cpus"]')).toHaveText('scenario');
});

test('a guided step’s settings are credited to the step', async ({ sim }) => {
  await sim.open({ scenario: 'x86-flush-info-story', step: 4 });
  await expect(sim.page.locator('[data-setting="preempt"]').first()).toHaveValue(
    'preemptible_wait',
  );
  await expect(sim.page.locator('[data-control-source="preempt"]').first()).toHaveText('this step');
  await expect(sim.page.locator('[data-control-source="flush_info"]').first()).toHaveText(
    'scenario',
  );
});

for (const [width, height] of [
  [1440, 900],
  [800, 600],
]) {
  test(`the file inputs stay inside the sidebar at ${width}×${height}`, async ({ sim }) => {
    await sim.page.setViewportSize({ width, height });
    await sim.open();
    // Below 1000 px the sidebar starts hidden (app/sidebar.ts): open it.
    const show = sim.page.getByRole('button', { name: 'Show settings' });
    if (width < 1000) await show.click();
    await expect(show).toHaveCount(0);
    const aside = await sim.page.locator('aside').boundingBox();
    expect(aside).not.toBeNull();
    const inputs = sim.page.locator('aside input[type="file"]');
    expect(await inputs.count()).toBeGreaterThan(0);
    for (const box of await inputs.evaluateAll((els) =>
      els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect),
    )) {
      expect(box.x).toBeGreaterThanOrEqual(aside!.x);
      expect(box.x + box.width).toBeLessThanOrEqual(aside!.x + aside!.width + 0.5);
    }
  });
}

test('FlushRange and a TLBI broadcast are drawn in different colours', async ({ sim }) => {
  await sim.open({ scenario: 'arm64-skip-broadcast-story' });
  const fill = (kind: string) =>
    sim.page.locator(`.legend rect.k-${kind}`).evaluate((el) => getComputedStyle(el).fill);
  const flush = await fill('FlushRange');
  const broadcast = await fill('TlbiBroadcast');
  expect(broadcast).not.toBe(flush);
});
