// A long recording is drawn while its worker still reads it: the rows read so far, per CPU and
// time (recording/sketch.ts), grow on the page before the import ends, so seconds of reading
// are not seconds of a bare progress bar.
import { writeTracefs } from '../../bench/gen-tracefs.mjs';
import { expect, test } from './fixtures';

interface Seen {
  rows: number;
  cells: number;
  at: number;
}

test('a 550,000-line recording is sketched as it is read, growing before the import ends', async ({
  sim,
}) => {
  test.setTimeout(180_000);
  await sim.open();
  const page = sim.page;
  // Every change of the sketch, stamped, to compare with the import's end mark afterwards.
  await page.evaluate(() => {
    const seen: Seen[] = [];
    (window as unknown as { __sketch: Seen[] }).__sketch = seen;
    new MutationObserver(() => {
      const c = document.querySelector<HTMLCanvasElement>('.import-sketch canvas');
      if (!c) return;
      const rows = Number(c.dataset.rows);
      if (seen.at(-1)?.rows === rows) return;
      seen.push({ rows, cells: Number(c.dataset.cells ?? 0), at: performance.now() });
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  // Written to a file: Playwright hands a buffer over 50 MB to the page only by path.
  const path = test.info().outputPath('long.trace');
  const lines = await writeTracefs(path, 550_000, 16);
  expect(lines).toBeGreaterThanOrEqual(500_000);
  await page.setInputFiles('#recording-input', path);
  await expect(page.getByRole('img', { name: /rows read so far on \d+ CPUs/ })).toBeVisible();
  const loaded = page.getByTestId('recording-loaded');
  await expect(loaded).toContainText('long.trace', { timeout: 150_000 });
  const rows = Number(
    /([\d,]+) rows on 16 CPUs/.exec((await loaded.textContent()) ?? '')?.[1].replace(/,/g, ''),
  );
  const { seen, done } = await page.evaluate(() => ({
    seen: (window as unknown as { __sketch: Seen[] }).__sketch,
    done: performance.getEntriesByName('tlbscope:import-done').at(-1)?.startTime ?? NaN,
  }));
  const before = seen.filter((s) => s.at < done);
  expect(before.length).toBeGreaterThanOrEqual(2);
  // It grew while reading: more rows each time, drawn in cells, never more than the recording's.
  for (let i = 1; i < before.length; i++)
    expect(before[i].rows).toBeGreaterThan(before[i - 1].rows);
  expect(before[0].rows).toBeGreaterThan(0);
  expect(before.at(-1)!.cells).toBeGreaterThan(0);
  expect(before.at(-1)!.rows).toBeLessThanOrEqual(rows);
  // The sketch is gone with the progress once the recording is drawn.
  await expect(page.locator('.import-sketch')).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});
