// The pan and zoom hint is for the page's reader; an embed (someone's slide or article) and
// talk mode show none.
import { expect, test } from './fixtures';

test('the zoom hint shows on the page, not in an embed or in talk mode', async ({ sim }) => {
  const hint = sim.page.locator('.timeline-bar').getByText('Ctrl+wheel or W/S zoom');
  await sim.open({ scenario: 'x86-munmap-shootdown' });
  await expect(hint.first()).toBeVisible();
  for (const mode of ['embed=1', 'talk=1']) {
    await sim.page.goto(`./?scenario=x86-munmap-shootdown&${mode}`);
    await sim.waitForIdle();
    await expect(sim.page.locator('.timeline g.lane').first()).toBeVisible();
    // The hint is there (the timeline wrote it), only not shown.
    await expect(sim.page.locator('.timeline-status[data-hint]').first(), mode).toBeAttached();
    for (const h of await hint.all()) await expect(h, mode).toBeHidden();
  }
  expect(sim.consoleErrors).toEqual([]);
});
