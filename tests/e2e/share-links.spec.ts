// Links that hold the whole state: copy the link of a view with the "Copy link" button, open it
// in a fresh browser context (nothing shared but the URL) and check that the same marks,
// summary, step and inspector content appear. Broken links name what they ignored.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** What the user sees of a view, in a form two pages can be compared by. */
async function picture(page: Page) {
  return page.evaluate(() => {
    const text = (sel: string) =>
      [...document.querySelectorAll(sel)].map((e) => e.textContent?.trim() ?? '');
    return {
      marks: [...document.querySelectorAll('.timeline svg [data-row]')]
        .map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-row')}`)
        .sort(),
      highlighted: [...document.querySelectorAll('.timeline .highlight-outline')]
        .map((e) => e.getAttribute('data-row'))
        .sort(),
      ticks: text('.timeline g.axis .tick text'),
      timelines: document.querySelectorAll('.timeline').length,
      title: text('.intro h2'),
      step: text('[data-step-title]'),
      summary: text('.summary, .compare-summary'),
      inspector: text('.inspector'),
      settings: [...document.querySelectorAll<HTMLSelectElement>('select[data-setting]')].map(
        (s) => `${s.id}=${s.value}`,
      ),
      cursor: text('.transport output'),
      spacing: document.querySelector('.transport')?.textContent ?? '',
    };
  });
}

async function copyLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Opens `link` in a new context (no storage, no history), as on another machine. */
async function openFresh(browser: Browser, page: Page, link: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: page.viewportSize() });
  const fresh = await ctx.newPage();
  await fresh.goto(link);
  await expect(fresh.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 15_000 });
  return fresh;
}

async function expectSamePicture(page: Page, fresh: Page) {
  const before = await picture(page);
  expect(before.marks.length).toBeGreaterThan(0);
  await expect.poll(() => picture(fresh), { timeout: 10_000 }).toEqual(before);
  await expect(fresh.locator('.link-notice')).toHaveCount(0);
}

test('a guided step reopens on the same step with the same highlighted marks', async ({
  sim,
  browser,
}) => {
  await sim.open({ scenario: 'x86-flush-info-story', step: 1 });
  await sim.page.getByRole('button', { name: 'Next step →' }).click();
  await sim.waitForIdle();
  await sim.page.getByRole('button', { name: 'Next step →' }).click();
  await sim.waitForIdle();
  await expect(sim.page.locator('.step-count')).toHaveText('Step 3 of 6');
  const link = await copyLink(sim.page);
  expect(link).toMatch(/scenario=x86-flush-info-story&step=3/);
  const fresh = await openFresh(browser, sim.page, link);
  await expect(fresh.locator('.step-count')).toHaveText('Step 3 of 6');
  await expectSamePicture(sim.page, fresh);
  expect((await picture(fresh)).highlighted.length).toBeGreaterThan(0);
  expect(sim.consoleErrors).toEqual([]);
});

test('a zoomed explorer window with an event selected reopens zoomed, on that event', async ({
  sim,
  browser,
}) => {
  await sim.open();
  const full = await picture(sim.page);
  await sim.page.locator('.timeline').first().focus();
  for (const key of ['w', 'w', 'w', 'd']) await sim.page.keyboard.press(key);
  await expect.poll(async () => (await picture(sim.page)).ticks).not.toEqual(full.ticks);
  // The address bar follows the window once it rests (and the event log with it).
  await expect(sim.page).toHaveURL(/[?&]win=/);
  let last = '';
  await expect
    .poll(
      async () => {
        const [was, now] = [last, sim.page.url()];
        last = now;
        return now === was;
      },
      { intervals: [400] },
    )
    .toBe(true);
  const row = sim.page.locator('.event-log tr[data-row]').nth(3);
  await row.click();
  await expect(sim.page.locator('.event-log tr.selected')).toHaveCount(1);
  await sim.page.keyboard.press('e'); // one step per event
  await sim.waitForIdle();
  const link = await copyLink(sim.page);
  expect(link).toMatch(/[?&]win=[\d.]+%2C[\d.]+/);
  expect(link).toMatch(/[?&]ev=\d+/);
  expect(link).toMatch(/[?&]spacing=event/);
  const fresh = await openFresh(browser, sim.page, link);
  await expectSamePicture(sim.page, fresh);
  await expect(fresh.locator('.event-log tr.selected')).toHaveAttribute(
    'data-row',
    (await sim.page.locator('.event-log tr.selected').getAttribute('data-row')) ?? '',
  );
  expect(sim.consoleErrors).toEqual([]);
});

test('an A/B comparison reopens with both sides and the same comparison', async ({
  sim,
  browser,
}) => {
  await sim.open({ set: ['preempt=pinned'] });
  await sim.page.keyboard.press('c');
  await sim.page.getByRole('tab', { name: 'Settings B' }).click();
  await sim.page.locator('[data-setting="preempt"]').nth(1).selectOption('preemptible_wait');
  await sim.page.getByLabel('Seed').fill('7');
  await sim.waitForIdle();
  await expect(sim.page.locator('.timeline')).toHaveCount(2);
  const link = await copyLink(sim.page);
  expect(link).toMatch(/seed=7/);
  expect(link).toMatch(/compare=1/);
  const fresh = await openFresh(browser, sim.page, link);
  await expect(fresh.locator('.timeline')).toHaveCount(2);
  await expectSamePicture(sim.page, fresh);
  await expect(fresh.getByLabel('Seed')).toHaveValue('7');
});

