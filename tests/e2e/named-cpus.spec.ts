// A step that tells the reader to look at a CPU draws that CPU's lane: its words are checked
// against the timeline (in A and B of a comparison step), with the other CPUs still folded.
import { expect, test } from './fixtures';

const cases = [
  // "each goes to CPU 2, none to CPU 1": the step's subject is CPU 0 alone.
  { scenario: 'x86-lazy-tlb', step: 2, lanes: [0, 1, 2], folded: [], timelines: 1 },
  // "Compare the lane of CPU 1", in A and in B.
  { scenario: 'x86-lazy-tlb', step: 6, lanes: [0, 1], folded: ['2-2'], timelines: 2 },
  // "none goes to CPU 7": CPUs 1-6 stay folded into one strip.
  { scenario: 'x86-r8-plus-one-rule', step: 2, lanes: [0, 7], folded: ['1-6'], timelines: 1 },
];

for (const c of cases) {
  test(`${c.scenario} step ${c.step} draws the lanes of CPUs ${c.lanes.join(', ')} it names`, async ({
    sim,
  }) => {
    await sim.page.setViewportSize({ width: 1440, height: 900 });
    await sim.open({ scenario: c.scenario, step: c.step });
    const timelines = sim.page.locator('.timeline');
    await expect(timelines).toHaveCount(c.timelines);
    for (let t = 0; t < c.timelines; t++) {
      const tl = timelines.nth(t);
      await expect(tl.locator('g.lane')).toHaveCount(c.lanes.length);
      for (const cpu of c.lanes)
        await expect(tl.locator(`g.lane[data-cpu="${cpu}"]`), `CPU ${cpu}`).toHaveCount(1);
      const folds = await tl
        .locator('g.fold-toggle')
        .evaluateAll((els) =>
          els.map((e) => `${e.getAttribute('data-first')}-${e.getAttribute('data-last')}`),
        );
      expect(folds).toEqual(c.folded);
    }
    expect(sim.consoleErrors).toEqual([]);
  });
}
