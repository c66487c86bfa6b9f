// Stepping a run kept in its worker (`remote=10` keeps even a small run there) against the same
// run held on the page and computed in Node: ◀ prev / next ▶ and the keys visit the same rows
// in the same order, playback steps event by event and stops, the window follows the
// selection, and a link with a selected row reopens on it.
import type { Page } from '@playwright/test';
import { nextRow, prevRow } from '../../web/src/model/events';
import {
  counterpart,
  differingRows,
  inDifferingFlush,
  matchFlushes,
} from '../../web/src/model/flushMatch';
import { followWindow } from '../../web/src/model/stepping';
import { runScenario } from '../../web/src/sim/run';
import {
  AB_SCENARIO,
  AB_SET,
  AB_SET_B,
  initSimulatorForNode,
  readScenario,
  runAbPair,
} from '../../web/src/sim/testing';
import { kindName, type Trace } from '../../web/src/trace/trace';
import { formatNs } from '../../web/src/viz/scales';
import { expect, test } from './fixtures';

const ID = 'x86-munmap-shootdown';

function nodeRun(): Trace {
  initSimulatorForNode();
  return runScenario(readScenario(ID)).trace;
}

/** Opens the explorer on the scenario, its run kept in the worker or not. */
async function openRun(page: Page, kept: boolean, extra: Record<string, string> = {}) {
  const q = new URLSearchParams({ scenario: ID, ...extra });
  if (kept) q.set('remote', '10');
  await page.goto(`./?${q}`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 60_000 });
  await expect(page.locator('.timeline.remote')).toHaveCount(kept ? 1 : 0);
}

/** Opens the shared A/B pair (sim/testing.ts runAbPair), both runs kept in workers or not. */
async function openAb(page: Page, remote: boolean, extra: Record<string, string> = {}) {
  const q = new URLSearchParams({ scenario: AB_SCENARIO, compare: '1', ...extra });
  for (const s of AB_SET) q.append('set', s);
  for (const s of AB_SET_B) q.append('setB', s);
  if (remote) q.set('remote', '10');
  await page.goto(`./?${q}`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 60_000 });
  await expect(page.locator('.timeline.remote')).toHaveCount(remote ? 2 : 0);
}

const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

/** The selected row, as the link writes it, once it is no longer `was`. */
async function selectedAfter(page: Page, was: string | null): Promise<number> {
  await expect.poll(() => param(page, 'ev')).not.toBe(was);
  return Number(param(page, 'ev'));
}

/** The rows Node's stepping visits for `keys` ('.' next, ',' previous), from nothing selected. */
function expectedWalk(trace: Trace, keys: string[]): number[] {
  let sel: number | null = null;
  let t: number | null = null;
  const out: number[] = [];
  for (const k of keys) {
    const at: number = t ?? (k === '.' ? -1 : Infinity);
    const r: number = k === '.' ? nextRow(trace, sel, at) : prevRow(trace, sel, at);
    if (r < 0) continue;
    out.push(r);
    sel = r;
    t = trace.time[r];
  }
  return out;
}

test('stepping a run kept in its worker visits the rows of the run held on the page, in order', async ({
  sim,
}) => {
  test.setTimeout(120_000);
  const trace = nodeRun();
  // Forward over rows at one time (stepped by index), then back.
  const keys = [...Array(14).fill('.'), ',', ',', ',', '.'];
  const want = expectedWalk(trace, keys);
  let ties = 0;
  for (let i = 1; i <= 14; i++) if (trace.time[i] === trace.time[i - 1]) ties++;
  expect(ties).toBeGreaterThan(0);
  const { page } = sim;
  for (const kept of [false, true]) {
    await openRun(page, kept);
    await page.locator('.timeline').first().focus();
    const seen: number[] = [];
    let was: string | null = null;
    for (const [j, k] of keys.entries()) {
      // The buttons and the keys both step.
      if (j === 0) await page.getByRole('button', { name: 'Next event' }).click();
      else if (j === 15) await page.getByRole('button', { name: 'Previous event' }).click();
      else await page.keyboard.press(k);
      const row = await selectedAfter(page, was);
      seen.push(row);
      was = String(row);
    }
    expect(seen, kept ? 'kept in the worker' : 'held on the page').toEqual(want);
    const last = want[want.length - 1];
    await expect(page.locator('[data-inspector="kind"]')).toHaveText(kindName(trace.kind[last]));
    await expect(page.locator('.transport output')).toHaveText(formatNs(trace.time[last]));
  }
  expect(sim.consoleErrors).toEqual([]);
});