test('the user’s own scenario file travels inside the link', async ({ sim, browser }) => {
  const text = readFileSync(resolve('content/scenarios/x86-munmap-shootdown.toml'), 'utf8').replace(
    /^title = ".*"$/m,
    'title = "My own munmap, shared by link"',
  );
  await sim.open();
  await sim.page.getByLabel('Your own scenario file (.toml)').setInputFiles({
    name: 'mine.toml',
    mimeType: 'text/plain',
    buffer: Buffer.from(text),
  });
  await sim.waitForIdle();
  await expect(sim.page.locator('.intro h2')).toHaveText('My own munmap, shared by link');
  const link = await copyLink(sim.page);
  expect(link).toMatch(/file=mine\.toml&src=/);
  const fresh = await openFresh(browser, sim.page, link);
  await expect(fresh.locator('.intro h2')).toHaveText('My own munmap, shared by link');
  await expect(fresh.getByText('Running mine.toml')).toBeVisible();
  await expectSamePicture(sim.page, fresh);
});

test('back and forward walk through the guided steps and runs', async ({ sim }) => {
  await sim.open({ scenario: 'x86-flush-info-story', step: 1 });
  const title = sim.page.locator('[data-step-title]');
  const first = await title.textContent();
  await sim.page.getByRole('button', { name: 'Next step →' }).click();
  await sim.waitForIdle();
  const second = await title.textContent();
  await sim.page.getByRole('button', { name: 'Next step →' }).click();
  await sim.waitForIdle();
  await expect(sim.page.locator('.step-count')).toHaveText('Step 3 of 6');
  await sim.page.goBack();
  await expect(title).toHaveText(second ?? '');
  await expect(sim.page).toHaveURL(/step=2/);
  await sim.page.goBack();
  await expect(title).toHaveText(first ?? '');
  await sim.page.goForward();
  await expect(title).toHaveText(second ?? '');
  // A run (here: a new seed) is a place too, and the zoom of the one before comes back with it.
  await sim.page.locator('.timeline').first().focus();
  for (const key of ['w', 'w']) await sim.page.keyboard.press(key);
  await expect(sim.page).toHaveURL(/[?&]win=/);
  let last = '';
  await expect
    .poll(
      async () => {
        const [was, now] = [last, sim.page.url()];
        last = now;
        return now === was;
      },
      { intervals: [400] },
    )
    .toBe(true);
  const zoomed = await picture(sim.page);
  await sim.page.getByLabel('Seed').fill('5');
  await sim.waitForIdle();
  await expect(sim.page).toHaveURL(/seed=5/);
  await expect(sim.page).not.toHaveURL(/win=/);
  await sim.page.goBack();
  await sim.waitForIdle();
  await expect(sim.page).not.toHaveURL(/seed=5/);
  await expect(sim.page.getByLabel('Seed')).toHaveValue('1');
  await expect.poll(async () => (await picture(sim.page)).ticks).toEqual(zoomed.ticks);
  expect(new URL(sim.page.url()).searchParams.get('win')).toBe(
    new URL(last).searchParams.get('win'),
  );
  expect(sim.consoleErrors).toEqual([]);
});

test('a broken link names what it ignored and opens the nearest valid view', async ({ sim }) => {
  await sim.page.goto(
    './?scenario=no-such-thing&seed=abc&set=pcid=maybe&set=preempt=preemptible_wait&zoom=9&ev=99999999&win=5,1',
  );
  await sim.waitForIdle();
  const notice = sim.page.getByRole('alert').filter({ hasText: 'Parts of this link were ignored' });
  await expect(notice).toBeVisible();
  for (const part of [
    'scenario=no-such-thing: no such scenario; showing x86-munmap-shootdown',
    'seed=abc',
    'set=pcid=maybe: pcid is one of on, off',
    'zoom: not something a tlbscope link holds',
    'win=5,1',
    'ev=99999999: this run has',
  ]) {
    await expect(notice).toContainText(part);
  }
  // The nearest valid view: the default scenario with the one good setting, drawn.
  await expect(sim.page.locator('.timeline')).toHaveCount(1);
  await expect(sim.marks('FlushRange').first()).toBeAttached();
  // The bad pcid=maybe is dropped: the control shows the scenario's own value, not one of yours.
  const pcid = sim.page
    .locator('.control')
    .filter({ has: sim.page.locator('[data-setting="pcid"]') });
  await expect(pcid.first()).toHaveAttribute('data-source', 'scenario');
  await expect(sim.page.locator('select[data-setting="pcid"]').first()).toHaveValue(/^(on|off)$/);
  await expect(sim.page).toHaveURL(/scenario=x86-munmap-shootdown&set=preempt%3Dpreemptible_wait$/);
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
});

test('a step the scenario does not have, or a cut-off scenario text, says so', async ({ sim }) => {
  await sim.page.goto('./?scenario=x86-flush-info-story&step=40');
  await sim.waitForIdle();
  await expect(sim.page.getByRole('alert')).toContainText(
    'step=40: this scenario has 6 steps; showing the free sandbox',
  );
  await expect(sim.page.locator('.timeline')).toHaveCount(1);
  await sim.page.goto('./?file=mine.toml&src=N4IgzgpgTg');
  await sim.waitForIdle();
  await expect(sim.page.getByRole('alert')).toContainText('src=');
  await expect(sim.page.locator('.timeline')).toHaveCount(1);
});

test('L copies the link, as the help lists', async ({ sim }) => {
  await sim.open({ seed: 3 });
  await sim.page.keyboard.press('l');
  await expect(sim.page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  expect(await sim.page.evaluate(() => navigator.clipboard.readText())).toMatch(/seed=3/);
  await sim.page.keyboard.press('?');
  await expect(sim.page.getByRole('dialog')).toContainText('copy a link to this exact view');
});
