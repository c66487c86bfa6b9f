// The timeline's interactions, each through the input a user would use: Ctrl+wheel and keys
// zoom, drag and keys pan, clicks select marks or set the cursor, the spacing switch, and
// collapsible CPU groups on large machines. Assertions read the SVG DOM.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

const timeline = (page: Page) => page.locator('.timeline').first();
const ticks = (page: Page) => timeline(page).locator('g.axis .tick text').allTextContents();

/** A point inside the plot area of the first lane's task track (left of any mark). */
async function plotPoint(page: Page, fx = 0.5, dy = 40): Promise<{ x: number; y: number }> {
  const box = await timeline(page).locator('svg.timeline-top').boundingBox();
  if (!box) throw new Error('no timeline');
  const left = box.x + 118;
  return { x: left + (box.width - 118 - 16) * fx, y: box.y + dy };
}

async function changes(page: Page, act: () => Promise<void>): Promise<string[]> {
  const before = await ticks(page);
  await act();
  await expect.poll(() => ticks(page)).not.toEqual(before);
  return before;
}

test.describe('timeline', () => {
  test('Ctrl+wheel zooms around the pointer and 0 resets', async ({ sim }) => {
    await sim.open();
    const p = await plotPoint(sim.page, 0.8);
    const before = await changes(sim.page, async () => {
      await sim.page.mouse.move(p.x, p.y);
      await sim.page.keyboard.down('Control');
      await sim.page.mouse.wheel(0, -300);
      await sim.page.keyboard.up('Control');
    });
    await timeline(sim.page).focus();
    await sim.page.keyboard.press('0');
    await expect.poll(() => ticks(sim.page)).toEqual(before);
    expect(sim.consoleErrors).toEqual([]);
  });

  test('W and S zoom from the keyboard; the container shows a focus ring', async ({ sim }) => {
    await sim.open();
    await expect(timeline(sim.page)).toHaveAttribute('tabindex', '0');
    await expect(timeline(sim.page)).toHaveAttribute('aria-label', /timeline/i);
    await timeline(sim.page).focus();
    const outline = await timeline(sim.page).evaluate((e) => getComputedStyle(e).outlineStyle);
    expect(outline).not.toBe('none');
    const full = await changes(sim.page, () => sim.page.keyboard.press('w'));
    await changes(sim.page, () => sim.page.keyboard.press('w'));
    await sim.page.keyboard.press('s');
    await sim.page.keyboard.press('s');
    await expect.poll(() => ticks(sim.page)).toEqual(full);
    expect(sim.consoleErrors).toEqual([]);
  });

  test('dragging and A/D pan a zoomed-in view', async ({ sim }) => {
    await sim.open();
    await timeline(sim.page).focus();
    for (let i = 0; i < 4; i++) await sim.page.keyboard.press('w');
    await changes(sim.page, async () => {
      const p = await plotPoint(sim.page, 0.5, 62);
      await sim.page.mouse.move(p.x, p.y);
      await sim.page.mouse.down();
      await sim.page.mouse.move(p.x - 60, p.y, { steps: 5 });
      await sim.page.mouse.move(p.x - 150, p.y, { steps: 5 });
      await sim.page.mouse.up();
    });
    await changes(sim.page, () => sim.page.keyboard.press('a'));
    await changes(sim.page, () => sim.page.keyboard.press('ArrowRight'));
    expect(sim.consoleErrors).toEqual([]);
  });

  test('clicking a mark selects its row; Esc clears it', async ({ sim }) => {
    await sim.open();
    const handler = sim.marks('IpiHandler').first();
    const row = await handler.getAttribute('data-row');
    await handler.click();
    const selected = timeline(sim.page).locator(`rect.span[data-row="${row}"]`);
    await expect(selected).toHaveClass(/\bselected\b/);
    await expect(timeline(sim.page).locator(`.selection-outline[data-row="${row}"]`)).toHaveCount(
      1,
    );
    await timeline(sim.page).focus();
    await sim.page.keyboard.press('Escape');
    await expect(selected).not.toHaveClass(/\bselected\b/);
    expect(sim.consoleErrors).toEqual([]);
  });

  test('clicking empty plot area moves the cursor there', async ({ sim }) => {
    await sim.open();
    const cursor = timeline(sim.page).locator('g.cursor line');
    await expect(cursor).toHaveCount(0);
    // CPU 1's irqs-off track is empty in the default scenario.
    const p = await plotPoint(sim.page, 0.1, 28 + 60 + 25);
    await sim.page.mouse.click(p.x, p.y);
    await expect(cursor).toHaveCount(1);
    const box = await timeline(sim.page).locator('svg.timeline-top').boundingBox();
    expect(Number(await cursor.getAttribute('x1'))).toBeCloseTo(p.x - (box?.x ?? 0), 0);
    expect(sim.consoleErrors).toEqual([]);
  });

  test('the spacing switch gives each event one step', async ({ sim }) => {
    await sim.open();
    const xOf = async (l: Locator) => Number(await l.getAttribute('x'));
    const handlers = sim.marks('IpiHandler');
    const timeX = await Promise.all([0, 1, 2].map((i) => xOf(handlers.nth(i))));
    await sim.page.getByLabel('one step per event').check();
    await expect(timeline(sim.page)).toHaveAttribute('data-spacing', 'event');
    await expect(timeline(sim.page).locator('.axis-title')).toHaveText('event order');
    await expect.poll(() => xOf(handlers.first())).not.toBe(timeX[0]);
    await expect(sim.marks('IpiHandler')).toHaveCount(await handlers.count());
    expect((await ticks(sim.page)).every((t) => t.startsWith('#'))).toBe(true);
    expect(sim.consoleErrors).toEqual([]);
  });

  test('128 CPUs come in collapsible groups of 16', async ({ sim }) => {
    await sim.open({ set: ['cpus=128'] });
    const toggles = timeline(sim.page).locator('g.group-toggle');
    await expect(toggles).toHaveCount(8);
    await expect(
      toggles.locator('xpath=.').and(sim.page.locator('[aria-expanded="false"]')),
    ).toHaveCount(7);
    await expect(sim.lanes().and(sim.page.locator('[data-cpu]'))).toHaveCount(16);
    await expect(timeline(sim.page).locator('g.lane.aggregate')).toHaveCount(7);
    const group2 = timeline(sim.page).locator('g.group-toggle[data-group="2"]');
    await group2.click();
    await expect(group2).toHaveAttribute('aria-expanded', 'true');
    await expect(sim.lanes().and(sim.page.locator('[data-cpu]'))).toHaveCount(32);
    await expect(timeline(sim.page).locator('g.lane[data-cpu="40"]')).toHaveCount(1);
    await group2.focus();
    await sim.page.keyboard.press('Enter');
    await expect(group2).toHaveAttribute('aria-expanded', 'false');
    expect(sim.consoleErrors).toEqual([]);
  });
});
