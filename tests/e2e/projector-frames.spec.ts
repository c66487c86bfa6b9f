// The diagram on a slide and on a projector: an embed at 480×270 keeps every text at 10 CSS px
// or more (it shows less instead), an embed at 1920×1080 fills the frame's height, and talk
// mode keeps the whole diagram on screen and, on a large screen, fills its height. Each case
// attaches its screenshot to the report.
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';

/** The smallest visible text on screen in CSS px: computed size × the scale it is drawn at. */
function smallestText(page: Page): Promise<{ px: number; text: string }> {
  return page.evaluate(() => {
    let px = Infinity;
    let text = '';
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent?.trim()) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.top >= innerHeight) continue;
      if (r.right <= 0 || r.left >= innerWidth) continue;
      // An SVG's scale: its box on screen over its own width; HTML: the fitted box's scale.
      const svg = el.closest('svg');
      const fit = el.closest<HTMLElement>('.fit-content');
      const k =
        svg && svg.width.baseVal.value > 0
          ? svg.getBoundingClientRect().width / svg.width.baseVal.value
          : fit
            ? Number(fit.dataset.scale)
            : 1;
      const size = parseFloat(getComputedStyle(el).fontSize) * k;
      if (size < px) [px, text] = [size, n.textContent.trim().slice(0, 40)];
    }
    return { px, text };
  });
}

/** A screenshot in the test's output folder (test-results/), attached to its report. */
async function shoot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await info.attach(name, { path, contentType: 'image/png' });
}

/** A dense step (four CPUs, the tlb_gen chart, many legend entries) and a sparse one. */
const STEPS = {
  dense: 'scenario=x86-munmap-shootdown&step=3',
  sparse: 'scenario=arm64-percpu-cpu-id&step=1',
};

for (const theme of ['light', 'dark'] as const) {
  for (const [what, query] of Object.entries(STEPS)) {
    test(`a ${what} step embedded at 480×270, ${theme}: no text under 10 px`, async ({
      sim,
    }, info) => {
      const { page } = sim;
      await page.setViewportSize({ width: 480, height: 270 });
      await page.goto(`./?${query}&embed=1&theme=${theme}`);
      await sim.waitForIdle();
      await expect(page.locator('.timeline g.lane').first()).toBeVisible();
      // Settled: the embed squeezes one level per frame until the diagram fits.
      await expect.poll(() => page.locator('.fit-content').getAttribute('data-scale')).toBeTruthy();
      await page.waitForTimeout(300);
      const small = await smallestText(page);
      expect(small.px, `“${small.text}”`).toBeGreaterThanOrEqual(9.95);
      // Still a diagram: at least one CPU lane with its marks, inside the frame.
      const lane = await page.locator('.timeline g.lane').first().boundingBox();
      expect((lane?.y ?? Infinity) + (lane?.height ?? 0)).toBeLessThanOrEqual(270);
      await shoot(page, info, `embed-480x270-${what}-${theme}`);
      expect(sim.consoleErrors).toEqual([]);
    });

    test(`a ${what} step embedded at 1920×1080, ${theme}: the diagram fills the height`, async ({
      sim,
    }, info) => {
      const { page } = sim;
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.goto(`./?${query}&embed=1&theme=${theme}`);
      await sim.waitForIdle();
      await expect(page.locator('.timeline g.lane').first()).toBeVisible();
      // The drawing itself (legend and timeline), not the box it sits in: at least 85 % of the
      // height and inside the frame, once the stretch has settled (it may overshoot a frame).
      await expect
        .poll(
          async () => {
            const box = await page.locator('.fit-content').boundingBox();
            const h = box?.height ?? 0;
            return h / 1080 >= 0.85 && (box?.y ?? 0) + h <= 1080
              ? 'fills'
              : `${h} px from ${box?.y}`;
          },
          { timeout: 15_000 },
        )
        .toBe('fills');
      expect((await smallestText(page)).px).toBeGreaterThanOrEqual(16);
      await shoot(page, info, `embed-1920x1080-${what}-${theme}`);
      expect(sim.consoleErrors).toEqual([]);
    });
  }

  for (const [w, h] of [
    [1024, 768],
    [1920, 1080],
  ] as const) {
    for (const [what, query] of Object.entries(STEPS)) {
      test(`talk mode at ${w}×${h}, a ${what} step, ${theme}: the whole diagram on screen, filling it`, async ({
        sim,
      }, info) => {
        const { page } = sim;
        await page.setViewportSize({ width: w, height: h });
        await page.goto(`./?${query}&talk=1&theme=${theme}`);
        await sim.waitForIdle();
        await expect(page.locator('.timeline g.lane').first()).toBeVisible();
        // Settled: the fit moves the zoom and the lanes' height over a few frames, then says so.
        await expect(page.locator('.figure')).toHaveAttribute('data-talk-fit', 'settled', {
          timeout: 10_000,
        });
        const last = await page.evaluate(() => {
          const tls = [...document.querySelectorAll('.timeline')];
          return Math.round(tls[tls.length - 1].getBoundingClientRect().bottom);
        });
        // The last CPU lane and everything under it (the tlb_gen chart) are on screen...
        const lanes = page.locator('.timeline g.lane');
        const lane = await lanes.last().boundingBox();
        expect((lane?.y ?? Infinity) + (lane?.height ?? 0)).toBeLessThanOrEqual(h);
        expect(last).toBeLessThanOrEqual(h);
        // ...and on a large screen the diagram reaches down to its lower part, not half of it.
        if (w >= 1600) expect(last).toBeGreaterThan(0.8 * h);
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
        // Every legend swatch stands out from the page (an uncoloured kind was black on black).
        const unseen = await page.evaluate(() => {
          const bg = getComputedStyle(document.querySelector('.app')!).backgroundColor;
          return [...document.querySelectorAll('.legend li')]
            .filter((li) => {
              const mark = li.querySelector('rect.span');
              return mark && getComputedStyle(mark).fill === bg;
            })
            .map((li) => li.textContent);
        });
        expect(unseen).toEqual([]);
        await shoot(page, info, `talk-${w}x${h}-${what}-${theme}`);
        expect(sim.consoleErrors).toEqual([]);
      });
    }
  }
}
