// "Next step →" sits under the narration, so the reader has scrolled down to reach it; the
// step it opens must not stay scrolled there (showing the summary under the diagram), but show
// the new narration and its timeline together, as ← / → do.
import { expect, test } from './fixtures';

for (const [scenario, from, button] of [
  ['x86-lazy-tlb', 1, 'Next step →'],
  ['x86-r8-plus-one-rule', 3, 'Next step →'],
  ['x86-r8-plus-one-rule', 3, '← Previous step'],
] as const) {
  test(`${scenario} step ${from}, "${button}" at 1440×900: the new step's timeline is in view`, async ({
    sim,
  }) => {
    await sim.page.setViewportSize({ width: 1440, height: 900 });
    await sim.open({ scenario, step: from });
    const go = sim.page.getByRole('button', { name: button });
    // Scrolled down as a reader who has read the whole step is (the report: 470-540 px). The
    // click is dispatched where the page stands: a short step's button may sit above that.
    await sim.page.evaluate(() => window.scrollTo(0, 500));
    expect(await sim.page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await go.dispatchEvent('click');
    const to = button.startsWith('Next') ? from + 1 : from - 1;
    await expect(sim.page.locator('.step-count')).toHaveText(new RegExp(`Step ${to} of`));
    await sim.waitForIdle();
    const title = await sim.page.locator('[data-step-title]').boundingBox();
    const top = await sim.page.locator('.timeline svg').first().boundingBox();
    expect(title!.y, 'the step title is in view').toBeGreaterThanOrEqual(0);
    expect(top!.y, "the timeline's top is in view").toBeGreaterThanOrEqual(0);
    expect(top!.y, "the timeline's top is in view").toBeLessThan(900);
    expect(sim.consoleErrors).toEqual([]);
  });
}
