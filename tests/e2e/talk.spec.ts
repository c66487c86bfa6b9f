// Talk mode (?talk=1): a clicker's keys walk the guided steps, `b` blanks the screen, the
// page reads from the back of a room. Screenshots at projector sizes in both themes go to
// the test output folder (test-results/).
import { Simulator } from '../../sim-wasm/pkg/tlbscope_sim.js';
import type { Step } from '../../web/src/sim/scenario';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';

const SCENARIO = 'x86-munmap-shootdown';

function stepTitles(id: string): string[] {
  initSimulatorForNode();
  const sim = new Simulator(readScenario(id), [], 1);
  const steps = JSON.parse(sim.stepsJson()) as Step[];
  sim.free();
  return steps.map((s) => s.title);
}

/** What is on top at the centre of the screen: the blank cover, or the page. */
function topAtCentre(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
    return el?.getAttribute('data-testid') ?? el?.tagName ?? '';
  });
}

test('a clicker walks the guided steps and b blanks the screen', async ({ sim }) => {
  const titles = stepTitles(SCENARIO);
  expect(titles.length).toBeGreaterThanOrEqual(4);
  const { page } = sim;
  await page.goto(`./?scenario=${SCENARIO}&seed=3&talk=1`);
  await sim.waitForIdle();
  await expect(page.locator('.app')).toHaveClass(/\btalk\b/);
  await expect(page.locator('aside')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Talk mode' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const title = page.locator('[data-step-title]');

  // Space starts the steps; PageDown and → go on; PageUp and ← go back.
  await page.keyboard.press('Space');
  await expect(title).toHaveText(titles[0]);
  await page.keyboard.press('PageDown');
  await expect(title).toHaveText(titles[1]);
  await page.keyboard.press('ArrowRight');
  await expect(title).toHaveText(titles[2]);
  await page.keyboard.press('Space');
  await expect(title).toHaveText(titles[3]);
  await page.keyboard.press('PageUp');
  await expect(title).toHaveText(titles[2]);
  await page.keyboard.press('ArrowLeft');
  await expect(title).toHaveText(titles[1]);
  await sim.waitForIdle();
  // Talk mode keeps its parameter while the rest of the URL follows the steps.
  await expect(page).toHaveURL(/[?&]step=2(&|$)/);
  await expect(page).toHaveURL(/[?&]talk=1(&|$)/);
  await expect(page).toHaveURL(/[?&]seed=3(&|$)/);

  // b blanks; any key brings the page back and does nothing else.
  await page.keyboard.press('b');
  await expect(page.getByTestId('talk-blank')).toBeVisible();
  expect(await topAtCentre(page)).toBe('talk-blank');
  await page.keyboard.press('PageDown');
  await expect(page.getByTestId('talk-blank')).toHaveCount(0);
  await expect(title).toHaveText(titles[1]);
  expect(await topAtCentre(page)).not.toBe('talk-blank');
  // ... and b again.
  await page.keyboard.press('b');
  await expect(page.getByTestId('talk-blank')).toBeVisible();
  await page.keyboard.press('b');
  await expect(page.getByTestId('talk-blank')).toHaveCount(0);

  // The last step is where a clicker stops: one press too many stays on it.
  for (let i = 2; i < titles.length; i++) await page.keyboard.press('PageDown');
  await expect(title).toHaveText(titles.at(-1) as string);
  await page.keyboard.press('PageDown');
  await expect(title).toHaveText(titles.at(-1) as string);

  // T leaves talk mode: the sidebar is back, the step and the other parameters stay.
  await page.keyboard.press('t');
  await expect(page.locator('.app')).not.toHaveClass(/\btalk\b/);
  await expect(page.locator('aside')).toBeVisible();
  await expect(page).not.toHaveURL(/talk=/);
  await expect(page).toHaveURL(new RegExp(`[?&]step=${titles.length}(&|$)`));
  // Outside talk mode b does not blank, and Space is play / pause again, not a step.
  await page.keyboard.press('b');
  await expect(page.getByTestId('talk-blank')).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});

test('the toggle button turns talk mode on, and a click on the larger timeline lands where it is', async ({
  sim,
}) => {
  const { page } = sim;
  await page.setViewportSize({ width: 1024, height: 768 });
  await sim.open({ scenario: SCENARIO, step: 2 });
  await page.getByRole('button', { name: 'Talk mode' }).click();
  await expect(page.locator('.app')).toHaveClass(/\btalk\b/);
  await expect(page).toHaveURL(/[?&]talk=1(&|$)/);
  await sim.waitForIdle();
  // Thick marks: a span's sub-track is drawn half as tall again as outside talk mode.
  const span = page.locator('.timeline rect.span').first();
  await expect(span).toBeVisible();
  const box = await span.boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(12);
  // A click on the plot puts the cursor exactly under the pointer despite the zoom.
  await page.locator('.timeline').scrollIntoViewIfNeeded();
  const plot = await page.locator('.timeline svg.timeline-top').boundingBox();
  if (!plot) throw new Error('no timeline plot');
  const x = plot.x + plot.width * 0.6;
  await page.mouse.click(x, plot.y + 4);
  const cursor = page.locator('.timeline .cursor line');
  await expect(cursor).toBeAttached();
  const c = await cursor.boundingBox();
  expect(Math.abs((c?.x ?? 0) + (c?.width ?? 0) / 2 - x)).toBeLessThan(3);
  // Nothing runs off the side of a projector's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
});

for (const [width, height] of [
  [1024, 768],
  [1920, 1080],
]) {
  for (const theme of ['light', 'dark'] as const) {
    test(`talk mode at ${width}×${height}, ${theme}: large type, the diagram and narration only (screenshot)`, async ({
      sim,
    }, info) => {
      const { page } = sim;
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(`./?scenario=${SCENARIO}&step=3&talk=1`);
      await sim.waitForIdle();
      await expect(page.locator('[data-step-title]')).toBeVisible();
      await expect(page.locator('aside')).toBeHidden();
      // Readable from the back: body text at 20 px or more, step titles larger still.
      const px = (sel: string) =>
        page
          .locator(sel)
          .first()
          .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(await px('.step-count')).toBeGreaterThanOrEqual(20);
      // The step's question (a choice here: its words and its buttons) reads as large.
      expect(await px('.narration .question p')).toBeGreaterThanOrEqual(20);
      expect(await px('.narration .question button')).toBeGreaterThanOrEqual(20);
      expect(await px('[data-step-title]')).toBeGreaterThanOrEqual(24);
      expect(await px('.legend')).toBeGreaterThanOrEqual(17);
      // Full contrast: black on white, or white on black.
      const colours = await page
        .locator('.narration h2')
        .evaluate((el) => [
          getComputedStyle(el).color,
          getComputedStyle(document.querySelector('.app') as Element).backgroundColor,
        ]);
      expect(colours).toEqual(
        theme === 'light'
          ? ['rgb(0, 0, 0)', 'rgb(255, 255, 255)']
          : ['rgb(255, 255, 255)', 'rgb(0, 0, 0)'],
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      // Only the narration and the diagram: no app header, no transport row, no summary.
      for (const gone of ['header nav', 'header select', '.transport', '.summary'])
        await expect(page.locator(gone).first(), gone).toBeHidden();
      // The diagram is on the first screen, under the step's title, down to its last CPU lane.
      const lanes = page.locator('.timeline g.lane');
      expect(await lanes.count()).toBeGreaterThan(1);
      const last = await lanes.last().boundingBox();
      expect((last?.y ?? Infinity) + (last?.height ?? 0), 'the last lane').toBeLessThanOrEqual(
        height,
      );
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.screenshot({ path: info.outputPath(`talk-${width}x${height}-${theme}.png`) });
      expect(sim.consoleErrors).toEqual([]);
    });
  }
}

test('a comparison step in talk mode: both timelines whole on a 1024×768 screen, with their A/B labels and no export buttons', async ({
  sim,
}) => {
  const { page } = sim;
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('./?scenario=x86-lazy-tlb&step=6&talk=1');
  await sim.waitForIdle();
  const timelines = page.locator('.timeline');
  await expect(timelines).toHaveCount(2);
  await expect(timelines.nth(1).locator('.timeline-label')).toContainText('B:');
  await expect(page.locator('.timeline .export-buttons').first()).toBeHidden();
  await expect
    .poll(async () => {
      const box = await timelines.nth(1).boundingBox();
      return (box?.y ?? Infinity) + (box?.height ?? 0);
    })
    .toBeLessThanOrEqual(768);
  expect(sim.consoleErrors).toEqual([]);
});
