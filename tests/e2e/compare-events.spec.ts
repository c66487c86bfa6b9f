// A/B at event level: the flushes of the two runs matched, their differences listed and
// outlined on both timelines, and the inspector and event log working for B as for A.
import { expect, test } from './fixtures';

// The flush-info story's comparison, as a link: A the 2026 design, B 2019–2026.
const LINK =
  './?scenario=x86-flush-info-story&set=flush_info%3Dstack&set=preempt%3Dpreemptible_wait' +
  '&compare=1&setB=flush_info%3Dpercpu&setB=preempt%3Dpinned';

test('a compare link matches the flushes of A and B and highlights what differs', async ({
  sim,
}) => {
  await sim.page.goto(LINK);
  await sim.waitForIdle();
  const table = sim.page.getByRole('region', { name: 'Flushes of A and B' });
  const t1 = table.locator('tr[data-pair="CPU 0, mm 1, #1"]');
  const t2 = table.locator('tr[data-pair="CPU 0, mm 2, #1"]');
  await expect(t1).toHaveAttribute('data-differs', 'true');
  // T1's wait: preemptible in A (under a µs with preemption off), preemption off for all of
  // it in B (the 26 µs CPU 2 keeps interrupts off, and more).
  await expect(t1.locator('[data-diff="preempt"]')).toHaveText(
    /preemption off \d{3} ns → 2[6-9]\.\d\d µs/,
  );
  // T2 flushes only after T1's flush returns in B.
  await expect(t2.locator('[data-diff="start"]')).toHaveText(/starts 2[6-9]\.\d+ µs later in B/);
  await expect(sim.page.locator('[data-match-summary]')).toHaveText(
    /2 flushes in A, 2 in B; 2 matched by CPU, mm and order; 2 differ/,
  );
  // Both timelines outline their differing flushes.
  for (const i of [0, 1])
    await expect(sim.page.locator('.timeline').nth(i).locator('.diff-outline')).toHaveCount(2);
  expect(sim.consoleErrors).toEqual([]);
});

test('clicking an event of B shows it in the inspector, with its match in A', async ({ sim }) => {
  await sim.page.goto(LINK);
  await sim.waitForIdle();
  const b = sim.page.locator('.timeline').nth(1);
  // B's IPI handler on CPU 2 (T1's shootdown, taken when CPU 2 re-enables interrupts).
  await b.locator('.mark[data-kind="IpiHandler"][data-cpu="2"]').click();
  const inspector = sim.page.getByRole('region', { name: 'Inspector' });
  await expect(inspector.locator('h2')).toHaveText('Inspector: run B');
  await expect(inspector.locator('[data-inspector="kind"]')).toHaveText('IpiHandler');
  await expect(inspector.locator('[data-match-note]')).toContainText(
    'This is flush CPU 0, mm 1, #1; its match in A starts at 4.322 µs',
  );
  // The selection is B's; A outlines the matched flush.
  await expect(b.locator('.selection-outline')).toHaveCount(1);
  await expect(sim.page.locator('.timeline').nth(0).locator('.match-outline')).toHaveCount(1);
  // The link holds B's selection: a reload shows the same event of B.
  await expect(sim.page).toHaveURL(/evB=\d+/);
  await sim.page.reload();
  await sim.waitForIdle();
  await expect(inspector.locator('h2')).toHaveText('Inspector: run B');
  await expect(inspector.locator('[data-inspector="kind"]')).toHaveText('IpiHandler');
  // The log lists both runs and marks B's selected row.
  const log = sim.page.getByRole('region', { name: 'Events in view' });
  await expect(log.locator('tr[aria-selected="true"]')).toHaveAttribute('data-side', 'B');
  await expect(log.locator('tr[data-side="A"]').first()).toBeVisible();
  await sim.page.getByLabel('Show events of').selectOption('B');
  await expect(log.locator('tr[data-side="A"]')).toHaveCount(0);
  await expect(log.locator('tr[data-side="B"]').first()).toBeVisible();
  // Selecting A's flush from the table moves the inspector back to A.
  await sim.page
    .getByRole('region', { name: 'Flushes of A and B' })
    .getByRole('button', { name: "Show A's flush at 4.322 µs" })
    .click();
  await expect(inspector.locator('h2')).toHaveText('Inspector: run A');
  await expect(inspector.locator('[data-inspector="kind"]')).toHaveText('FlushRange');
  await expect(sim.page.locator('.timeline').nth(1).locator('.match-outline')).toHaveCount(1);
  expect(sim.consoleErrors).toEqual([]);
});

test('B’s ECDF line is drawn in its own colour and dash, distinct from A’s', async ({ sim }) => {
  await sim.page.goto(LINK);
  await sim.waitForIdle();
  const style = (s: string) =>
    sim.page.locator(`path.ecdf[data-series="${s}"]`).evaluate((el) => {
      const c = getComputedStyle(el);
      return { stroke: c.stroke, dash: c.strokeDasharray, width: c.strokeWidth };
    });
  const [a, b] = [await style('A'), await style('B')];
  expect(b.stroke).not.toBe(a.stroke);
  expect(b.dash).not.toBe('none');
  expect(parseFloat(b.width)).toBeGreaterThanOrEqual(2.5);
});

test('an embed of a comparison outlines the differing flushes on both timelines', async ({
  sim,
}) => {
  await sim.page.goto(`${LINK}&embed=1`);
  await sim.waitForIdle();
  const timelines = sim.page.locator('.timeline');
  await expect(timelines).toHaveCount(2);
  for (const i of [0, 1]) await expect(timelines.nth(i).locator('.diff-outline')).toHaveCount(2);
  expect(sim.consoleErrors).toEqual([]);
});