test('keys pressed faster than the worker answers are each a step on a kept run', async ({
  sim,
}) => {
  const trace = nodeRun();
  const want = expectedWalk(trace, Array(25).fill('.'));
  const { page } = sim;
  await openRun(page, true);
  await page.locator('.timeline.remote').focus();
  for (let k = 0; k < 25; k++) await page.keyboard.press('.');
  await expect.poll(() => param(page, 'ev')).toBe(String(want[24]));
  // And back as many.
  for (let k = 0; k < 24; k++) await page.keyboard.press(',');
  await expect.poll(() => param(page, 'ev')).toBe(String(want[0]));
  expect(sim.consoleErrors).toEqual([]);
});

test('playback with reduced motion steps a kept run event by event and stops when paused', async ({
  sim,
}) => {
  test.setTimeout(60_000);
  const trace = nodeRun();
  const want = expectedWalk(trace, Array(6).fill('.'));
  const { page } = sim;
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openRun(page, true);
  // Every row the log shows selected, in turn (the link is rewritten only once it rests).
  await page.evaluate(() => {
    const w = window as unknown as { seenRows: number[] };
    w.seenRows = [];
    new MutationObserver(() => {
      const r = document.querySelector('.event-log tr.selected')?.getAttribute('data-row');
      if (r != null && Number(r) !== w.seenRows.at(-1)) w.seenRows.push(Number(r));
    }).observe(document.body, { subtree: true, attributes: true, childList: true });
  });
  await page.getByRole('button', { name: /play/ }).click();
  // Each tick (500 ms, as for a run on the page) selects the next row.
  const seen = () =>
    page.evaluate(() => (window as unknown as { seenRows: number[] }).seenRows.slice(0, 6));
  await expect.poll(seen, { timeout: 20_000 }).toEqual(want);
  await page.getByRole('button', { name: /pause/ }).click();
  // The link is written once the selection rests; after that, no tick moves it again.
  const seenAll = () =>
    page.evaluate(() => (window as unknown as { seenRows: number[] }).seenRows.slice());
  await page.waitForTimeout(300);
  const atPause = await seenAll();
  const stopped = String(atPause.at(-1));
  await expect.poll(() => param(page, 'ev')).toBe(stopped);
  await page.waitForTimeout(1500);
  expect(await seenAll()).toEqual(atPause);
  expect(param(page, 'ev')).toBe(stopped);
  await expect(page.locator('.transport output')).toHaveText(formatNs(trace.time[Number(stopped)]));
  expect(sim.consoleErrors).toEqual([]);
});

test('the window follows a step out of view, on a kept run as on the page', async ({ sim }) => {
  test.setTimeout(120_000);
  const trace = nodeRun();
  let end = 0;
  for (let i = 0; i < trace.n; i++) end = Math.max(end, trace.time[i] + trace.dur[i]);
  // A row whose next one starts well after it, in the middle of the run.
  let k = trace.n >> 1;
  while (trace.time[k + 1] - trace.time[k] < 100) k++;
  const win: [number, number] = [trace.time[k] - 2000, trace.time[k] + 10];
  const next = nextRow(trace, k, trace.time[k]);
  const want = followWindow(win, trace.time[next], trace.dur[next], [0, end]);
  expect(want[0]).toBeGreaterThan(win[1] - 2010);
  const { page } = sim;
  for (const kept of [false, true]) {
    await openRun(page, kept, {
      win: `${win[0]},${win[1]}`,
      ev: String(k),
      t: String(trace.time[k]),
    });
    await page.keyboard.press('.');
    await expect.poll(() => param(page, 'ev')).toBe(String(next));
    await expect
      .poll(() => param(page, 'win')?.split(',').map(Number))
      .toEqual(want.map((x) => Math.round(x * 10) / 10));
    // The cursor is on the row, inside the new window.
    await expect(page.locator('.transport output')).toHaveText(formatNs(trace.time[next]));
  }
  expect(sim.consoleErrors).toEqual([]);
});

test('a link to a selected row of a kept run reopens on it, cursor and all', async ({ sim }) => {
  const trace = nodeRun();
  const row = Math.floor(trace.n * 0.6);
  const { page } = sim;
  // No cursor in the link: it comes from the row, which only the worker holds.
  await openRun(page, true, { ev: String(row) });
  await expect(page.locator('[data-inspector="kind"]')).toHaveText(kindName(trace.kind[row]));
  await expect(page.locator('.transport output')).toHaveText(formatNs(trace.time[row]));
  await expect.poll(() => param(page, 't')).toBe(String(Math.round(trace.time[row] * 10) / 10));
  // Stepping goes on from it.
  await page.keyboard.press('.');
  const next = nextRow(trace, row, trace.time[row]);
  await expect.poll(() => param(page, 'ev')).toBe(String(next));
  // A row picked in the log puts the cursor on it too.
  expect(trace.time[3]).not.toBe(trace.time[next]);
  await page.locator('.event-log tbody tr[data-row="3"]').click();
  await expect(page.locator('.transport output')).toHaveText(formatNs(trace.time[3]));
  await expect(page.locator('[data-inspector="kind"]')).toHaveText(kindName(trace.kind[3]));
  expect(sim.consoleErrors).toEqual([]);
});

