// No text is cut or spills out of its box: every element of the narration fits its own width
// (a Message-ID or a long identifier wraps), and the header is one row at 1440 px.
import { Simulator } from '../../sim-wasm/pkg/tlbscope_sim.js';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { expect, test } from './fixtures';

initSimulatorForNode();
// The story whose steps quote Message-IDs (steps 6 and 7), walked step by step.
const STORY = 'arm64-skip-broadcast-story';
function stepCount(id: string): number {
  const sim = new Simulator(readScenario(id), [], 1);
  const n = (JSON.parse(sim.stepsJson()) as unknown[]).length;
  sim.free();
  return n;
}

for (const width of [1440, 1024, 390]) {
  test(`at ${width} px no element of ${STORY}'s narration is wider than its box`, async ({
    sim,
  }) => {
    test.setTimeout(90_000);
    await sim.page.setViewportSize({ width, height: 900 });
    const steps = stepCount(STORY);
    expect(steps).toBeGreaterThanOrEqual(7);
    for (let step = 1; step <= steps; step++) {
      await sim.open({ scenario: STORY, step });
      // Open the question's answer too: it is narration once revealed.
      for (const d of await sim.page.locator('.narration details').all())
        await d.evaluate((el) => el.setAttribute('open', ''));
      const over = await sim.page
        .locator('.narration, .narration *')
        .evaluateAll((els) =>
          els
            .filter((el) => el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
            .map(
              (el) =>
                `${el.tagName.toLowerCase()}.${el.className}: ${el.scrollWidth} > ${el.clientWidth} "${(el.textContent ?? '').slice(0, 60)}"`,
            ),
        );
      expect(over, `step ${step} at ${width} px`).toEqual([]);
    }
    expect(sim.consoleErrors).toEqual([]);
  });
}

test('the header is one row at 1440 px in every view', async ({ sim }) => {
  await sim.page.setViewportSize({ width: 1440, height: 900 });
  const pages = [
    './',
    './?scenario=x86-munmap-shootdown',
    `./?scenario=${STORY}&step=6`,
    './?scenario=x86-munmap-shootdown&compare=1',
    './?view=data',
  ];
  for (const url of pages) {
    await sim.page.goto(url);
    const header = sim.page.locator('.app > header');
    await expect(header).toBeVisible();
    // One row: every child's top is the same as the first's (within a few px of centring).
    const tops = await header.evaluate((h) =>
      [...h.children]
        .filter((c) => (c as HTMLElement).offsetParent !== null)
        .map((c) => {
          const r = c.getBoundingClientRect();
          return Math.round(r.top + r.height / 2);
        }),
    );
    expect(Math.max(...tops) - Math.min(...tops), `${url}: ${tops.join(', ')}`).toBeLessThan(8);
  }
});
