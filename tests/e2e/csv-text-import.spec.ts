// The text-import step (issue 30): files as spreadsheets and tools write them, read after the
// preview shows how they were split, with what was detected open to change.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from './fixtures';

const fixture = (name: string) => resolve('tests/fixtures', name);

test('a spreadsheet export: title and units rows, `;`, decimal commas', async ({ sim, page }) => {
  await sim.openData();
  await sim.importCsv(fixture('spreadsheet-export.csv'));
  const step = page.getByTestId('text-import');
  await expect(step.getByLabel('Separator')).toHaveValue(';');
  await expect(step.getByLabel('Decimal mark')).toHaveValue(',');
  await expect(step.getByLabel('Header row')).toHaveValue('3');
  await expect(step.locator('tr[data-role="skipped"] th')).toHaveText('1');
  await expect(step.locator('tr[data-role="units"] th')).toHaveText('4');
  await expect(page.getByTestId('text-import-notes')).toContainText(
    'Decimal mark: comma (0,412 is 0.412).',
  );
  // Read with a decimal point instead, 2,412 is not a number: the rows are refused.
  await step.getByLabel('Decimal mark').selectOption('.');
  await expect(
    page.getByRole('button', { name: 'Add 0 measurements to the charts' }),
  ).toBeVisible();
  await step.getByLabel('Decimal mark').selectOption(',');
  await page.getByRole('button', { name: 'Add 3 measurements to the charts' }).click();
  const table = page.locator('details.dataset[data-file="spreadsheet-export.csv"]');
  await expect(table.locator('tbody tr').first()).toContainText('2.412 us');
  await expect(table.locator('tbody tr').nth(2)).toContainText('1234.5 us');
  await expect(table.getByTestId('import-recipe')).toContainText('Separator: “;”.');
  // The recipe is kept with the dataset.
  await page.reload();
  await expect(table.getByTestId('import-recipe')).toContainText('value ← “value”');
  // The columns are the schema's own; only the decimal mark the reader chose needs a flag.
  await expect(table.getByTestId('cli-map')).toHaveText('--decimal ,');
  expect(sim.consoleErrors).toEqual([]);
});

test('will-it-scale output: per-operation latency by the stated rule', async ({ sim, page }) => {
  await sim.openData();
  await sim.importCsv(fixture('will-it-scale.csv'));
  const step = page.getByTestId('text-import');
  await expect(step).toHaveAttribute('data-format', 'will-it-scale');
  await expect(page.getByTestId('text-import-notes')).toContainText(
    'latency per operation = threads / ops_per_sec',
  );
  await step.getByLabel('Fixed machine').fill('icelake-8336c-128');
  await step.getByLabel('Fixed benchmark').fill('page_fault1');
  await step.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('text-import-notes')).toContainText(
    'machine = “icelake-8336c-128” for every row.',
  );
  await page.getByRole('button', { name: 'Add 6 measurements to the charts' }).click();
  const table = page.locator('details.dataset[data-file="will-it-scale.csv"]');
  // 2 threads at 2,870,112 ops/s: 696.837 ns an operation.
  await expect(
    table.locator('tbody tr').filter({ hasText: 'threads=2;processes=off' }),
  ).toContainText('696.837 ns');
  await expect(table.locator('tbody tr').first()).toContainText('icelake-8336c-128');
  // The same numbers from `tlbscope fit` need the values fixed here (web/cli/textImport.test.mjs).
  await expect(table.getByTestId('cli-map')).toHaveText(
    '--fix machine=icelake-8336c-128 --fix benchmark=page_fault1',
  );
  expect(sim.consoleErrors).toEqual([]);
});

