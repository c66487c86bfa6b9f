// The explorer from 800×600 to 2560×1440: the header's controls stay on screen, the sidebar
// hides and comes back (button and `[`, remembered), nothing in it overflows.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

const COMPARE =
  './?scenario=x86-flush-info-story&set=flush_info%3Dstack&set=preempt%3Dpreemptible_wait' +
  '&compare=1&setB=flush_info%3Dpercpu&setB=preempt%3Dpinned';

async function inViewport(page: Page, l: Locator) {
  const box = await l.boundingBox();
  const vp = page.viewportSize()!;
  expect(box, 'element has a box').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(vp.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(vp.height);
}

test.describe('at 800×600', () => {
  test.use({ viewport: { width: 800, height: 600 } });

  test('Seed, Compare and ? are on screen and the page does not scroll sideways', async ({
    sim,
  }) => {
    await sim.page.goto(COMPARE);
    await sim.waitForIdle();
    const header = sim.page.locator('header');
    await inViewport(sim.page, header.getByLabel('Seed'));
    await inViewport(sim.page, header.getByRole('button', { name: 'Compare A/B' }));
    await inViewport(sim.page, header.getByRole('button', { name: 'Keyboard shortcuts' }));
    await inViewport(sim.page, header.getByLabel('Theme'));
    const overflow = await sim.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('the sidebar starts hidden, opens with its button, closes with [, and is remembered', async ({
    sim,
  }) => {
    await sim.page.goto(COMPARE);
    await sim.waitForIdle();
    const settings = sim.page.locator('[data-setting="preempt"]');
    await expect(settings).toHaveCount(0);
    const timeline = sim.page.locator('.timeline').first();
    const narrow = (await timeline.boundingBox())!.width;
    expect(narrow).toBeGreaterThan(700);
    await sim.page.getByRole('button', { name: 'Show settings' }).click();
    await expect(settings).toHaveCount(2);
    // The file inputs fit in the sidebar.
    const aside = (await sim.page.locator('aside').boundingBox())!;
    for (const input of await sim.page.locator('aside input[type="file"]').all()) {
      const b = (await input.boundingBox())!;
      expect(b.x + b.width).toBeLessThanOrEqual(aside.x + aside.width);
    }
    await sim.page.reload();
    await sim.waitForIdle();
    await expect(settings).toHaveCount(2);
    await sim.page.locator('body').click({ position: { x: 780, y: 590 } });
    await sim.page.keyboard.press('[');
    await expect(settings).toHaveCount(0);
    await expect(sim.page.getByRole('button', { name: 'Show settings' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await sim.page.reload();
    await sim.waitForIdle();
    await expect(settings).toHaveCount(0);
    expect(sim.consoleErrors).toEqual([]);
  });
});

test.describe('at 800×600 in talk mode', () => {
  test.use({ viewport: { width: 800, height: 600 } });

  test('a hidden sidebar leaves no empty column: the timeline takes the width', async ({ sim }) => {
    await sim.page.goto(`${COMPARE}&talk=1`);
    await sim.waitForIdle();
    await expect(sim.page.locator('aside')).toBeHidden();
    const t = (await sim.page.locator('.timeline').first().boundingBox())!;
    expect(t.x).toBeLessThan(40);
    expect(t.width).toBeGreaterThan(700);
    await expect(sim.page.locator('.flush-matches')).toBeHidden();
  });
});

test.describe('at 2560×1440', () => {
  test.use({ viewport: { width: 2560, height: 1440 } });

  test('the sidebar is shown, the timelines fill the width, the header is one row', async ({
    sim,
  }) => {
    await sim.page.goto(COMPARE);
    await sim.waitForIdle();
    await expect(sim.page.locator('[data-setting="preempt"]')).toHaveCount(2);
    const t = (await sim.page.locator('.timeline').first().boundingBox())!;
    expect(t.width).toBeGreaterThan(2000);
    const header = (await sim.page.locator('header').boundingBox())!;
    expect(header.height).toBeLessThan(60);
    await inViewport(sim.page, sim.page.getByRole('button', { name: 'Keyboard shortcuts' }));
  });
});

test.describe('at 1024×768', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('a long scenario description folds after its first paragraph, so the timeline starts on the first screen', async ({
    sim,
  }) => {
    await sim.open({ scenario: 'x86-r7-switch-mm-order' });
    const intro = sim.page.locator('section.intro');
    await expect(intro.getByText('A flush and a context switch into the same')).toBeVisible();
    const later = intro.getByText('Since mm_cpumask is maintained lazily', { exact: false });
    await expect(later).toBeHidden();
    const top = (await sim.page.locator('.timeline').first().boundingBox())!.y;
    expect(top).toBeLessThan(768);
    await intro.getByText(/More about this scenario \(\d+ more paragraphs\)/).click();
    await expect(later).toBeVisible();
  });

  test("a counterexample's numbered steps start on the first screen", async ({ sim }) => {
    await sim.page.goto(
      './?scenario=x86-r7-switch-mm-order&set=switch_mm_barrier=none&view=counterexample&cx=14',
    );
    await sim.waitForIdle();
    const badge = sim.page.locator('.timeline g.cx-step').first();
    await expect(badge).toBeAttached();
    const box = (await badge.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(768);
  });
});

test.describe('at 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the inspector and the event log stack, and the page does not scroll sideways', async ({
    sim,
  }) => {
    await sim.open({ scenario: 'x86-munmap-shootdown' });
    await expect(sim.page.locator('.event-log tbody tr').first()).toBeVisible();
    const overflow = await sim.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const inspector = (await sim.page.locator('.details > div').first().boundingBox())!;
    const log = (await sim.page.locator('.event-log').boundingBox())!;
    expect(log.y).toBeGreaterThanOrEqual(inspector.y + inspector.height);
  });

  test('the settings opened go above the timeline, which keeps the width of the screen', async ({
    sim,
  }) => {
    await sim.open({ scenario: 'x86-munmap-shootdown' });
    await sim.page.getByRole('button', { name: 'Show settings' }).click();
    await expect(sim.page.getByRole('button', { name: 'Hide settings' })).toBeVisible();
    const side = (await sim.page.locator('#settings-sidebar').boundingBox())!;
    const main = (await sim.page.locator('.layout main').boundingBox())!;
    expect(main.width).toBeGreaterThanOrEqual(370);
    expect(main.y).toBeGreaterThanOrEqual(side.y + side.height - 1);
    expect(
      await sim.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
  });

  test("A/B: B's label without spaces breaks, and its export buttons stay on screen", async ({
    sim,
  }) => {
    await sim.page.goto('./?scenario=x86-munmap-shootdown&compare=1&setB=preempt=preemptible_wait');
    await sim.waitForIdle();
    await expect(sim.page.locator('.timeline')).toHaveCount(2);
    const overflow = await sim.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    for (const button of await sim.page.locator('.timeline-bar .export-buttons button').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
  });
});
