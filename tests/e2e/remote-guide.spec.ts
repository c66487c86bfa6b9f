// Guided steps on runs kept in their worker (`remote=10` keeps every run there) against the
// same steps held on the page: the frame a step opens on (widened so the waits its lens points
// at are whole), B's highlighted rows in a comparison step, and the SVG / PNG export (the
// step's outlines and veils, the tlb_gen charts). Expected values come from the same WASM
// build and the page's own functions run in Node.
import { readFileSync } from 'node:fs';
import type { Download, Locator, Page } from '@playwright/test';
import { Simulator } from '../../sim-wasm/pkg/tlbscope_sim.js';
import { extentOf } from '../../web/src/model/events';
import { toGenerations } from '../../web/src/model/generations';
import { highlightRows, stepFrame } from '../../web/src/model/guide';
import { lensIntervals } from '../../web/src/model/lens';
import { runScenario } from '../../web/src/sim/run';
import type { Step } from '../../web/src/sim/scenario';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { formatNs } from '../../web/src/viz/scales';
import { expect, test } from './fixtures';

const STORY = 'x86-flush-info-story';

function stepsOf(text: string): Step[] {
  const sim = new Simulator(text, [], 1);
  const steps = JSON.parse(sim.stepsJson()) as Step[];
  sim.free();
  return steps;
}

/** A step's runs in Node (A, and B for a comparison) and the frame the page-held step opens on. */
function stepInNode(text: string, step: Step) {
  const a = runScenario(text, { overrides: step.set });
  const b = step.compare ? runScenario(text, { overrides: step.compare }) : null;
  const extent = extentOf(a.trace, ...(b ? [b.trace] : []));
  const rows = highlightRows(a.trace, step, step.window ?? extent);
  const cs = a.info.costs.context_switch_ns ?? 0;
  const lens = step.lens.length ? lensIntervals(a.trace, step.lens, cs) : [];
  return {
    a,
    b,
    extent,
    rows,
    frame: stepFrame(a.trace, step, rows, extent, lens),
    unwidened: stepFrame(a.trace, step, rows, extent, []),
  };
}

const caption = ([w0, w1]: [number, number]) => `window ${formatNs(w0)} to ${formatNs(w1)}.`;

async function open(page: Page, step: number, remote: boolean) {
  await page.goto(`./?scenario=${STORY}&step=${step}${remote ? '&remote=10' : ''}`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 60_000 });
  await expect(
    page.locator(remote ? '.timeline.remote' : '.timeline:not(.remote)').first(),
  ).toBeVisible();
}

/** Exports the timeline `box` as `format`; the file's text (SVG) or bytes (PNG). */
async function exported(page: Page, box: Locator, format: 'SVG' | 'PNG') {
  const [file]: [Download, void] = await Promise.all([
    page.waitForEvent('download'),
    box
      .getByRole('button', { name: new RegExp(`^Export Per-CPU timeline.* as ${format}$`) })
      .click(),
  ]);
  return readFileSync(await file.path());
}

/** The window an exported timeline's caption names ("window … to …."; its lines rejoined). */
const windowOf = (svg: string) =>
  /window \S+ \S+ to \S+ \S+\./.exec(
    svg
      .replace(/<image[^>]*>/g, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' '),
  )?.[0] ?? '';

test.beforeAll(() => initSimulatorForNode());

test("a guided step kept in its worker opens on the page-held step's frame, its waits whole", async ({
  sim,
}) => {
  test.setTimeout(120_000);
  const text = readScenario(STORY);
  const steps = stepsOf(text);
  let widened = 0;
  for (const [i, step] of steps.entries()) {
    const { frame, unwidened } = stepInNode(text, step);
    if (caption(frame.window) !== caption(unwidened.window)) widened++;
    const { page } = sim;
    // The page-held step: its export's caption names the window on screen.
    await open(page, i + 1, false);
    const held = page.locator('.timeline').first();
    expect(windowOf((await exported(page, held, 'SVG')).toString())).toBe(caption(frame.window));
    // Kept in the worker: the same window once the worker has said how far the waits reach.
    await open(page, i + 1, true);
    const kept = page.locator('.timeline.remote').first();
    await expect
      .poll(async () => windowOf((await exported(page, kept, 'SVG')).toString()), {
        message: `${STORY} step ${i + 1}`,
        timeout: 20_000,
      })
      .toBe(caption(frame.window));
    // And the same CPUs: those outside the frame's are veiled.
    const veiled = await kept
      .locator('rect.remote-unfocused')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-cpus')));
    const cpus = frame.cpus;
    const all = stepInNode(text, step).a.trace.cpus;
    const want: string[] = [];
    for (let c = 0; cpus.length && c < all; c++) {
      if (cpus.includes(c)) continue;
      const last = want.at(-1)?.split('-').map(Number);
      if (last && last[1] === c - 1) want[want.length - 1] = `${last[0]}-${c}`;
      else want.push(`${c}-${c}`);
    }
    expect(veiled, `${STORY} step ${i + 1}`).toEqual(want);
  }
  // Two of the story's steps point at waits that reach past their windows.
  expect(widened).toBeGreaterThanOrEqual(2);
  expect(sim.consoleErrors).toEqual([]);
});