test('`perf stat -x,` output: events as metrics, <not counted> named', async ({ sim, page }) => {
  await sim.openData();
  await sim.importCsv(fixture('perf-stat.csv'));
  await expect(page.getByTestId('text-import')).toHaveAttribute('data-format', 'perf-stat');
  await expect(page.getByTestId('text-import-notes')).toContainText(
    'Not counted, so left out: tlb:tlb_flush (<not counted>)',
  );
  await page.getByRole('button', { name: 'Add 3 measurements to the charts' }).click();
  const table = page.locator('details.dataset[data-file="perf-stat.csv"]');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table.locator('tbody tr').nth(1)).toContainText('dTLB-load-misses');
  await expect(table.locator('tbody tr').nth(1)).toContainText('48213 count');
  expect(sim.consoleErrors).toEqual([]);
});

test('a per-event CSV on the Data view opens in the explorer’s event overlay', async ({
  sim,
  page,
}) => {
  await sim.openData();
  await sim.importCsv(fixture('measured-events.csv'));
  const offer = page.getByTestId('events-offer');
  await expect(offer).toContainText('This is a per-event CSV');
  await offer.getByRole('button', { name: /Open it in the explorer.s event overlay/ }).click();
  await expect(page.getByTestId('measured-summary')).toContainText(
    '3 events from measured-events.csv, drawn under each CPU lane: measured on local-test-vm (ftrace)',
    { timeout: 20_000 },
  );
  await expect(page.locator('.timeline g.measured g.measured-mark')).toHaveCount(3);
  // Taken once: a reload does not bring it back.
  await page.reload();
  await expect(page.locator('.timeline')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('measured-summary')).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});

test('the mapping travels with the dataset, as the CLI’s --map flags', async ({ sim, page }) => {
  await sim.openData();
  await sim.pasteCsv(
    'Host,bench,config,metric,mean,unit\nicelake-8336c-128,madvise-touch,flush_info=stack,op_latency,2.6,us\n',
  );
  await page.getByRole('button', { name: 'Add 1 measurements to the charts' }).click();
  const table = page.locator('details.dataset[data-file="pasted text"]');
  await expect(table.getByTestId('cli-map')).toHaveText(
    '--map machine=Host --map benchmark=bench --map variant=config --map value=mean',
  );
  await page.reload();
  await expect(table.getByTestId('cli-map')).toContainText('--map value=mean');
});

test('a kept dataset exported as CSV imports back as the same numbers, its recipe inside', async ({
  sim,
  page,
}) => {
  await sim.openData();
  await sim.importCsv(fixture('spreadsheet-export.csv'));
  await page.getByRole('button', { name: 'Add 3 measurements to the charts' }).click();
  const table = page.locator('details.dataset[data-file="spreadsheet-export.csv"]');
  const cells = (t: typeof table) =>
    t.locator('tbody tr').evaluateAll((rows) =>
      // Every column but the last: the row numbers are the export's, not the original's.
      rows.map((r) => [...r.querySelectorAll('td')].slice(0, -1).map((td) => td.textContent)),
    );
  // Read once its three rows are drawn: under load the click returns before they are.
  await expect(table.locator('tbody tr')).toHaveCount(3);
  const before = await cells(table);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    table.getByRole('button', { name: 'Export spreadsheet-export.csv as CSV' }).click(),
  ]);
  const text = readFileSync(await download.path(), 'utf8');
  expect(text).toContain('# How spreadsheet-export.csv was read: ');
  expect(text).toContain('Decimal mark: comma');
  await sim.importCsv({ name: 'again.csv', buffer: Buffer.from(text) });
  await expect(page.getByTestId('text-import-notes')).toContainText(
    'Lines starting with # are comments: skipped.',
  );
  await page.getByRole('button', { name: 'Add 3 measurements to the charts' }).click();
  const again = page.locator('details.dataset[data-file="again.csv"]');
  await expect(again.locator('tbody tr')).toHaveCount(3);
  expect(await cells(again)).toEqual(before);
  expect(before[2]).toContain('1234.5 us');
  expect(sim.consoleErrors).toEqual([]);
});
