// Every step of every guided story, at a desktop, a laptop and a phone size (and in talk mode
// and a few embeds): no two words drawn on the timeline print over each other (lens labels,
// counterexample numbers, row labels, the cursor's time and the axis), none is cut by its
// drawing's edge, no legend line spills out of its box, and the legend names every kind of
// mark the figure draws. One page per size, walked with the → key.
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { Simulator } from '../../sim-wasm/pkg/tlbscope_sim.js';
import type { Step } from '../../web/src/sim/scenario';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { expect, test } from './fixtures';

initSimulatorForNode();

/** The stories: every scenario with guided steps, and each step's title and whether it checks. */
const STORIES = readdirSync('content/scenarios')
  .filter((f) => f.endsWith('.toml'))
  .map((f) => f.replace(/\.toml$/, ''))
  .filter((id) => readFileSync(`content/scenarios/${id}.toml`, 'utf8').includes('[[steps]]'))
  .map((id) => {
    const sim = new Simulator(readScenario(id), [], 1);
    const steps = (JSON.parse(sim.stepsJson()) as Step[]).map((s) => ({
      title: s.title,
      check: Boolean(s.check),
    }));
    sim.free();
    return { id, steps };
  });

/** What is wrong with the words on screen, one line each (empty: nothing). */
function problems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bad: string[] = [];
    const name = (el: Element) => {
      const what = el.closest('[class]')?.getAttribute('class')?.split(' ')[0] ?? '';
      return `${what} “${(el.textContent ?? '').slice(0, 30)}”`;
    };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return (el.textContent ?? '').trim() !== '' && r.width > 0 && s.visibility !== 'hidden';
    };
    // Words drawn on the timelines (its own number inside a badge is the badge's, not a clash).
    const texts = [...document.querySelectorAll('.timeline svg text')].filter(visible);
    const boxes = texts.map((t) => t.getBoundingClientRect());
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        const ox = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (ox > 2 && oy > 2)
          bad.push(`${name(texts[i])} overlaps ${name(texts[j])} by ${ox.toFixed(1)} px`);
      }
      const svg = (texts[i] as SVGTextElement).ownerSVGElement?.getBoundingClientRect();
      const a = boxes[i];
      if (
        svg &&
        (a.left < svg.left - 0.5 ||
          a.right > svg.right + 0.5 ||
          a.top < svg.top - 0.5 ||
          a.bottom > svg.bottom + 0.5)
      )
        bad.push(`${name(texts[i])} is cut by the drawing's edge`);
    }
    // Lines of HTML text around the diagram that would be cut or spill out of their box.
    for (const el of document.querySelectorAll<HTMLElement>(
      '.legend li, .timeline-bar > span, [data-step-title], [data-verdict]',
    )) {
      if (visible(el) && el.scrollWidth > el.clientWidth + 1)
        bad.push(`${name(el)} is wider than its box (${el.scrollWidth} > ${el.clientWidth})`);
    }
    // Every kind of mark drawn has a line in the legend.
    const legend = new Set(
      [...document.querySelectorAll('.legend [data-legend-kind]')].map((l) =>
        l.getAttribute('data-legend-kind'),
      ),
    );
    const drawn = new Set<string>();
    for (const m of document.querySelectorAll('.timeline svg .mark[data-kind]'))
      drawn.add(m.getAttribute('data-kind') ?? '');
    for (const s of document.querySelectorAll('.timeline svg g.cx-step'))
      drawn.add(
        s.classList.contains('violation')
          ? 'cx-step-violation'
          : s.classList.contains('racing')
            ? 'cx-step-racing'
            : 'cx-step-plain',
      );
    if (document.querySelector('.legend'))
      for (const k of drawn) if (!legend.has(k)) bad.push(`the legend has no ${k}`);
    return bad;
  });
}

/** Waits until the step shown is `title` and its run (and check) is drawn. */
async function stepShown(page: Page, title: string, check: boolean): Promise<void> {
  await expect(page.locator('[data-step-title]')).toHaveText(title, { timeout: 20_000 });
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  if (check)
    await expect(page.locator('.timeline g.cx-step').first()).toBeVisible({ timeout: 30_000 });
  // The frame after the run: the timeline draws on the next animation frame.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
}

async function walk(page: Page, extra: string): Promise<string[]> {
  const found: string[] = [];
  for (const { id, steps } of STORIES) {
    await page.goto(`./?scenario=${id}&step=1${extra}`);
    for (let i = 0; i < steps.length; i++) {
      if (i > 0) await page.keyboard.press('ArrowRight');
      await stepShown(page, steps[i].title, steps[i].check);
      for (const p of await problems(page)) found.push(`${id} step ${i + 1}: ${p}`);
    }
  }
  return found;
}

test('the stories cover the steps the reports were about', () => {
  const ids = STORIES.map((s) => s.id);
  expect(ids).toContain('x86-flush-info-story');
  expect(ids).toContain('x86-percpu-pinned-story');
  expect(STORIES.reduce((n, s) => n + s.steps.length, 0)).toBeGreaterThan(40);
});

for (const [width, height] of [
  [1440, 900],
  [1024, 768],
  [390, 844],
]) {
  test(`at ${width}×${height} no step of any story has words over words or cut`, async ({
    sim,
  }) => {
    test.setTimeout(300_000);
    await sim.page.setViewportSize({ width, height });
    expect(await walk(sim.page, '')).toEqual([]);
    expect(sim.consoleErrors).toEqual([]);
  });
}

test('in talk mode at 1024×768 no step has words over words or cut', async ({ sim }) => {
  test.setTimeout(300_000);
  await sim.page.setViewportSize({ width: 1024, height: 768 });
  expect(await walk(sim.page, '&talk=1')).toEqual([]);
  expect(sim.consoleErrors).toEqual([]);
});

test('embeds of the densest steps have no words over words or cut', async ({ sim }) => {
  test.setTimeout(120_000);
  await sim.page.setViewportSize({ width: 640, height: 400 });
  const found: string[] = [];
  for (const [id, step] of [
    ['x86-percpu-pinned-story', 3],
    ['x86-percpu-pinned-story', 4],
    ['x86-flush-info-story', 3],
    ['x86-pcid-pingpong', 3],
    ['x86-r8-plus-one-rule', 6],
  ] as const) {
    await sim.page.goto(`./?scenario=${id}&step=${step}&embed=1`);
    await sim.waitForIdle();
    await expect(sim.page.locator('.timeline svg g.lane').first()).toBeAttached();
    if (id === 'x86-percpu-pinned-story')
      await expect(sim.page.locator('.timeline g.cx-step').first()).toBeVisible({
        timeout: 30_000,
      });
    await sim.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    for (const p of await problems(sim.page)) found.push(`${id} step ${step}: ${p}`);
  }
  expect(found).toEqual([]);
  expect(sim.consoleErrors).toEqual([]);
});
