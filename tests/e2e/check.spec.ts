import { expect, test } from './fixtures';

test('shot', async ({ sim }) => {
  test.setTimeout(200_000);
  const page = sim.page;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./?scenario=x86-r6-lazy-freed-tables&view=counterexample');
  await expect(page.locator('[data-verdict]')).toHaveCount(1, { timeout: 60_000 });
  await sim.waitForIdle();
  await expect(page.locator('.state-view')).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/r6.png', fullPage: true });
  await page.getByRole('button', { name: /Compare with the fix/ }).click();
  await expect(page.locator('[data-verdict]')).toHaveCount(2, { timeout: 120_000 });
  await sim.waitForIdle();
  await page.screenshot({ path: '/tmp/shots/r6ab.png', fullPage: true });
  console.log(page.url());
  console.log(sim.consoleErrors);
});
