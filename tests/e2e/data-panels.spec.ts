// The Data view as a reader sees it: one panel per source and machine on its own axis, so the
// seed's 2.5278 vs 2.5508 µs stays visible beside a 14.5 µs local run; whole variant labels;
// measured and predicted marks apart; plots as wide as their card; log and difference axes.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';

const here = dirname(fileURLToPath(import.meta.url));

const centreY = async (l: Locator) => {
  const b = (await l.boundingBox())!;
  return b.y + b.height / 2;
};

test('each source gets its own panel and axis, and the seed’s 1 % difference is visible', async ({
  sim,
}) => {
  await sim.openData();
  const chart = sim.chart('madvise-touch', 'op_latency');
  const seed = chart.locator('.panel', {
    hasText: 'measured on icelake-8336c-128 (zhou-2026-flush-tlb-info-stack)',
  });
  const local = chart.locator('.panel', { hasText: 'local-intel-xeon-processor-2' });
  await expect(seed).toBeVisible();
  // Sources are named for the patch (author, year, topic), never by an id only the project knew.
  await expect(sim.page.locator('body')).not.toContainText(/[Ss]eed-0/);
  await expect(local).toBeVisible();
  const percpu = seed.locator('g.point[data-variant="flush_info=percpu"] [data-kind="measured"]');
  const unaligned = seed.locator(
    'g.point[data-variant="flush_info=stack_unaligned"] [data-kind="measured"]',
  );
  // 2.5278 vs 2.5508 µs: far apart on the seed's own axis (which also spans the predictions,
  // 2.5511–2.5761 µs), not squashed by the 14.5 µs point (a few px).
  expect(Math.abs((await centreY(percpu)) - (await centreY(unaligned)))).toBeGreaterThan(40);
  // The whole variant label, no leading "…".
  const label = local.locator('.x-axis text[data-variant="kernel=6.18.44-fc-v669;busy_threads=1"]');
  await expect(label).toHaveText('kernel=6.18.44-fc-v669;busy_threads=1');
  // Measured and predicted marks do not overlap.
  const m = (await percpu.boundingBox())!;
  const p = (await seed
    .locator('g.point[data-variant="flush_info=percpu"] [data-kind="prediction"]')
    .boundingBox())!;
  expect(p.x).toBeGreaterThanOrEqual(m.x + m.width);
  // The plot uses the card's width.
  const card = (await chart.boundingBox())!;
  const svg = (await seed.locator('svg').boundingBox())!;
  expect(svg.width).toBeGreaterThan(card.width * 0.9);
});

test('the axis can be a log scale or each variant’s difference from the first', async ({ sim }) => {
  await sim.openData();
  const chart = sim.chart('madvise-touch', 'op_latency');
  await chart.getByLabel('log scale').check();
  await expect(chart.locator('.panel svg').first()).toHaveAttribute('data-scale', 'log');
  await chart.getByLabel('% difference from the first variant').check();
  const seed = chart.locator('.panel', { hasText: 'zhou-2026-flush-tlb-info-stack' });
  await expect(seed.locator('.y-label')).toHaveText('op_latency (% vs the first variant)');
  await expect(seed.locator('figcaption')).toContainText('difference from flush_info=percpu');
  await expect(seed.locator('line.zero')).toHaveCount(1);
  await expect(chart.getByLabel('log scale')).toBeDisabled();
});

test('an imported dataset survives a reload until the reader removes it', async ({ sim, page }) => {
  await sim.openData();
  await sim.importCsv(resolve(here, '../fixtures/good.csv'));
  await page.getByRole('button', { name: 'Add 2 measurements to the charts' }).click();
  const kept = page.locator('details.dataset[data-file="good.csv"]');
  // "Kept" is said only once the save has committed, so a reload from then on keeps it.
  await expect(kept).toHaveAttribute('data-kept', 'kept');
  await expect(kept).toContainText('kept in this browser');
  await sim.openData();
  await expect(kept).toContainText('my-lab');
  await expect(page.locator('.overlay-chart').first()).toContainText('(my-lab)');
  await kept.getByRole('button', { name: 'Remove' }).click();
  await expect(kept).toHaveCount(0);
  await sim.openData();
  await expect(page.locator('details.dataset').first()).toBeVisible();
  await expect(kept).toHaveCount(0);
});

