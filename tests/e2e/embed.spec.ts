// ?embed inside someone else's page: fills any frame without scrollbars or cut labels, obeys
// the host API only from the trusted origin, and leaves the host its keys until focused.
import AxeBuilder from '@axe-core/playwright';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { finishCheck, openChecker } from '../../web/src/sim/check';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { expect, test } from './fixtures';

const STEP3 = './?scenario=x86-flush-info-story&step=3&embed=1';

/** Everything a reader must be able to read, checked against the frame and its own box. */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bad: string[] = [];
    const W = window.innerWidth;
    const H = window.innerHeight;
    const doc = document.scrollingElement ?? document.documentElement;
    if (doc.scrollWidth > doc.clientWidth || doc.scrollHeight > doc.clientHeight)
      bad.push(`page scrolls: ${doc.scrollWidth}×${doc.scrollHeight} in ${W}×${H}`);
    const fit = document.querySelector('.fit-box')?.getBoundingClientRect();
    const labels = document.querySelectorAll(
      '.embed-caption, .legend li, .embed-controls > *, .timeline svg text, .timeline-bar span, .overlay-chart svg text',
    );
    if (labels.length < 10) bad.push(`only ${labels.length} labels found`);
    for (const el of labels) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const name = `${el.tagName.toLowerCase()} “${el.textContent?.slice(0, 30)}”`;
      if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
        bad.push(`${name} outside the frame`);
      if (
        el.closest('.fit-box') &&
        fit &&
        (r.bottom > fit.bottom + 0.5 || r.right > fit.right + 0.5)
      )
        bad.push(`${name} cut by the diagram's box`);
      if (el instanceof HTMLElement && el.scrollWidth > el.clientWidth + 1)
        bad.push(`${name} overflows its line`);
    }
    return bad;
  });
}

for (const [w, h] of [
  [480, 270],
  [1920, 1080],
] as const) {
  test(`at ${w}×${h} the embed fills the frame with nothing scrolled or cut, in both themes`, async ({
    sim,
  }, info) => {
    await sim.page.setViewportSize({ width: w, height: h });
    for (const theme of ['light', 'dark']) {
      await sim.page.goto(`${STEP3}&theme=${theme}`);
      await sim.waitForIdle();
      await expect(sim.page.locator('.embed-caption')).toContainText('not measured');
      await expect(sim.page.locator('.embed-caption')).toContainText(
        'The high-priority task waits out',
      );
      // A small frame gives the lanes the room the legend would take.
      if (w > 480) await expect(sim.page.locator('.legend li').first()).toBeVisible();
      await expect(sim.page.locator('.embed-step')).toHaveText('Step 3 of 6');
      await expect(sim.page.locator('header')).toHaveCount(0);
      await expect(sim.page.locator('.summary, .inspector, aside')).toHaveCount(0);
      await expect.poll(() => clipped(sim.page)).toEqual([]);
      // The diagram uses the frame: its box takes most of the height.
      const box = await sim.page.locator('.fit-content').boundingBox();
      expect(box && box.height / h).toBeGreaterThan(0.6);
      await sim.page.screenshot({ path: info.outputPath(`embed-${w}x${h}-${theme}.png`) });
    }
    expect(sim.consoleErrors).toEqual([]);
  });
}

const hostPage = (src: string) => `<!doctype html><title>host</title>
<p id="host">host page</p>
<iframe id="f" src="${src}" width="800" height="450" style="border:0"></iframe>
<script>
  window.events = []; window.keys = [];
  addEventListener('message', (e) => { if (e.data && e.data.type === 'tlbscope') events.push(e.data); });
  addEventListener('keydown', (e) => keys.push(e.key));
  window.send = (m) => document.getElementById('f').contentWindow.postMessage({ type: 'tlbscope', ...m }, '*');
</script>`;

