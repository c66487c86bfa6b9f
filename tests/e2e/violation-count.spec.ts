// R8's "39 stale translations" happen at one instant: 78 ✕ (an I3 and an I1 per page) on one
// spot of CPU 7's lane. A badge says how many the stack holds, by invariant.
import { expect, test } from './fixtures';

test('a stack of violations at one instant carries its count', async ({ sim }, info) => {
  await sim.page.setViewportSize({ width: 1440, height: 900 });
  await sim.open({ scenario: 'x86-r8-plus-one-rule', step: 6 });
  const timeline = sim.page.locator('.timeline').first();
  await expect(timeline.locator('g.violation')).toHaveCount(78);
  const badge = timeline.locator('g.violation-count');
  await expect(badge).toHaveCount(1);
  await expect(badge).toHaveAttribute('data-count', '78');
  await expect(badge.locator('text')).toHaveText('39×I1 39×I3');
  await expect(badge.locator('title')).toHaveText('78 violations at this spot: 39 × I1, 39 × I3');
  // The badge is on the plot, beside its stack, and does not take the stack's clicks.
  const cross = await timeline.locator('g.violation').first().boundingBox();
  const box = await badge.boundingBox();
  expect(Math.abs(box!.x - (cross!.x + cross!.width))).toBeLessThan(12);
  await sim.page.mouse.click(cross!.x + cross!.width / 2, cross!.y + cross!.height / 2);
  await expect(sim.page.locator('[data-inspector="kind"]')).toHaveText('InvariantViolated');
  await timeline.screenshot({ path: info.outputPath('violation-count.png') });
  expect(sim.consoleErrors).toEqual([]);
});
