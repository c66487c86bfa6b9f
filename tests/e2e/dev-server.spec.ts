// `npm start` serves the development build, where React's StrictMode mounts every component
// twice; the page must work there exactly as in production.
import { DEV_PORT } from '../playwright.config';
import { expect, test } from './fixtures';

test('the development server that npm start runs draws the default shootdown', async ({ sim }) => {
  await sim.page.goto(`http://127.0.0.1:${DEV_PORT}/?scenario=x86-munmap-shootdown`);
  await sim.waitForIdle();
  await expect(sim.lanes()).toHaveCount(4);
  await expect(sim.marks('IpiHandler')).toHaveCount(3);
  expect(sim.consoleErrors).toEqual([]);
});

test('the development server draws the landing page without a page error', async ({ sim }) => {
  await sim.page.goto(`http://127.0.0.1:${DEV_PORT}/`);
  await sim.waitForIdle();
  await expect(sim.page.locator('.cards .card').first()).toBeVisible();
  // Thumbnails run after the list appears; a cancelled run must not leave an uncaught error.
  await sim.page.waitForTimeout(1500);
  expect(sim.consoleErrors).toEqual([]);
});
