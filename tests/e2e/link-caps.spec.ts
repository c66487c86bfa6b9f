// Links and own scenarios at and past their caps: a link too long, or one that unpacks too far,
// is refused at once with the cap named; an own scenario too large for a link runs but stays out
// of the link, saying so; a large one is packed off the page's thread and joins the link, and a
// link's is unpacked off it while the page answers.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import lz from 'lz-string';
import { expect, test } from './fixtures';

const MUNMAP = readFileSync(resolve('content/scenarios/x86-munmap-shootdown.toml'), 'utf8');

test('a link over the length cap, or one unpacking past the text cap, is refused with the cap named', async ({
  sim,
}) => {
  const { page } = sim;
  // Static servers refuse request lines this long, so the links arrive as Back would bring them.
  await sim.open();
  const arrive = async (search: string) => {
    await page.evaluate((q) => {
      history.pushState(null, '', q);
      dispatchEvent(new PopStateEvent('popstate'));
      // Read by now; a long address slows the test driver's every step down, not the page.
      history.replaceState(null, '', '?view=explore');
    }, search);
    await sim.waitForIdle();
  };
  await arrive(`?file=big.toml&src=${'A'.repeat(200 * 1024)}`);
  await expect(page.getByRole('alert')).toContainText(
    'the scenario text is 200 KiB, over the 128 KiB a tlbscope link may have',
  );
  await expect(page.locator('.timeline')).toHaveCount(1);

  // 27 KB of link that would unpack to 1.3 MB (lz-string alone would unpack it all). A block of
  // letters repeated: one letter repeated would take lz-string seconds to pack here.
  const block = 'qwhdkfmzpxnbtvlrjgsyeuoiacqwhdkfmzpxnbtvlrjgsyeuoiacqwhdkfmzpxnbt';
  const src = lz.compressToEncodedURIComponent(`# ${block.repeat(20_000)}\n`);
  expect(src.length).toBeLessThan(32 * 1024);
  const t = Date.now();
  await arrive(`?file=bomb.toml&src=${src}`);
  await expect(page.getByRole('alert')).toContainText(
    'the scenario text unpacks to more than the 1,024 KiB a link may carry',
  );
  expect(Date.now() - t).toBeLessThan(10_000);
  await expect(page.locator('.timeline')).toHaveCount(1);
});

test('an own scenario too large for a link runs, stays out of the link and says so', async ({
  sim,
}) => {
  const { page } = sim;
  await sim.open();
  const text = `${MUNMAP}\n# ${'z'.repeat(1_200_000)}\n`;
  await page.getByLabel('Your own scenario file (.toml)').setInputFiles({
    name: 'huge.toml',
    mimeType: 'text/plain',
    buffer: Buffer.from(text),
  });
  await sim.waitForIdle();
  await expect(page.getByText('Running huge.toml')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'too large' })).toHaveText(
    'Scenario too large to share in a link; download it instead.',
  );
  expect(page.url()).not.toContain('src=');
  expect(page.url()).toContain('view=explore');
});

test('a large own scenario is packed into the link once ready, and the link reopens it', async ({
  sim,
  browser,
}) => {
  const { page } = sim;
  await sim.open();
  const text = MUNMAP.replace(/^title = ".*"$/m, 'title = "Long comment"').concat(
    `\n# ${'ab'.repeat(100_000)}\n`,
  );
  await page.getByLabel('Your own scenario file (.toml)').setInputFiles({
    name: 'long.toml',
    mimeType: 'text/plain',
    buffer: Buffer.from(text),
  });
  await sim.waitForIdle();
  await expect.poll(() => page.url(), { timeout: 20_000 }).toContain('file=long.toml&src=');
  await expect(page.getByRole('status').filter({ hasText: 'too large' })).toHaveCount(0);
  const fresh = await browser.newPage();
  await fresh.goto(page.url());
  await expect(fresh.locator('.intro h2')).toHaveText('Long comment');
  await expect(fresh.getByText('Running long.toml')).toBeVisible();
  await fresh.close();
});

test('an own scenario with more tasks than the simulator takes is refused at once, by count', async ({
  sim,
}) => {
  const { page } = sim;
  await sim.open();
  const tasks = '[[tasks]]\ncpu = 0\nprogram = "touch 0"\n'.repeat(100_000);
  await page.getByLabel('Your own scenario file (.toml)').setInputFiles({
    name: 'many.toml',
    mimeType: 'text/plain',
    buffer: Buffer.from(`${MUNMAP}\n${tasks}`),
  });
  await expect(page.getByRole('alert')).toHaveText(
    'many.toml was not run: tasks: 100,000 [[tasks]] tables, over the 4,096 a scenario may have.',
    { timeout: 10_000 },
  );
  await expect(page.getByText('Running many.toml')).toHaveCount(0);
  await expect(page.locator('.timeline')).toHaveCount(1);
});

test('a link carrying a scenario at the cap opens it, and the page answers while it is read', async ({
  sim,
}) => {
  const { page } = sim;
  await sim.open();
  // Random words, which lz-string hardly packs: about 120 KiB of link.
  let x = 7;
  const words = Array.from({ length: 28_000 }, () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return `w${x % 99_991}`;
  });
  const text = MUNMAP.replace(/^title = ".*"$/m, 'title = "Carried at the cap"').concat(
    `\n# ${words.join(' ')}\n`,
  );
  const src = lz.compressToEncodedURIComponent(text);
  expect(src.length).toBeGreaterThan(100 * 1024);
  expect(src.length).toBeLessThan(128 * 1024);
  // The text is read in a worker: held at its start, the page is seen between the two.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  let hits = 0;
  await page.route(/linkTextWorker/, async (route) => {
    hits++;
    await held;
    await route.continue();
  });
  await page.evaluate((q) => {
    history.pushState(null, '', q);
    dispatchEvent(new PopStateEvent('popstate'));
  }, `?file=cap.toml&src=${src}`);
  await expect(
    page.getByRole('status').filter({ hasText: 'Reading the scenario in the link' }),
  ).toContainText('cap.toml');
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'busy');
  await page.getByRole('button', { name: 'Hide settings' }).click();
  await expect(page.getByRole('button', { name: 'Show settings' })).toBeVisible();
  expect(hits).toBe(1);
  release();
  await sim.waitForIdle();
  await expect(page.locator('.intro h2')).toHaveText('Carried at the cap');
  await expect(page.getByText('Reading the scenario in the link')).toHaveCount(0);
  await page.getByRole('button', { name: 'Show settings' }).click();
  await expect(page.getByText('Running cap.toml')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
