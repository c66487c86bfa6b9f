// An imported recording above the remote threshold stays in its import worker, as a large run
// stays in the simulator's: the page gets its summary and extent, its timeline asks the worker
// for the window on screen. `remote=` lowers the threshold (2,000,000 rows by default) so a
// recording generated here in memory takes that path. Zoomed in and settled, the timeline draws
// as marks exactly the rows the Node parser has touching the window, and the inspector explains
// a clicked row and names the line it was read from; the event log lists the window's rows as
// the same worker reads them.
import { tracefsChunks } from '../../bench/gen-tracefs.mjs';
import { parseRecording } from '../../web/src/recording/parse';
import { rowsInWindow } from '../../web/src/model/events';
import { kindName, toTrace } from '../../web/src/trace/trace';
import { formatNs } from '../../web/src/viz/scales';
import { expect, test } from './fixtures';

test("a recording kept in its worker draws a window's rows, and the inspector explains one", async ({
  sim,
}) => {
  test.setTimeout(120_000);
  const text = [...tracefsChunks(40_000, 16)].join('');
  const rec = parseRecording(text, 'big.trace');
  const c = rec.columns;
  const n = c.time.length;
  expect(n).toBeGreaterThan(20_000);
  const touching = (t0: number, t1: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (c.time[i] <= t1 && c.time[i] + c.dur[i] >= t0) out.push(i);
    return out;
  };

  const { page } = sim;
  await page.goto('./?scenario=x86-munmap-shootdown&remote=10000');
  await sim.waitForIdle();
  await page.setInputFiles('#recording-input', {
    name: 'big.trace',
    mimeType: 'text/plain',
    buffer: Buffer.from(text),
  });
  await expect(page.getByTestId('recording-loaded')).toContainText(
    `${n.toLocaleString('en-US')} rows on 16 CPUs, kept in the import worker`,
  );
  const box = page.locator('.timeline.remote');
  await expect(box).toBeVisible();
  await expect(box.locator('.timeline-status')).toContainText(
    `${n.toLocaleString('en-US')} rows kept in the worker`,
  );
  // The summary is the parser's, computed where the rows are.
  await expect(page.locator('[data-summary="tlb_flush events"]')).toHaveText(
    rec.summary.tlb_flush.toLocaleString('en-US'),
  );

  // Zoom in (W, 80 % of the window a press) until a window holds a few hundred rows.
  await box.focus();
  for (let i = 0; i < 24; i++) await page.keyboard.press('w');
  let end = 0;
  for (let i = 0; i < n; i++) end = Math.max(end, c.time[i] + c.dur[i]);
  // Every press applied (the address follows the window a moment later), and then settled.
  let win = '';
  await expect
    .poll(async () => {
      const was = win;
      win = new URL(page.url()).searchParams.get('win') ?? '';
      const [a, b] = win.split(',').map(Number);
      return win === was && b - a < end * 0.8 ** 23;
    })
    .toBe(true);
  const [t0, t1] = win.split(',').map(Number);
  // The marks drawn are the rows touching the window (the URL rounds it to 0.1 ns).
  const outer = new Set(touching(t0 - 0.1, t1 + 0.1));
  const inner = touching(t0 + 0.1, t1 - 0.1);
  expect(inner.length).toBeGreaterThan(5);
  expect(inner.length).toBeLessThan(400);
  const marks = box.locator('svg rect.mark.span');
  await expect.poll(async () => (await marks.count()) >= inner.length).toBe(true);
  const drawn = await marks.evaluateAll((els) =>
    els.map((e) => ({
      row: Number(e.getAttribute('data-row')),
      cpu: Number(e.getAttribute('data-cpu')),
      kind: e.getAttribute('data-kind'),
      width: e.getBoundingClientRect().width,
      // Nested spans (a flush inside its handler) overlap: only an uncovered one is clickable.
      onTop: (() => {
        const r = e.getBoundingClientRect();
        return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === e;
      })(),
    })),
  );
  const drawnRows = new Set(drawn.map((d) => d.row));
  expect(inner.filter((r) => !drawnRows.has(r))).toEqual([]);
  for (const d of drawn) {
    expect(outer.has(d.row)).toBe(true);
    expect(d.cpu).toBe(c.cpu[d.row]);
    expect(d.kind).toBe(kindName(c.kind[d.row]));
  }

  // The event log lists the rows starting in the window, read from the import worker: those
  // the Node parser has there, in order.
  const trace = toTrace({ ...c, cpus: rec.cpus, strings: [] });
  const logOuter = rowsInWindow(trace, t0 - 0.1, t1 + 0.1, Infinity).rows;
  const status = page.getByTestId('log-status');
  await expect(status).toContainText('events in view.');
  const listed = await page
    .locator('.event-log tbody tr[data-row]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-row'))));
  expect(listed.length).toBeGreaterThan(5);
  const from = logOuter.indexOf(listed[0]);
  expect([0, 1]).toContain(from);
  expect(listed).toEqual(logOuter.slice(from, from + listed.length));

  // Click a wide mark whose row has a cause: the inspector shows it, its chain and its line.
  const clickable = drawn.filter((d) => d.width >= 4 && d.onTop);
  const pick = clickable.find((d) => c.parent[d.row] >= 0) ?? clickable[0];
  await box.locator(`svg rect.mark.span[data-row="${pick.row}"]`).click();
  await expect(page.locator('[data-inspector="kind"]')).toHaveText(kindName(c.kind[pick.row]));
  const when = page.locator('.inspector dd').nth(2);
  await expect(when).toContainText(formatNs(c.time[pick.row]));
  await expect(when).toContainText(`CPU ${c.cpu[pick.row]}`);
  let chain = 1;
  for (let p = c.parent[pick.row]; p >= 0; p = c.parent[p]) chain++;
  await expect(page.locator('[data-inspector="chain"] li')).toHaveCount(chain);
  await expect(page.locator('[data-recorded="line"]')).toHaveText(
    `line ${c.line[pick.row]} of big.trace`,
  );
  expect(sim.consoleErrors).toEqual([]);
});