test("a link's window and selection on a kept step hold when the worker's answers reframe the step", async ({
  sim,
}) => {
  const text = readScenario(STORY);
  const step = stepsOf(text)[1];
  const { a, frame, unwidened, rows } = stepInNode(text, step);
  // The step's frame moves once the worker says how far its waits reach: a link's own window
  // must not move with it.
  expect(caption(frame.window)).not.toBe(caption(unwidened.window));
  const row = rows[0];
  const { page } = sim;
  await page.goto(`./?scenario=${STORY}&step=2&remote=10&win=5000,20000&ev=${row}`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 60_000 });
  const kept = page.locator('.timeline.remote').first();
  await expect(kept.locator('.timeline-status')).toContainText(
    `of the step's ${rows.length} rows outlined`,
  );
  await expect(page.locator('[data-inspector="kind"]')).toHaveText(/./);
  // The worker's answers (the step's rows, how far its waits reach) have come: give the page
  // the time to act on them, then the link's view is still there.
  await page.waitForTimeout(1500);
  expect(windowOf((await exported(page, kept, 'SVG')).toString())).toBe(caption([5000, 20000]));
  await expect(page.locator('.inspector dd').nth(2)).toContainText(formatNs(a.trace.time[row]));
  expect(sim.consoleErrors).toEqual([]);
});

test("a comparison step outlines B's rows of the step's kinds when B is kept, as for B on the page", async ({
  sim,
}) => {
  test.setTimeout(90_000);
  const text = readScenario(STORY);
  const steps = stepsOf(text);
  let checked = 0;
  for (const [i, step] of steps.entries()) {
    if (!step.compare || !step.highlight.length) continue;
    const { b, extent } = stepInNode(text, step);
    const want = highlightRows(b!.trace, step, step.window ?? extent);
    expect(want.length).toBeGreaterThan(0);
    const { page } = sim;
    await open(page, i + 1, true);
    const boxes = page.locator('.timeline.remote');
    await expect(boxes).toHaveCount(2);
    const kb = boxes.nth(1);
    await expect(kb.locator('.timeline-status')).toContainText(
      `${want.length} of the step's ${want.length} rows outlined`,
    );
    const drawn = await kb
      .locator('rect.highlight-outline')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-row'))));
    expect(drawn.sort((x, y) => x - y)).toEqual([...want].sort((x, y) => x - y));
    // The page-held B outlines the same rows.
    await open(page, i + 1, false);
    const hb = page.locator('.timeline').nth(1);
    await expect(hb.locator('[data-subject="mark"]').first()).toBeAttached();
    const held = await hb
      .locator('[data-subject="mark"][data-row]')
      .evaluateAll((els) => [...new Set(els.map((e) => Number(e.getAttribute('data-row'))))]);
    expect(held.filter((r) => !want.includes(r))).toEqual([]);
    checked++;
  }
  expect(checked).toBe(2);
  expect(sim.consoleErrors).toEqual([]);
});

test('the SVG and PNG export of a guided step kept in its worker draws its outlines, veils and tlb_gen charts', async ({
  sim,
}) => {
  test.setTimeout(90_000);
  const text = readScenario(STORY);
  const steps = stepsOf(text);
  const i = 1; // step 2: CPUs 0 and 2, the lens widening its window, one mm's tlb_gen
  const { a, frame, rows } = stepInNode(text, steps[i]);
  expect(frame.cpus).toEqual([0, 2]);
  const mms = toGenerations(a.trace).mms.map((m) => m.mm);
  expect(mms.length).toBeGreaterThan(0);
  const { page } = sim;
  await open(page, i + 1, true);
  const kept = page.locator('.timeline.remote').first();
  await expect(kept.locator('.timeline-status')).toContainText(
    `${rows.length} of the step's ${rows.length} rows outlined`,
  );
  await page.getByRole('checkbox', { name: 'tlb_gen charts' }).check();
  await expect(kept.locator('.remote-gens g.gen-track')).toHaveCount(mms.length);
  await expect
    .poll(async () => windowOf((await exported(page, kept, 'SVG')).toString()))
    .toBe(caption(frame.window));
  const svg = (await exported(page, kept, 'SVG')).toString();
  // The step's outlines (every highlighted row lies in the frame) and the veils of CPUs 1, 3.
  const outlined = [...svg.matchAll(/<rect[^>]*data-row="(\d+)"[^>]*data-subject="mark"/g)].map(
    (m) => Number(m[1]),
  );
  expect(outlined.sort((x, y) => x - y)).toEqual([...rows].sort((x, y) => x - y));
  expect([...svg.matchAll(/<rect[^>]*data-cpus="([\d-]+)"/g)].map((m) => m[1])).toEqual([
    '1-1',
    '3-3',
  ]);
  // The charts under the strips: each mm's title, its tlb_gen line and its bands' image.
  const charts = svg.slice(svg.indexOf('data-part="tlb_gen charts"'));
  expect(charts.length).toBeGreaterThan(100);
  for (const mm of mms) expect(charts).toContain(`mm ${mm}: tlb_gen and each CPU`);
  expect(charts).toMatch(/<image[^>]*href="data:image\/png/);
  // The page-held step's export draws the same charts' titles.
  // The PNG is the SVG drawn at twice its size: as tall as the strips and the charts.
  const png = await exported(page, kept, 'PNG');
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  const height = Number(/<svg[^>]*height="([\d.]+)"/.exec(svg)?.[1]);
  expect(png.readUInt32BE(20)).toBe(Math.round(height * 2));
  // Without the charts the picture is shorter by their height.
  await page.getByRole('checkbox', { name: 'tlb_gen charts' }).uncheck();
  const bare = (await exported(page, kept, 'SVG')).toString();
  expect(bare).not.toContain('data-part="tlb_gen charts"');
  expect(Number(/<svg[^>]*height="([\d.]+)"/.exec(bare)?.[1])).toBeLessThan(height - 20);
  // The page-held step's export draws the same mms' charts.
  await open(page, i + 1, false);
  const held = (await exported(page, page.locator('.timeline').first(), 'SVG')).toString();
  for (const mm of mms) expect(held).toContain(`mm ${mm}: tlb_gen`);
  expect(sim.consoleErrors).toEqual([]);
});