test('a Measured data chart embeds alone, fitted at both sizes, and steps to the next chart', async ({
  sim,
}, info) => {
  for (const [w, h] of [
    [480, 270],
    [1920, 1080],
  ] as const) {
    await sim.page.setViewportSize({ width: w, height: h });
    await sim.page.goto('./?view=data&embed');
    const embed = sim.page.locator('.data-embed');
    await expect(embed).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
    await expect(sim.page.locator('.embed-caption')).toContainText(
      w > 1100 ? 'measured on' : 'measured',
    );
    await expect(sim.page.locator('.embed-caption')).toContainText(
      'predicted by the tlbscope model',
    );
    await expect(
      sim.page
        .locator('.overlay-chart svg .point, .overlay-chart svg path, .overlay-chart svg circle')
        .first(),
    ).toBeAttached();
    // The predictions are painted in the chart's own prediction colour, not left unstroked.
    const stroke = await sim.page
      .locator('.overlay-chart [data-kind="prediction"]')
      .first()
      .evaluate((e) => getComputedStyle(e).stroke);
    expect(stroke).toMatch(/^rgb/);
    await expect(sim.page.locator('.import-panel, .dataset-table, header')).toHaveCount(0);
    await expect.poll(() => clipped(sim.page)).toEqual([]);
    await sim.page.screenshot({ path: info.outputPath(`chart-embed-${w}x${h}.png`) });
  }
  const first = await sim.page.locator('[data-embed-title]').textContent();
  await sim.page.getByRole('button', { name: 'Next chart →' }).click();
  await expect(sim.page.locator('[data-embed-title]')).not.toHaveText(first ?? '');
  await expect(sim.page).toHaveURL(/[?&]chart=/);
  await sim.page.goto('./?view=data&embed=1&chart=nothing');
  await expect(sim.page.getByRole('alert')).toContainText('chart=nothing: no such chart');
  await expect(sim.page.locator('[data-embed-title]')).toHaveText(first ?? '');
  expect(sim.consoleErrors).toEqual([]);
});

/** A host page on the site's own origin holding the embed at `src`, logging its messages. */
async function openHost(page: Page, hostUrl: string, src: string): Promise<void> {
  await page.route(hostUrl, (route) =>
    route.fulfill({ contentType: 'text/html', body: hostPage(src) }),
  );
  await page.goto(hostUrl);
}

/**
 * The host page from a server of its own on another port: another origin. (A routed page
 * would count as public to Chromium's local network checks and could not frame the site.)
 */
