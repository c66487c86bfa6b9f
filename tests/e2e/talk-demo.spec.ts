// The example reveal.js deck (web/talk-demo/), served by the production build: pressing the
// slide keys moves the embedded diagrams to the steps the slides and fragments name.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const stepOf = (page: Page, slide: number) =>
  page.locator('.reveal .slides > section').nth(slide).frameLocator('iframe').locator('.embed');

test('the slide keys step the embedded diagrams through the story', async ({ page }, info) => {
  test.setTimeout(60_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./talk-demo/');
  await expect(page.locator('.reveal .slides > section.present h2')).toContainText(
    'flush_tlb_info',
  );
  await page.keyboard.press('ArrowRight'); // slide 2: step 1
  await expect(stepOf(page, 1)).toHaveAttribute('data-step', '1', { timeout: 15_000 });
  await expect(stepOf(page, 1).locator('[data-embed-title]')).toHaveText(
    '2019: the descriptor leaves the stack',
  );
  await page.keyboard.press('ArrowRight'); // fragment: step 2
  await expect(stepOf(page, 1)).toHaveAttribute('data-step', '2');
  await page.keyboard.press('Space'); // fragment: step 3
  await expect(stepOf(page, 1)).toHaveAttribute('data-step', '3');
  await expect(stepOf(page, 1).locator('[data-embed-title]')).toHaveText(
    "The high-priority task waits out someone else's IRQs-off window",
  );
  await page.keyboard.press('ArrowLeft'); // fragment hidden: back to step 2
  await expect(stepOf(page, 1)).toHaveAttribute('data-step', '2');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight'); // slide 3: step 4
  await expect(page.locator('.reveal .slides > section.present h3')).toContainText(
    'Just enable preemption',
  );
  await expect(stepOf(page, 2)).toHaveAttribute('data-step', '4', { timeout: 15_000 });
  await page.keyboard.press('ArrowRight'); // fragment: step 5, an A/B comparison
  await expect(stepOf(page, 2)).toHaveAttribute('data-step', '5');
  await expect(stepOf(page, 2).locator('.timeline')).toHaveCount(2);
  await page.screenshot({ path: info.outputPath('talk-demo-step5.png') });
  // The diagram moved, and the deck still has its keys: the next slide follows.
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.reveal .slides > section.present h3')).toHaveText('Try it yourself');
  expect(errors).toEqual([]);
});
