// A run above 2 M rows stays in the simulator's worker: the page gets no columns, and its
// timeline asks the worker for the window on screen. Opened at a window and panned, the
// timeline draws as marks exactly the rows that the same run in Node (same WASM build) has
// touching the new window, and the inspector explains a clicked row with its causal chain,
// read from the worker.
import { causalChain, describeRow } from '../../web/src/model/events';
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
  const { trace } = runScenario(readScenario('x86-munmap-shootdown'), { overrides: SET });
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
  // The event log does not pretend the run is empty: it says where the events are.
  await expect(page.getByTestId('remote-log')).toContainText(
    `${trace.n.toLocaleString('en-US')} events stay in the simulator's worker`,
  );

  // Pan right (D, 15 % of the window a press) and wait for the address to follow.
  const before = new URL(page.url()).searchParams.get('win');
  await box.focus();
  await page.keyboard.press('d');
  await page.keyboard.press('d');
  await expect.poll(() => new URL(page.url()).searchParams.get('win')).not.toBe(before);
  let win = '';
  await expect
    .poll(async () => {
      const was = win;
      win = new URL(page.url()).searchParams.get('win') ?? '';
      return win === was;
    })
    .toBe(true);
  const [t0, t1] = win.split(',').map(Number);
  expect(t0).toBeGreaterThan(mid - span / 2);

  // The marks drawn are the rows touching the window (the URL rounds it to 0.1 ns).
  const outer = new Set(rowsTouching(trace, t0 - 0.1, t1 + 0.1));
  const inner = rowsTouching(trace, t0 + 0.1, t1 - 0.1);
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
    })),
  );
  const drawnRows = new Set(drawn.map((d) => d.row));
  expect(inner.filter((r) => !drawnRows.has(r))).toEqual([]);
  for (const d of drawn) {
    expect(outer.has(d.row)).toBe(true);
    expect(d.cpu).toBe(trace.cpu[d.row]);
    expect(d.kind).toBe(kindName(trace.kind[d.row]));
  }

  // Click a wide mark whose row has causes: the inspector shows it and its chain.
  const pick =
    drawn.find((d) => d.width >= 4 && trace.parent[d.row] >= 0) ?? drawn.find((d) => d.width >= 4)!;
  await box.locator(`svg rect.mark.span[data-row="${pick.row}"]`).click();
  await expect(page.locator('[data-inspector="kind"]')).toHaveText(kindName(trace.kind[pick.row]));
  const when = page.locator('.inspector dd').nth(2);
  await expect(when).toContainText(formatNs(trace.time[pick.row]));
  await expect(when).toContainText(`CPU ${trace.cpu[pick.row]}`);
  const chain = causalChain(trace, pick.row);
  await expect(page.locator('[data-inspector="chain"] li')).toHaveCount(chain.length);
  await expect(page.locator('[data-inspector="chain"] li').first()).toContainText(
    describeRow(trace, chain[0]),
  );
  expect(sim.consoleErrors).toEqual([]);
});