async function otherOrigin(): Promise<{
  url: string;
  frame: (src: string) => void;
  close: () => void;
}> {
  let src = '';
  const server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(hostPage(src));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/host.html`,
    frame: (s) => (src = s),
    close: () => server.close(),
  };
}

const events = (page: Page) =>
  page.evaluate(() => (window as unknown as { events: { event: string }[] }).events);
const send = (page: Page, m: object) =>
  page.evaluate((msg) => (window as unknown as { send: (m: object) => void }).send(msg), m);

test('the host drives the embed: ready, goto, next, prev, set, play, pause, and errors', async ({
  page,
  baseURL,
}) => {
  const host = new URL('host.html', baseURL).href;
  await openHost(page, host, `${STEP3.replace('step=3', 'step=1')}`);
  const frame = page.frameLocator('#f');
  await expect
    .poll(() => events(page))
    .toContainEqual(
      expect.objectContaining({
        event: 'ready',
        step: 1,
        steps: 6,
        scenario: 'x86-flush-info-story',
      }),
    );
  const entries = await page.evaluate(() => history.length);
  await send(page, { command: 'goto', step: 4 });
  await expect(frame.locator('.embed')).toHaveAttribute('data-step', '4');
  await expect
    .poll(() => events(page))
    .toContainEqual(expect.objectContaining({ event: 'step', step: 4, steps: 6 }));
  await send(page, { command: 'next' });
  await expect(frame.locator('.embed')).toHaveAttribute('data-step', '5');
  await send(page, { command: 'prev' });
  await send(page, { command: 'prev' });
  await expect(frame.locator('.embed')).toHaveAttribute('data-step', '3');
  const title = await frame.locator('[data-embed-title]').textContent();
  // The step event follows the step's run, which may finish after the attribute changed.
  await expect
    .poll(async () => (await events(page)).filter((e) => e.event === 'step').at(-1))
    .toMatchObject({ event: 'step', step: 3, title });

  await send(page, { command: 'set', key: 'cpus', value: '6' });
  await expect
    .poll(() => events(page))
    .toContainEqual(
      expect.objectContaining({ event: 'run', settings: expect.arrayContaining(['cpus=6']) }),
    );
  // Six CPUs: a lane of CPU 5, or (the frame too small for six at a legible size) a folded
  // strip that ends with it.
  await expect(
    frame.locator('.timeline-top text', { hasText: /^(▸ )?CPUs? (\d+–)?5$/ }).first(),
  ).toBeAttached();

  await send(page, { command: 'play' });
  await expect(frame.getByRole('button', { name: /Pause/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await send(page, { command: 'pause' });
  await expect(frame.getByRole('button', { name: /Play/ })).toHaveAttribute(
    'aria-pressed',
    'false',
  );

  await send(page, { command: 'set', key: 'pcid', value: 'maybe' });
  await send(page, { command: 'fly' });
  await expect
    .poll(() => events(page))
    .toContainEqual({
      type: 'tlbscope',
      event: 'error',
      message: 'set pcid=maybe: pcid is one of on, off',
    });
  await expect
    .poll(() => events(page))
    .toContainEqual(
      expect.objectContaining({
        event: 'error',
        message: expect.stringContaining('unknown command "fly"'),
      }),
    );
  // The browser's history is the host's: stepping the embed added no entries.
  expect(await page.evaluate(() => history.length)).toBe(entries);
});

test('hostile host messages: circular, oversize and long values get short errors, and the embed still obeys', async ({
  page,
  baseURL,
}) => {
  await openHost(page, new URL('host.html', baseURL).href, STEP3);
  const frame = page.frameLocator('#f');
  await expect.poll(() => events(page)).toContainEqual(expect.objectContaining({ event: 'ready' }));
  await page.evaluate(() => {
    const f = (document.getElementById('f') as HTMLIFrameElement).contentWindow!;
    const loop: Record<string, unknown> = { type: 'tlbscope' };
    loop.command = loop;
    f.postMessage(loop, '*');
    f.postMessage({ type: 'tlbscope', command: 'next', pad: 'x'.repeat(1_000_000) }, '*');
    f.postMessage({ type: 'tlbscope', command: 'set', key: 'pcid', value: 'v'.repeat(1000) }, '*');
  });
  const errors = async () =>
    (await events(page))
      .filter((e) => e.event === 'error')
      .map((e) => (e as unknown as { message: string }).message);
  await expect.poll(errors).toHaveLength(3);
  const [circular, big, long] = await errors();
  expect(circular).toMatch(/^unknown command \(an object\)/);
  expect(big).toBe('message too large: a command is at most 64 KiB');
  expect(long).toContain('(1,000 characters)');
  expect(long.length).toBeLessThan(400);
  await expect(frame.locator('.embed')).toHaveAttribute('data-step', '3');
  await send(page, { command: 'next' });
  await expect(frame.locator('.embed')).toHaveAttribute('data-step', '4');
});

test('commands from another origin are ignored unless the link names that origin', async ({
  page,
  baseURL,
}) => {
  const host = await otherOrigin();
  const embed = new URL(STEP3, baseURL);
  host.frame(embed.href);
  await page.goto(host.url);
  const frame = page.frameLocator('#f');
  await expect(frame.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 15_000 });
  await send(page, { command: 'goto', step: 5 });
  await page.waitForTimeout(500);
  await expect(frame.locator('.embed')).toHaveAttribute('data-step', '3');
  expect(await events(page)).toEqual([]); // not even "ready": it goes to the embed's own origin

  embed.searchParams.set('origin', new URL(host.url).origin);
  host.frame(embed.href);
  await page.goto(host.url);
  await expect.poll(() => events(page)).toContainEqual(expect.objectContaining({ event: 'ready' }));
  await send(page, { command: 'goto', step: 5 });
  await expect(frame.locator('.embed')).toHaveAttribute('data-step', '5');
  host.close();
});

test('the host keeps its keys; the embed takes them only once clicked', async ({
  page,
  baseURL,
}) => {
  await openHost(page, new URL('host.html', baseURL).href, STEP3);
  const frame = page.frameLocator('#f');
  await expect.poll(() => events(page)).toContainEqual(expect.objectContaining({ event: 'ready' }));
  await page.locator('#host').click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('PageDown');
  expect(await page.evaluate(() => (window as unknown as { keys: string[] }).keys)).toEqual([
    'ArrowRight',
    'PageDown',
  ]);
  await expect(frame.locator('.embed')).toHaveAttribute('data-step', '3');
  await frame.locator('.embed-caption').click();
  await page.keyboard.press('ArrowRight');
  await expect(frame.locator('.embed')).toHaveAttribute('data-step', '4');
  expect(await page.evaluate(() => (window as unknown as { keys: string[] }).keys)).toHaveLength(2);
});

test('"Embed" gives an iframe snippet of the current view', async ({ sim, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await sim.open({ scenario: 'x86-flush-info-story', step: 2 });
  await sim.page.getByRole('button', { name: 'Embed' }).click();
  const dialog = sim.page.getByRole('dialog', { name: 'Embed this view' });
  const snippet = await dialog.getByLabel('Snippet').inputValue();
  expect(snippet).toMatch(/^<iframe src="http[^"]+" width="960" height="540"[^>]*><\/iframe>$/);
  const src = snippet.match(/src="([^"]+)"/)?.[1].replace(/&amp;/g, '&') ?? '';
  expect(src).toMatch(/scenario=x86-flush-info-story&step=2.*embed=1/);
  await dialog.getByRole('button', { name: 'Copy snippet' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Snippet copied');
  expect(await sim.page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
  await sim.page.goto(src);
  await sim.waitForIdle();
  await expect(sim.page.locator('.embed')).toHaveAttribute('data-step', '2');
});

test('the embed, its link notice and the forced themes have no serious accessibility violations', async ({
  sim,
}) => {
  for (const theme of ['light', 'dark']) {
    // A broken part too, so the notice is checked in the embed's layout.
    await sim.page.goto(`${STEP3}&theme=${theme}&bogus=1`);
    await sim.waitForIdle();
    await expect(sim.page.getByRole('alert')).toContainText('bogus');
    const results = await new AxeBuilder({ page: sim.page }).analyze();
    const serious = results.violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
});

// A `view=counterexample` link embedded: the counterexample's numbered steps are drawn on their
// CPUs' lanes as in the explorer, and the embed's controls step through them. R7's missing
// barrier: the expected steps come from the same WASM build's checker run in Node.
test('an embedded counterexample draws its numbered steps and steps through them', async ({
  sim,
}, info) => {
  test.setTimeout(90_000);
  initSimulatorForNode();
  const set = ['switch_mm_barrier=none'];
  const { report } = finishCheck(
    openChecker(readScenario('x86-r7-switch-mm-order'), set),
    () => {},
    () => 0,
  );
  const cx = report.counterexample!;
  const last = cx.steps.length;
  const page = sim.page;
  for (const [w, h, theme] of [
    [480, 270, 'light'],
    [1440, 900, 'dark'],
    [1440, 900, 'light'],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto(
      `./?scenario=x86-r7-switch-mm-order&set=${set[0]}&view=counterexample&cx=14&embed=1&theme=${theme}`,
    );
    await sim.waitForIdle();
    const badges = page.locator('.timeline g.cx-step');
    await expect(badges).toHaveCount(last, { timeout: 60_000 });
    for (const s of cx.steps)
      await expect(page.locator(`.timeline g.cx-step[data-step="${s.n}"]`)).toHaveAttribute(
        'data-cpu',
        String(s.cpu),
      );
    await expect(page.locator('.timeline g.cx-step.violation')).toHaveAttribute(
      'data-step',
      String(cx.violation_step),
    );
    await expect(page.locator('.timeline g.cx-step.current')).toHaveAttribute('data-step', '14');
    await expect(page.locator('.embed-step')).toHaveText(`Step 14 of ${last}`);
    await expect.poll(() => clipped(page)).toEqual([]);
    await page.screenshot({ path: info.outputPath(`embed-cx-${w}x${h}-${theme}.png`) });
  }
  await page.getByRole('button', { name: 'Next step of the counterexample' }).click();
  await expect(page.locator('.timeline g.cx-step.current')).toHaveAttribute('data-step', '15');
  await expect(page.locator('.embed-step')).toHaveText(`Step 15 of ${last}`);
  await expect.poll(() => page.url()).toContain('cx=15');
  expect(sim.consoleErrors).toEqual([]);
});
