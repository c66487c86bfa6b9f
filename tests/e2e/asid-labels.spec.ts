// A step that asks the reader to follow ASID numbers draws them: each highlighted switch is
// labelled with its asid on its lane (the PCID story's eviction step, arm64's first ASIDs).
import { expect, test } from './fixtures';

test('the PCID step that follows asid numbers labels each SwitchMm with its slot', async ({
  sim,
}, info) => {
  await sim.page.setViewportSize({ width: 1440, height: 900 });
  await sim.open({ scenario: 'x86-pcid-pingpong', step: 4 });
  await expect(sim.page.locator('.narration')).toContainText('Follow the asid of each SwitchMm');
  const labels = sim.page.locator('.timeline text.row-label');
  await expect(labels.first()).toBeVisible();
  const texts = await labels.allTextContents();
  // "the newcomers get slots 3, 4, 5, then 0, and C5 gets slot 1"
  for (const slot of [0, 1, 3, 4, 5]) expect(texts).toContain(`asid ${slot}`);
  // Each label sits on its switch: its row is a highlighted SwitchMm.
  const row = await labels.first().getAttribute('data-row');
  await expect(
    sim.page.locator(`.timeline [data-row="${row}"][data-kind="SwitchMm"]`).first(),
  ).toBeAttached();
  await sim.page
    .locator('.timeline')
    .first()
    .screenshot({ path: info.outputPath('asid.png') });
  expect(sim.consoleErrors).toEqual([]);
});

test('a step that does not talk about ASIDs draws no labels', async ({ sim }) => {
  await sim.open({ scenario: 'x86-lazy-tlb', step: 3 });
  await expect(sim.page.locator('.timeline [data-kind="SwitchMm"]').first()).toBeAttached();
  await expect(sim.page.locator('.timeline text.row-label')).toHaveCount(0);
});