test('Compare A/B with kept runs outlines the flushes that differ and filters the log to them, as on the page', async ({
  sim,
}) => {
  test.setTimeout(120_000);
  const { a, b } = runAbPair();
  const m = matchFlushes(a, b);
  const diff = differingRows(m);
  expect(diff.a.length).toBeGreaterThan(5);
  expect(diff.a.length).toBeLessThanOrEqual(400);
  // The rows of each side's differing flushes, as the page's log filter keeps them.
  const kept = (side: 'A' | 'B', n: number) => {
    let count = 0;
    for (let r = 0; r < n; r++) if (inDifferingFlush(m, side, r)) count++;
    return count;
  };
  const total = kept('A', a.n) + kept('B', b.n);
  const { page } = sim;
  const views: { outlines: string[][]; status: string; first: string[] }[] = [];
  for (const remote of [false, true]) {
    await openAb(page, remote);
    await expect(page.locator('[data-match-summary]')).toContainText(
      `${m.pairs.filter((p) => p.diffs.length).length} differ.`,
    );
    await expect(page.locator('[data-match-summary]')).toContainText(
      'Dashed outlines on the timelines mark them.',
    );
    const timelines = page.locator('.timeline');
    const outlines: string[][] = [];
    for (const [j, want] of [diff.a, diff.b].entries()) {
      const rects = timelines.nth(j).locator('rect.diff-outline');
      await expect(rects).toHaveCount(want.length);
      outlines.push(
        (await rects.evaluateAll((els) => els.map((e) => e.getAttribute('data-row') ?? ''))).sort(),
      );
      expect(outlines[j]).toEqual(want.map(String).sort());
    }
    if (remote)
      await expect(timelines.first().locator('.timeline-status')).toContainText(
        `${diff.a.length} flushes that differ outlined`,
      );
    await page.locator('.log-filter select').selectOption('differs');
    const status = page.getByTestId('log-status');
    await expect(status).toContainText(`${total.toLocaleString('en-US')} events in view`);
    await expect(status).not.toContainText('reading');
    const first = await page
      .locator('.event-log tbody tr[data-row]')
      .evaluateAll((els) =>
        els.slice(0, 12).map((e) => `${e.getAttribute('data-side')}${e.getAttribute('data-row')}`),
      );
    views.push({ outlines, status: (await status.textContent()) ?? '', first });
  }
  expect(views[1].status).toBe(views[0].status);
  expect(views[1].first).toEqual(views[0].first);
  expect(views[1].first.length).toBe(12);
  expect(sim.consoleErrors).toEqual([]);
});

test("selecting a row of a kept run outlines the other run's matched flush, as on the page", async ({
  sim,
}) => {
  test.setTimeout(120_000);
  const { a, b } = runAbPair();
  const m = matchFlushes(a, b);
  // An IPI of one of A's flushes (not its FlushRange row: the worker walks the parents to it),
  // and the row of B's flush matched with it.
  const row = Array.from({ length: a.n }, (_, r) => r).find(
    (r) => kindName(a.kind[r]) === 'IpiSent' && m.flushOfA[r] >= 0 && m.flushOfA[r] !== r,
  );
  expect(row).toBeDefined();
  const want = counterpart(m, 'A', row as number);
  expect(want).not.toBeNull();
  const { page } = sim;
  for (const remote of [false, true]) {
    await openAb(page, remote, { ev: String(row) });
    const outline = page.locator('.timeline').nth(1).locator('rect.match-outline');
    await expect(outline).toHaveCount(1);
    await expect(outline).toHaveAttribute('data-row', String(want));
    // Nothing is matched on A's own timeline: the selection is there.
    await expect(page.locator('.timeline').first().locator('rect.match-outline')).toHaveCount(0);
  }
  expect(sim.consoleErrors).toEqual([]);
});

test('one step per event is offered for a run on the page and says why not for a kept run', async ({
  sim,
}) => {
  const { page } = sim;
  const box = page.getByRole('checkbox', { name: 'one step per event' });
  await openRun(page, false);
  await expect(box).toBeEnabled();
  await openRun(page, true);
  await expect(box).toBeDisabled();
  await expect(box).not.toBeChecked();
  await expect(page.locator('label', { has: box })).toHaveAttribute('title', /true time only/);
  // Nor does its key switch it.
  await page.locator('.timeline.remote').focus();
  await page.keyboard.press('e');
  // The link is written once the view rests.
  await page.waitForTimeout(1000);
  expect(param(page, 'spacing')).toBeNull();
  expect(sim.consoleErrors).toEqual([]);
});
