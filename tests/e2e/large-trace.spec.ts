// A large run (128 CPUs, about 200,000 rows) in the explorer: zoomed into a window, the span
// marks drawn on each expanded CPU lane are exactly that CPU's spans touching the window, as
// the same run in Node (same WASM build) and the window functions the worker answers with
// (web/src/model/traceWindow.ts) say; the inspector shows the row a mark stands for.
import { toLanes } from '../../web/src/model/lanes';
import { maxDurOf, rowsInWindow } from '../../web/src/model/traceWindow';
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { kindName } from '../../web/src/trace/trace';
import { formatNs } from '../../web/src/viz/scales';
import { expect, test } from './fixtures';

const SET = ['cpus=128', 'flushes=400'];

test('a large run zoomed into a window draws the rows of that window, and the inspector explains one', async ({
  sim,
}) => {
  test.setTimeout(90_000);
  initSimulatorForNode();
  const { trace } = runScenario(readScenario('x86-munmap-shootdown'), { overrides: SET });
  expect(trace.n).toBeGreaterThan(150_000);
  const spans = new Set(toLanes(trace).spans);
  const maxDur = maxDurOf(trace);

  const { page } = sim;
  const q = new URLSearchParams({ scenario: 'x86-munmap-shootdown' });
  for (const s of SET) q.append('set', s);
  await page.goto(`./?${q}`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 60_000 });
  // Zoom in with the keyboard (0.8× a press) until the window is under 1/500 of the run: a
  // flush or so. The whole run is too dense for marks: it is drawn as aggregates.
  const marks = page.locator('.timeline svg rect.mark.span');
  await expect(page.locator('.timeline svg g.lane').first()).toBeVisible();
  await expect(marks).toHaveCount(0);
  await page.locator('.timeline').first().focus();
  const end = trace.time[trace.n - 1];
  const frame = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const width = () => {
    const w = new URL(page.url()).searchParams.get('win')?.split(',').map(Number);
    return w ? w[1] - w[0] : end;
  };
  // The address follows the window a little later: wait for it after each press.
  for (let i = 0; i < 80 && width() >= end / 500; i++) {
    const before = width();
    await page.keyboard.press('w');
    for (let k = 0; k < 40 && width() === before; k++) await frame();
  }
  let win = '';
  await expect
    .poll(async () => {
      const was = win;
      win = new URL(page.url()).searchParams.get('win') ?? '';
      return win === was;
    })
    .toBe(true);
  const [t0, t1] = win.split(',').map(Number);
  expect(t1 - t0).toBeLessThan(end / 500);
  await expect.poll(() => marks.count()).toBeGreaterThan(0);

  const drawn = await marks.evaluateAll((els) =>
    els.map((e) => ({
      row: Number(e.getAttribute('data-row')),
      cpu: Number(e.getAttribute('data-cpu')),
      kind: e.getAttribute('data-kind'),
      // Whether the whole mark is on screen and wide enough to click.
      clickable: (() => {
        const r = e.getBoundingClientRect();
        const box = (e.closest('.timeline') as Element).getBoundingClientRect();
        return r.width >= 3 && r.left >= box.left && r.right <= box.right;
      })(),
    })),
  );
  // The URL rounds the window to 0.1 ns: rows within that of an edge may go either way.
  const outer = new Set(rowsInWindow(trace, t0 - 0.1, t1 + 0.1, maxDur).rows);
  const inner = rowsInWindow(trace, t0 + 0.1, t1 - 0.1, maxDur).rows;
  const cpus = new Set(drawn.map((d) => d.cpu));
  expect(cpus.size).toBeGreaterThan(1);
  for (const d of drawn) {
    expect(outer.has(d.row)).toBe(true);
    expect(trace.cpu[d.row]).toBe(d.cpu);
    expect(d.kind).toBe(kindName(trace.kind[d.row]));
  }
  // On every CPU lane drawn row by row, no span of the window is missing.
  const drawnRows = new Set(drawn.map((d) => d.row));
  const missing = Array.from(inner).filter(
    (i) => spans.has(i) && cpus.has(trace.cpu[i]) && !drawnRows.has(i),
  );
  expect(missing).toEqual([]);

  // The inspector explains the mark clicked: its kind, time and CPU are the row's.
  const clickable = drawn.filter((d) => d.clickable);
  expect(clickable.length).toBeGreaterThan(0);
  const pick = clickable[clickable.length >> 1];
  await page.locator(`.timeline svg rect.mark.span[data-row="${pick.row}"]`).click();
  await expect(page.locator('[data-inspector="kind"]')).toHaveText(kindName(trace.kind[pick.row]));
  await expect(page.locator('.inspector dd').nth(2)).toContainText(
    `${formatNs(trace.time[pick.row])}`,
  );
  await expect(page.locator('.inspector dd').nth(2)).toContainText(`CPU ${trace.cpu[pick.row]}`);
  expect(sim.consoleErrors).toEqual([]);
});
