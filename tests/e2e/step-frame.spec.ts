// Every guided step frames its subject: at 1440×900 and 1024×768, without scrolling, every mark
// and interval the step points at (`[data-subject]`) lies inside the window, together with the
// narration, and the CPUs the step names have their own expanded lanes. The steps come from the
// scenario files, so a new step is checked the moment it is written.
import AxeBuilder from '@axe-core/playwright';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Simulator } from '../../sim-wasm/pkg/tlbscope_sim.js';
import type { Step } from '../../web/src/sim/scenario';
import { runScenario } from '../../web/src/sim/run';
import { formatNs } from '../../web/src/viz/scales';
import { initSimulatorForNode } from '../../web/src/sim/testing';
import { expect, test } from './fixtures';

initSimulatorForNode();
const dir = resolve('content/scenarios');
const guided = readdirSync(dir)
  .filter((f) => f.endsWith('.toml'))
  .map((f) => {
    const sim = new Simulator(readFileSync(resolve(dir, f), 'utf8'), [], 1);
    const info = { id: f.replace(/\.toml$/, ''), steps: JSON.parse(sim.stepsJson()) as Step[] };
    sim.free();
    return info;
  })
  .filter((s) => s.steps.length > 0);

interface Box {
  what: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

for (const [width, height] of [
  [1440, 900],
  [1024, 768],
]) {
  for (const scenario of guided) {
    test(`${scenario.id} at ${width}×${height}: every step's subject is on screen`, async ({
      sim,
    }) => {
      test.setTimeout(20_000 + scenario.steps.length * 10_000);
      await sim.page.setViewportSize({ width, height });
      for (const [i, step] of scenario.steps.entries()) {
        const where = `${scenario.id} step ${i + 1} at ${width}×${height}`;
        await sim.open({ scenario: scenario.id, step: i + 1 });
        await expect(sim.page.locator('[data-step-title]')).toHaveText(step.title);
        const timeline = sim.page.locator('.timeline').first();
        const subject = timeline.locator('[data-subject]');
        if (step.highlight.length) await expect(subject.first()).toBeAttached();
        for (const cpu of step.cpus) {
          await expect(
            timeline.locator(`g.lane[data-cpu="${cpu}"]`),
            `${where}: CPU ${cpu} has its own lane`,
          ).toHaveCount(1);
        }
        const seen = await sim.page.evaluate(() => {
          const box = (what: string, el: Element) => {
            const r = el.getBoundingClientRect();
            return { what, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
          };
          // A comparison highlights the step's kinds on B too: both sides are the subject.
          const timelines = [...document.querySelectorAll('.timeline')].slice(0, 2);
          return {
            scrollY: window.scrollY,
            view: [window.innerWidth, window.innerHeight],
            marks: timelines.flatMap((tl, side) =>
              [...tl.querySelectorAll('[data-subject]')].map((el) =>
                box(
                  `${side ? 'B ' : ''}${el.getAttribute('data-subject')} ${el.getAttribute('data-row') ?? el.getAttribute('data-kind') ?? ''}`,
                  el,
                ),
              ),
            ),
            title: box('step title', document.querySelector('[data-step-title]') as Element),
          };
        });
        expect(seen.scrollY, `${where}: opened without scrolling`).toBe(0);
        const [vw, vh] = seen.view;
        const outside = (b: Box) => b.left < 0 || b.top < 0 || b.right > vw || b.bottom > vh;
        expect(outside(seen.title), `${where}: the step's title is on screen`).toBe(false);
        const off = seen.marks.filter(outside);
        expect(
          off.map((b) => `${b.what} at ${[b.left, b.top, b.right, b.bottom].map(Math.round)}`),
          `${where}: subject marks outside the ${vw}×${vh} window`,
        ).toEqual([]);
        // Big enough to see: no highlighted mark is smaller than a few pixels either way.
        const tiny = seen.marks.filter((b) => b.right - b.left < 8 || b.bottom - b.top < 8);
        expect(
          tiny.map((b) => b.what),
          `${where}: subject marks too small to see`,
        ).toEqual([]);
      }
      expect(sim.consoleErrors).toEqual([]);
    });
  }
}

test('the flush-info story draws the wait its third step is about, labelled with its length', async ({
  sim,
}) => {
  const text = readFileSync(resolve(dir, 'x86-flush-info-story.toml'), 'utf8');
  const { summary } = runScenario(text);
  const wakeup = (summary.wakeup_latency_ns as { max: number }).max;
  await sim.open({ scenario: 'x86-flush-info-story', step: 3 });
  const bracket = sim.page.locator('.timeline g.lens[data-lens="wakeup_latency"]');
  await expect(bracket).toHaveCount(1);
  await expect(bracket).toHaveAttribute('data-cpu', '0');
  await expect(bracket).toHaveAttribute('data-subject', 'interval');
  await expect(bracket.locator('text')).toHaveText(`wakeup latency ${formatNs(wakeup)}`);
  await expect(sim.page.locator('.timeline g.lens[data-lens="irqs_off_delay"]')).toHaveAttribute(
    'data-cpu',
    '2',
  );
  // The words point at the drawing, not at the summary.
  await expect(sim.page.locator('.narration')).toContainText('The brackets under the lanes');
  await expect(sim.page.locator('.narration')).not.toContainText('in the summary');
  // The lens is a switch: off, the brackets go; the explorer starts with it off.
  await sim.page.getByLabel('Latency lens').uncheck();
  await expect(sim.page.locator('.timeline g.lens')).toHaveCount(0);
  await sim.open({ scenario: 'x86-flush-info-story' });
  await expect(sim.page.getByLabel('Latency lens')).not.toBeChecked();
  await expect(sim.page.locator('.timeline g.lens')).toHaveCount(0);
  await sim.page.getByLabel('Latency lens').check();
  await expect(
    sim.page.locator('.timeline g.lens[data-lens="nonpreempt_wait"]').first(),
  ).toBeVisible();
  expect(sim.consoleErrors).toEqual([]);
});

test('a comparison step highlights its kinds on both sides, and B keeps its lanes in view without the tlb_gen charts', async ({
  sim,
}) => {
  await sim.page.setViewportSize({ width: 1024, height: 768 });
  await sim.open({ scenario: 'x86-flush-info-story', step: 5 });
  const [a, b] = [sim.page.locator('.timeline').nth(0), sim.page.locator('.timeline').nth(1)];
  await expect(b.locator('[data-subject]').first()).toBeAttached();
  // The same kinds are the subject on both sides (here PreemptOff, TaskWoken, FlushTlbFunc).
  const kinds = async (tl: typeof a) =>
    new Set(
      await tl
        .locator('[data-subject][data-kind]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))),
    );
  const [ka, kb] = [await kinds(a), await kinds(b)];
  expect(kb.size).toBeGreaterThan(0);
  expect([...kb].filter((k) => !ka.has(k))).toEqual([]);
  // The charts are off in a comparison step, so B's lanes are on screen; the switch brings
  // them back, and they push B down.
  const charts = sim.page.getByLabel('tlb_gen charts');
  await expect(charts).not.toBeChecked();
  await expect(a.locator('.gen-title')).toHaveCount(0);
  const bTop = (await b.boundingBox())!.y;
  expect(bTop).toBeLessThan(768);
  await charts.check();
  await expect(a.locator('.gen-title').first()).toBeAttached();
  await expect.poll(async () => (await b.boundingBox())!.y).toBeGreaterThan(bTop + 50);
  expect(sim.consoleErrors).toEqual([]);
});

test('a framed step (folded CPUs, lens brackets, a choice) has no serious accessibility violations', async ({
  sim,
}) => {
  for (const [scenario, step] of [
    ['x86-r8-plus-one-rule', 4],
    ['x86-flush-info-story', 3],
  ] as const) {
    await sim.open({ scenario, step });
    await expect(sim.page.locator('.timeline g.fold-toggle').first()).toBeAttached();
    const results = await new AxeBuilder({ page: sim.page }).analyze();
    const serious = results.violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${scenario} step ${step}`,
    ).toEqual([]);
  }
});
