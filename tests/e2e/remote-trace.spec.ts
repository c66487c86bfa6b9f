// A run above 2 M rows stays in the simulator's worker: the page gets no columns, and its
// timeline asks the worker for the window on screen. Opened at a window and panned, the
// timeline draws as marks exactly the rows that the same run in Node (same WASM build) has
// touching the new window, and the inspector explains a clicked row with its causal chain,
// read from the worker.
import { readFileSync } from 'node:fs';
import { causalChain, describeRow, rowsInWindow } from '../../web/src/model/events';
import { matchFlushes } from '../../web/src/model/flushMatch';
import { toArrows } from '../../web/src/model/ipis';
import { LENS_KINDS, lensIntervals } from '../../web/src/model/lens';
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { kindName, type Trace } from '../../web/src/trace/trace';
import { formatNs } from '../../web/src/viz/scales';
import { expect, test } from './fixtures';

const SET = ['cpus=48', 'flushes=11500'];

function rowsTouching(trace: Trace, t0: number, t1: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < trace.n; i++)
    if (trace.time[i] <= t1 && trace.time[i] + trace.dur[i] >= t0) out.push(i);
  return out;
}

test("a run kept in the worker draws a panned window's rows, and the inspector explains one", async ({
  sim,
}) => {
  test.setTimeout(240_000);
  initSimulatorForNode();
  const run = runScenario(readScenario('x86-munmap-shootdown'), { overrides: SET });
  const { trace } = run;
  expect(trace.n).toBeGreaterThan(2_000_000);
  let end = 0;
  for (let i = 0; i < trace.n; i++) end = Math.max(end, trace.time[i] + trace.dur[i]);
  // A window of about one flush, in the middle of the run.
  const mid = trace.time[trace.n >> 1];
  const span = end / 20_000;
  const q = new URLSearchParams({ scenario: 'x86-munmap-shootdown' });
  for (const s of SET) q.append('set', s);
  q.set('win', `${(mid - span / 2).toFixed(1)},${(mid + span / 2).toFixed(1)}`);

  const { page } = sim;
  await page.goto(`./?${q}`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 200_000 });
  const box = page.locator('.timeline.remote');
  await expect(box).toBeVisible();
  await expect(box.locator('.timeline-status')).toContainText(
    `of ${trace.n.toLocaleString('en-US')} rows`,
  );

  // Pan right (D, 15 % of the window a press) and wait for the address to follow.
  const before = new URL(page.url()).searchParams.get('win');
  await box.focus();
  await page.keyboard.press('d');
  await page.keyboard.press('d');
  await expect.poll(() => new URL(page.url()).searchParams.get('win')).not.toBe(before);
  // Settled: the address holds still for a second (under load the two steps may rest apart).
  let win = '';
  await expect
    .poll(
      async () => {
        const was = win;
        win = new URL(page.url()).searchParams.get('win') ?? '';
        return win === was;
      },
      { intervals: [1000] },
    )
    .toBe(true);
  const [t0, t1] = win.split(',').map(Number);
  expect(t0).toBeGreaterThan(mid - span / 2);

  // The marks drawn are the rows touching the window (the URL rounds it to 0.1 ns).
  const outer = new Set(rowsTouching(trace, t0 - 0.1, t1 + 0.1));
  const inner = rowsTouching(trace, t0 + 0.1, t1 - 0.1);
  expect(inner.length).toBeGreaterThan(5);
  expect(inner.length).toBeLessThan(400);
  const marks = box.locator('svg rect.mark.span');
  await expect
    .poll(async () => (await marks.count()) >= inner.length, { timeout: 20_000 })
    .toBe(true);
  const drawn = await marks.evaluateAll((els) =>
    els.map((e) => ({
      row: Number(e.getAttribute('data-row')),
      cpu: Number(e.getAttribute('data-cpu')),
      kind: e.getAttribute('data-kind'),
      width: e.getBoundingClientRect().width,
    })),
  );
  const drawnRows = new Set(drawn.map((d) => d.row));
  expect(inner.filter((r) => !drawnRows.has(r))).toEqual([]);
  for (const d of drawn) {
    expect(outer.has(d.row)).toBe(true);
    expect(d.cpu).toBe(trace.cpu[d.row]);
    expect(d.kind).toBe(kindName(trace.kind[d.row]));
  }

  // The event log lists the window's rows (those starting in it) as the page's log lists a
  // run on the page: read from the worker, compared with the same run in Node.
  // The log renders the rows scrolled into view: read them, then scroll to the end.
  const logged = () =>
    page
      .locator('.event-log tbody tr[data-row]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-row'))));
  const logBox = page.locator('.event-log .log-scroll');
  const startsIn = (a: number, b: number) => rowsInWindow(trace, a, b, Infinity).rows;
  const logOuter = startsIn(t0 - 0.1, t1 + 0.1);
  const logInner = startsIn(t0 + 0.1, t1 - 0.1);
  const status = page.getByTestId('log-status');
  await expect(status).toContainText('events in view.');
  const inView = Number((await status.textContent())!.replace(/,/g, '').match(/^\d+/)![0]);
  expect(inView).toBeGreaterThanOrEqual(logInner.length);
  expect(inView).toBeLessThanOrEqual(logOuter.length);
  const listed = await logged();
  const from = logOuter.indexOf(listed[0]);
  expect([0, 1]).toContain(from);
  expect(listed.length).toBeGreaterThan(10);
  expect(listed).toEqual(logOuter.slice(from, from + listed.length));
  const firstRow = page.locator('.event-log tbody tr[data-row]').first();
  await expect(firstRow.locator('td').nth(3)).toContainText(describeRow(trace, listed[0]));
  await logBox.evaluate((e) => (e.scrollTop = e.scrollHeight));
  await expect.poll(async () => (await logged()).at(-1)).toBe(logOuter[from + inView - 1]);
  await logBox.evaluate((e) => (e.scrollTop = 0));

  // IPI and ack arrows in the window: those ipis.ts finds in the whole run in Node.
  const arrows = toArrows(trace);
  const arrowRows = (a: number, b: number) => {
    const out: number[] = [];
    for (let j = 0; j < arrows.n; j++) {
      const s0 = trace.time[arrows.fromRow[j]];
      const s1 = trace.time[arrows.toRow[j]];
      if (Math.min(s0, s1) <= b && Math.max(s0, s1) >= a) out.push(arrows.row[j]);
    }
    return out;
  };
  const arrowInner = arrowRows(t0 + 0.1, t1 - 0.1);
  const arrowOuter = new Set(arrowRows(t0 - 0.1, t1 + 0.1));
  expect(arrowInner.length).toBeGreaterThan(0);
  const lines = box.locator('svg line.arrow');
  await expect.poll(async () => (await lines.count()) >= arrowInner.length).toBe(true);
  const drawnArrows = await lines.evaluateAll((els) =>
    els.map((e) => Number(e.getAttribute('data-row'))),
  );
  expect(arrowInner.filter((r) => !drawnArrows.includes(r))).toEqual([]);
  expect(drawnArrows.filter((r) => !arrowOuter.has(r))).toEqual([]);

  // The latency lens: the window's intervals, as lens.ts finds them in the whole run.
  const ctx = run.info.costs.context_switch_ns ?? 0;
  const lens = lensIntervals(trace, LENS_KINDS, ctx);
  const lensIn = (a: number, b: number) =>
    lens.filter((iv) => iv.start <= b && iv.end >= a).map((iv) => `${iv.kind}@${iv.row}`);
  const lensInner = lensIn(t0 + 0.1, t1 - 0.1);
  const lensOuter = new Set(lensIn(t0 - 0.1, t1 + 0.1));
  expect(lensInner.length).toBeGreaterThan(0);
  await page.getByLabel('Latency lens').check();
  const brackets = box.locator('svg g.lens');
  await expect.poll(async () => (await brackets.count()) >= lensInner.length).toBe(true);
  const drawnLens = await brackets.evaluateAll((els) =>
    els.map((e) => `${e.getAttribute('data-lens')}@${e.getAttribute('data-row')}`),
  );
  expect(lensInner.filter((k) => !drawnLens.includes(k))).toEqual([]);
  expect(drawnLens.filter((k) => !lensOuter.has(k))).toEqual([]);
  await expect(box.locator('.timeline-status')).toContainText(
    `${drawnLens.length} lens wait${drawnLens.length === 1 ? '' : 's'}`,
  );

  // The Perfetto export of a run kept in its worker is its visible window: every row touching
  // the window, each slice at its row's time and CPU in the same run in Node.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /visible window as a Perfetto trace/ }).click(),
  ]);
  const doc = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    metadata: Record<string, unknown>;
    traceEvents: { ph: string; ts: number; dur?: number; pid: number; args?: { row?: number } }[];
  };
  expect(doc.metadata['tlbscope-run-rows']).toBe(trace.n);
  const slices = doc.traceEvents.filter((e) => e.ph === 'X');
  const exported = slices.map((e) => e.args?.row as number);
  expect(inner.filter((r) => !exported.includes(r))).toEqual([]);
  expect(exported.filter((r) => !outer.has(r))).toEqual([]);
  for (const e of slices) {
    const r = e.args?.row as number;
    expect(e.pid).toBe(trace.cpu[r] + 1);
    expect(e.ts).toBeCloseTo(trace.time[r] / 1000, 3);
    expect(e.dur).toBeCloseTo(trace.dur[r] / 1000, 3);
  }
  await expect(page.getByTestId('perfetto-progress')).toHaveText(
    `Exported ${slices.length.toLocaleString('en-US')} rows of the window.`,
  );

  // The SVG export draws what the screen shows: the window's cells as an image, and as marks
  // exactly the rows drawn on screen (those touching the window), arrows and lens brackets
  // (an export inlines styles and drops classes: marks are found by their data attributes).
  const [svgFile] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export Per-CPU timeline as SVG' }).click(),
  ]);
  const svgText = readFileSync(await svgFile.path(), 'utf8');
  const svgRows = [...svgText.matchAll(/<rect[^>]*data-row="(\d+)"/g)].map((m) => Number(m[1]));
  expect(svgRows.sort((x, y) => x - y)).toEqual([...drawnRows].sort((x, y) => x - y));
  expect(svgText).toContain('<image');
  // Its legend names the kinds in view, as the local export's does.
  expect(svgText).toContain('csd_lock_wait: waiting for acks');
  expect(svgText).toContain('IPI sent → handled');
  expect(
    [...svgText.matchAll(/<line[^>]*data-kind="(IpiArrow|AckArrow|UnpairedIpi)"/g)].length,
  ).toBe(drawnArrows.length);
  expect([...svgText.matchAll(/data-lens="/g)].length).toBe(drawnLens.length);
  expect(svgText).toContain(`a run of ${trace.n.toLocaleString('en-US')} rows kept in the`);

  // Click a wide mark whose row has causes, where no arrow crosses it (an IPI line drawn over a
  // span takes the click, as it should): the inspector shows it and its chain.
  const candidates = [
    ...drawn.filter((d) => d.width >= 4 && trace.parent[d.row] >= 0),
    ...drawn.filter((d) => d.width >= 4),
  ].map((d) => d.row);
  const open = await box.evaluate((el, rows) => {
    for (const row of rows) {
      const rect = el.querySelector(`svg rect.mark.span[data-row="${row}"]`);
      if (!rect) continue;
      rect.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const b = rect.getBoundingClientRect();
      for (const f of [0.5, 0.25, 0.75, 0.1, 0.9]) {
        const x = b.left + b.width * f;
        const y = b.top + b.height / 2;
        if (document.elementFromPoint(x, y) === rect)
          return { row, x: b.width * f, y: b.height / 2 };
      }
    }
    return null;
  }, candidates);
  expect(open, 'a wide span with a point no arrow covers').not.toBeNull();
  const pick = { row: open!.row };
  await box
    .locator(`svg rect.mark.span[data-row="${pick.row}"]`)
    .click({ position: { x: open!.x, y: open!.y } });
  await expect(page.locator('[data-inspector="kind"]')).toHaveText(kindName(trace.kind[pick.row]));
  const when = page.locator('.inspector dd').nth(2);
  await expect(when).toContainText(formatNs(trace.time[pick.row]));
  await expect(when).toContainText(`CPU ${trace.cpu[pick.row]}`);
  const chain = causalChain(trace, pick.row);
  await expect(page.locator('[data-inspector="chain"] li')).toHaveCount(chain.length);
  await expect(page.locator('[data-inspector="chain"] li').first()).toContainText(
    describeRow(trace, chain[0]),
  );
  // The log marks the selection as the page's log does.
  if (logOuter.slice(from, from + inView).includes(pick.row))
    await expect(page.locator('.event-log tr[aria-selected="true"]')).toHaveAttribute(
      'data-row',
      String(pick.row),
    );

  // Zoomed out, the log pages through the window: the second page is the window's rows 301 on.
  await box.focus();
  for (let k = 0; k < 12; k++) await page.keyboard.press('s');
  await expect(box.locator('.timeline-status')).toContainText('zoom in for the rows');
  await expect.poll(() => new URL(page.url()).searchParams.get('win')).not.toBe(win);
  await expect
    .poll(
      async () => {
        const was = win;
        win = new URL(page.url()).searchParams.get('win') ?? '';
        return win === was;
      },
      { intervals: [1000] },
    )
    .toBe(true);
  const [z0, z1] = win.split(',').map(Number);
  const wide = startsIn(z0 + 0.1, z1 - 0.1);
  expect(wide.length).toBeGreaterThan(600);
  await expect(page.getByTestId('log-status')).toContainText('events 1 to 300 listed.');
  await page.getByRole('button', { name: 'Later 300 →' }).click();
  await expect(page.getByTestId('log-status')).toContainText('events 301 to 600 listed.');
  // The selected row may be on this page (the cursor is on it, and the zoom kept it in view),
  // and the log scrolls to it: read the page from its top.
  const wideOuter = startsIn(z0 - 0.1, z1 + 0.1);
  await logBox.evaluate((e) => (e.scrollTop = 0));
  await expect
    .poll(async () => [300, 301].includes(wideOuter.indexOf((await logged())[0])))
    .toBe(true);
  const second = await logged();
  const at = wideOuter.indexOf(second[0]);
  expect([300, 301]).toContain(at);
  expect(second).toEqual(wideOuter.slice(at, at + second.length));
  expect(sim.consoleErrors).toEqual([]);
});

test('A/B with runs kept in their workers matches their flushes as the page matches smaller runs', async ({
  sim,
}) => {
  test.setTimeout(240_000);
  initSimulatorForNode();
  const setB = [...SET, 'preempt=preemptible_wait'];
  const a = runScenario(readScenario('x86-munmap-shootdown'), { overrides: SET }).trace;
  const b = runScenario(readScenario('x86-munmap-shootdown'), { overrides: setB }).trace;
  expect(Math.min(a.n, b.n)).toBeGreaterThan(2_000_000);
  const m = matchFlushes(a, b);
  const inA = m.pairs.filter((p) => p.a).length;
  const inB = m.pairs.filter((p) => p.b).length;
  const both = m.pairs.filter((p) => p.a && p.b).length;
  const differ = m.pairs.filter((p) => p.diffs.length > 0).length;
  expect(differ).toBeGreaterThan(0);

  const q = new URLSearchParams({ scenario: 'x86-munmap-shootdown', compare: '1' });
  for (const s of SET) q.append('set', s);
  for (const s of setB) q.append('setB', s);
  const { page } = sim;
  await page.goto(`./?${q}`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 200_000 });
  await expect(page.locator('.timeline.remote')).toHaveCount(2);
  await expect(page.locator('[data-match-summary]')).toContainText(
    `${inA} flushes in A, ${inB} in B; ${both} matched by CPU, mm and order; ${differ} differ.`,
    { timeout: 60_000 },
  );
  // The first pair listed is Node's first, with the same words for what differs.
  const first = page.locator('.flush-matches tbody tr').first();
  await expect(first).toHaveAttribute('data-pair', m.pairs[0].key);
  // Both latency distributions are drawn from the flushes the workers sent.
  await expect(page.locator('.distribution figcaption')).not.toContainText('Reading');
  expect(sim.consoleErrors).toEqual([]);
});
