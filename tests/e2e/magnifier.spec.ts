// A step that names a few ns inside a microseconds-wide window (arm64 per-CPU access: the
// 5 ns non-preemptible window of one this_cpu_inc()) shows that stretch enlarged under the
// lanes, with its time range, so its events can be told apart.
import { expect, test } from './fixtures';

test('a step’s few-ns stretch is drawn magnified, its events wide enough to tell apart', async ({
  sim,
}, info) => {
  const { page } = sim;
  await sim.open({ scenario: 'arm64-percpu-cpu-id', step: 1 });
  const inset = page.locator('.timeline g.magnifier');
  await expect(inset).toHaveAttribute('data-from', '1435');
  await expect(inset).toHaveAttribute('data-to', '1450');
  await expect(inset.locator('.magnifier-label')).toHaveText('1.435 µs–1.45 µs');
  await expect(inset.locator('.magnifier-times')).toHaveText(/^magnified ×\d+$/);
  // On the main lanes the 5 ns window is a sliver; in the inset, well over 24 px.
  const main = await page
    .locator('.timeline g.spans rect[data-kind="PreemptOff"][data-cpu="1"]')
    .first()
    .boundingBox();
  expect(main?.width ?? 0).toBeLessThan(24);
  const big = await inset.locator('rect[data-kind="PreemptOff"]').boundingBox();
  expect(big?.width ?? 0).toBeGreaterThanOrEqual(24);
  // Every event of the stretch on CPU 1: the count going up and down, and the preemption.
  await expect(inset.locator('rect[data-kind="PreemptCountOp"]')).toHaveCount(2);
  await expect(inset.locator('rect[data-kind="TaskPreempted"]')).toHaveCount(1);
  // Its two ends sit at least 24 px apart from the window's middle: the count drops at 1445.
  const ops = await inset.locator('rect[data-kind="PreemptCountOp"]').all();
  const [a, b] = await Promise.all(ops.map((o) => o.boundingBox()));
  expect(Math.abs((b?.x ?? 0) - (a?.x ?? 0))).toBeGreaterThanOrEqual(24);
  // The inset lies under CPU 1's lane, covering none of its marks.
  const frame = await inset.locator('.magnifier-frame').boundingBox();
  const run = await page
    .locator('.timeline g.spans rect[data-kind="TaskRun"][data-cpu="1"]')
    .first()
    .boundingBox();
  expect(frame?.y ?? 0).toBeGreaterThanOrEqual((run?.y ?? Infinity) + (run?.height ?? 0));
  await page.locator('.timeline').screenshot({ path: info.outputPath('magnifier.png') });

  // The next step's window is 200 ns wide and names no stretch: no inset.
  await page.getByRole('button', { name: 'Next step →' }).click();
  await expect(page.locator('[data-step-title]')).toHaveText(
    'A loop of this_cpu_inc(): a window per increment',
  );
  await expect(page.locator('.timeline g.magnifier > *')).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});
