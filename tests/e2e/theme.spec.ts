// The theme toggle: light, dark or the system's, remembered across visits, repainting the
// timeline's canvas as well as the page.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const bg = (sim: { page: Page }) =>
  sim.page.evaluate(() => getComputedStyle(document.body.parentElement!).backgroundColor);

test('choosing dark survives a reload; "system" follows the system again', async ({ sim }) => {
  await sim.page.emulateMedia({ colorScheme: 'light' });
  await sim.open();
  const light = await bg(sim);
  const pick = sim.page.getByLabel('Theme');
  await expect(pick).toHaveValue('system');
  await pick.selectOption('dark');
  await expect(sim.page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const dark = await bg(sim);
  expect(dark).not.toBe(light);
  await sim.page.reload();
  await sim.waitForIdle();
  await expect(sim.page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(sim.page.getByLabel('Theme')).toHaveValue('dark');
  expect(await bg(sim)).toBe(dark);
  // The M key flips to light, which a light system shows anyway: back to following it.
  await sim.page.keyboard.press('m');
  await expect(sim.page.locator('html')).not.toHaveAttribute('data-theme', /./);
  await expect(sim.page.getByLabel('Theme')).toHaveValue('system');
  expect(await bg(sim)).toBe(light);
  await sim.page.emulateMedia({ colorScheme: 'dark' });
  expect(await bg(sim)).toBe(dark);
  expect(sim.consoleErrors).toEqual([]);
});

test('the M key toggles the theme, talk mode follows it, and "?" lists the key', async ({
  sim,
}) => {
  await sim.page.emulateMedia({ colorScheme: 'light' });
  await sim.page.goto('./?scenario=x86-munmap-shootdown&talk=1');
  await sim.waitForIdle();
  const talkBg = () =>
    sim.page.locator('.app.talk').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await talkBg()).toBe('rgb(255, 255, 255)');
  await sim.page.keyboard.press('m');
  await expect(sim.page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await talkBg()).toBe('rgb(0, 0, 0)');
  await sim.page.keyboard.press('t');
  await sim.page.keyboard.press('?');
  await expect(sim.page.getByRole('dialog')).toContainText(
    'switch between the light and the dark theme',
  );
});

test('the canvas of a dense timeline is repainted in the new theme', async ({ sim }) => {
  await sim.page.emulateMedia({ colorScheme: 'light' });
  await sim.open({ scenario: 'x86-bench-128cpu' });
  const canvas = sim.page.locator('.timeline-canvas').first();
  const pixels = () =>
    canvas.evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      // Sum of the colour of every painted pixel: changes when the palette does.
      let sum = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0) sum += d[i] + d[i + 1] + d[i + 2];
      return sum;
    });
  const before = await pixels();
  expect(before).toBeGreaterThan(0);
  await sim.page.getByLabel('Theme').selectOption('dark');
  await expect.poll(pixels).not.toBe(before);
});

test('a link’s theme wins until the reader picks one, which then leaves the link', async ({
  sim,
}) => {
  await sim.page.emulateMedia({ colorScheme: 'light' });
  await sim.page.goto('./?scenario=x86-munmap-shootdown&theme=dark');
  await sim.waitForIdle();
  await expect(sim.page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(sim.page.getByLabel('Theme')).toHaveValue('dark');
  await sim.page.getByLabel('Theme').selectOption('light');
  await expect(sim.page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(sim.page).not.toHaveURL(/theme=/);
});
