// A large import of one series (issue 37): drawn as bins with a bounded DOM, and once kept it
// no longer takes the Data view down on the next visit; it can always be removed.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const HEADER = 'arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source';

function oneSeries(rows: number): string {
  const out = [HEADER];
  for (let i = 0; i < rows; i++)
    out.push(
      `x86,icelake-8336c-128,1,madvise-touch,flush_info=stack;kernel=v${i},op_latency,${(2 + (i % 97) / 100).toFixed(2)},us,0.1,5,lab`,
    );
  return `${out.join('\n')}\n`;
}

const domNodes = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

test('20,000 variants of one series: binned, bounded, kept, listed on reload, removable', async ({
  sim,
  page,
}) => {
  test.setTimeout(150_000);
  await sim.openData();
  await sim.importCsv({ name: 'one-series.csv', buffer: Buffer.from(oneSeries(20_000)) });
  await page
    .getByRole('button', { name: 'Add 20000 measurements to the charts' })
    .click({ timeout: 30_000 });
  const kept = page.locator('details.dataset[data-file="one-series.csv"]');
  await expect(kept).toHaveAttribute('data-kept', 'kept', { timeout: 30_000 });
  const chart = sim.chart('madvise-touch', 'op_latency');
  await expect(chart.getByTestId('binned-note').first()).toContainText(
    '20,000 variants drawn as 200 bins of 100 consecutive variants',
  );
  await expect(chart.locator('svg[data-binned="200"] g.bin')).toHaveCount(200);
  await expect(chart.getByTestId('verdicts-more')).toContainText(/and 19,8\d\d more/);
  await expect(chart.locator('.verdicts li')).toHaveCount(201);
  const drawn = await domNodes(page);
  console.log(`DOM nodes with 20,000 variants drawn: ${drawn}`);
  expect(drawn).toBeLessThan(10_000);

  // The next visit opens with the kept import listed, not drawn, and usable at once.
  await page.reload();
  const list = page.getByTestId('kept-list');
  await expect(list).toContainText('one-series.csv — 20,000 numbers', { timeout: 20_000 });
  await expect(kept).toHaveCount(0);
  expect(await domNodes(page)).toBeLessThan(10_000);
  // Drawing it on request works, and so does removing it from there.
  // As long as the first draw may take: its predictions and their bands run again.
  await list.getByRole('button', { name: 'Draw the kept imports' }).click();
  await expect(kept).toHaveAttribute('data-kept', 'kept', { timeout: 30_000 });
  await expect(list).toHaveCount(0);
  await page.reload();
  await list.getByRole('button', { name: 'Remove one-series.csv' }).click();
  await expect(list).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.data-view')).toHaveAttribute('data-state', 'idle', {
    timeout: 60_000,
  });
  await expect(list).toHaveCount(0);
  await expect(kept).toHaveCount(0);
  await expect(page.getByTestId('kept-note')).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});