test('every prediction has its band, shaded, in its tooltip, and each measurement is placed against it', async ({
  sim,
}) => {
  // The bands' runs follow the predictions'; openData waits for them too.
  await sim.openData();
  const chart = sim.chart('wis-tlb-flush1', 'total_throughput');
  const svg = chart.locator('.panel', { hasText: 'skylake-sp-56' }).locator('svg');
  // One shaded area per curve.
  await expect(svg.locator('path[data-kind="prediction-band"]')).toHaveCount(2);
  const title = await svg
    .locator('g.point[data-variant="tlb_gen_read=always;threads=55;processes=off"] title')
    .textContent();
  const num = (re: RegExp) => Number(re.exec(title ?? '')?.[1].replaceAll(',', ''));
  const predicted = num(/predicted by the tlbscope model \([^)]*\): ([\d,]+) \/s/);
  const low = num(/band ([\d,]+) \/s to/);
  const high = num(/band [\d,]+ \/s to ([\d,]+) \/s/);
  expect(low).toBeLessThan(predicted);
  expect(predicted).toBeLessThan(high);
  // With every request's protocol lines paid for, the model stops scaling as the machine
  // does: 614,363 /s at 55 threads is inside the band, and so is the single thread, whose loop
  // skylake-sp-56 takes from the kit's own run.
  expect(low).toBeLessThanOrEqual(614_363);
  expect(614_363).toBeLessThanOrEqual(high);
  const verdict = (variant: string) =>
    chart.locator('.verdicts li', { hasText: variant }).locator('[data-band]');
  await expect(verdict('tlb_gen_read=always;threads=55;')).toHaveAttribute('data-band', 'inside');
  await expect(verdict('tlb_gen_read=always;threads=1;')).toHaveAttribute('data-band', 'inside');
  await expect(chart.getByTestId('band-legend')).toContainText(/reaches −\d+ % \/ \+\d+ %/);
  // The bands reaching past the plot's top are marked there, each with the end it reaches.
  const cut = svg.locator('[data-kind="band-cut"]').first();
  await expect(cut).toBeAttached();
  await expect(cut.locator('title')).toHaveText(/the band goes on above the chart, to [\d,]+ \/s/);
  await expect(chart.getByTestId('band-legend')).toContainText('the band goes on beyond it');

  const victim = sim.chart('victim-compute', 'victim_time');
  await expect(victim.locator('[data-kind="prediction-band"]')).toHaveCount(1);
  await expect(victim.locator('.verdicts')).toContainText(
    /outside the model's band \([\d.]+ % to [\d.]+ %\)/,
  );
  // The chart says the gap is the model's, and why, rather than leaving the reader to guess.
  await expect(victim).toContainText('left open rather than fitted away');
  expect(sim.consoleErrors).toEqual([]);
});

test('a thread sweep is drawn as curves over the thread count, the model beside the measurement', async ({
  sim,
}) => {
  await sim.openData();
  const chart = sim.chart('wis-tlb-flush1', 'total_throughput');
  const panel = chart.locator('.panel', { hasText: 'skylake-sp-56' });
  const svg = panel.locator('svg');
  await expect(svg).toHaveAttribute('data-sweep', 'threads');
  // 12 thread counts for each kernel, each measured and predicted.
  await expect(svg.locator('[data-kind="measured"]')).toHaveCount(24);
  await expect(svg.locator('[data-kind="prediction"]')).toHaveCount(24);
  await expect(svg.locator('.sweep-key .key-row')).toHaveText([
    'tlb_gen_read=always',
    'tlb_gen_read=when_needed',
  ]);
  await expect(svg.locator('path[data-kind="measured-line"]')).toHaveCount(2);
  await expect(svg.locator('path[data-kind="prediction-line"]')).toHaveCount(2);
  await expect(svg.locator('.x-label')).toHaveText('threads');
  // More threads are further right on the axis.
  const x = async (t: number) =>
    (await svg
      .locator(
        `g.point[data-variant="tlb_gen_read=always;threads=${t};processes=off"] [data-kind="measured"]`,
      )
      .boundingBox())!.x;
  expect(await x(1)).toBeLessThan(await x(10));
  expect(await x(10)).toBeLessThan(await x(55));
  // The source's own number and unit, and the rule that converts the model's.
  await expect(
    svg.locator('g.point[data-variant="tlb_gen_read=always;threads=55;processes=off"] title'),
  ).toContainText('614,363 /s');
  await expect(chart).toContainText('threads × 10^9 / op_latency_ns');

  const victim = sim.chart('victim-compute', 'victim_time');
  await expect(victim.locator('[data-kind="measured"]')).toHaveCount(1);
  await expect(victim.locator('[data-kind="prediction"]')).toHaveCount(1);
  await expect(victim.locator('.verdicts')).toContainText(/off by [\d.]+ points/);
  expect(sim.consoleErrors).toEqual([]);
});
