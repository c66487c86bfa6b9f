// The docs are served with the site: the header's Docs link opens them, the model reference's
// stable anchors (other pages link to docs/model.html#r8 and #i3) land on their entries, and
// the development server serves the same pages.
import { DEV_PORT } from '../playwright.config';
import { expect, test } from './fixtures';

test("the header's Docs link opens the docs index under the site's base path", async ({ sim }) => {
  await sim.open();
  const link = sim.page.getByRole('link', { name: 'Docs', exact: true });
  await link.click();
  await expect(sim.page).toHaveURL(/\/tlbscope\/demo\/docs\/index\.html$/);
  await expect(sim.page.locator('h1')).toHaveText('tlbscope documentation');
  await sim.page.getByRole('link', { name: 'Embed a step in a slide deck' }).click();
  await expect(sim.page.locator('#embed-a-step-in-a-slide-deck')).toBeInViewport();
});

test('the shortcut help links to the user guide', async ({ sim }) => {
  await sim.open();
  await sim.page.keyboard.press('?');
  const help = sim.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.getByRole('link', { name: 'user guide' }).click();
  await expect(sim.page.locator('h1')).toHaveText('User guide');
});

test("docs/model.html#r8 shows R8's entry, and #i3 I3's", async ({ page }) => {
  await page.goto('./docs/model.html#r8');
  const r8 = page.locator('#r8 + h3');
  await expect(r8).toHaveText(/^R8: out-of-order full and partial flush requests/);
  await expect(r8).toBeInViewport();
  await expect(page.locator('#r8 ~ p').first()).toContainText('plus_one_rule=off');
  await page.goto('./docs/model.html#i3');
  await expect(page.locator('#i3 + h3')).toHaveText(/^I3: /);
  await expect(page.locator('#i3 + h3')).toBeInViewport();
  // Every race and invariant number has its anchor, modelled or not.
  for (let n = 1; n <= 18; n++) {
    await expect(page.locator(`#r${n} + h3`)).toHaveText(new RegExp(`^R${n}: `));
    await expect(page.locator(`#i${n} + h3`)).toHaveText(new RegExp(`^I${n}: `));
  }
});

test('the README picture and the docs pages load under the strict docs policy', async ({
  page,
}) => {
  const failed: string[] = [];
  page.on('requestfailed', (r) => failed.push(r.url()));
  page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
  await page.goto('./docs/readme.html');
  const img = page.locator('img[src="img/explorer.png"]');
  await expect(img).toBeVisible();
  expect(await img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(1440);
  await page.getByRole('link', { name: 'CLI reference' }).first().click();
  await expect(page.locator('h2#check')).toBeVisible();
  expect(failed).toEqual([]);
});

test('the development server serves the same docs', async ({ page }) => {
  const res = await page.goto(`http://127.0.0.1:${DEV_PORT}/docs/model.html#r8`);
  expect(res?.status()).toBe(200);
  await expect(page.locator('#r8 + h3')).toHaveText(/^R8: /);
});
