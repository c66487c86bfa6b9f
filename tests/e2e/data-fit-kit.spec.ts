// A fit of this machine's own benchmark-kit run (content/datasets/local-amd-epyc-2-tlb-flush.csv,
// measured with bench/kit on this AMD EPYC VM): every fitted row's residual is shown, as the CLI
// computes it for the same file, and no cost is flagged that did not stop at a bound. Fitting it
// together with the other kit run (an Intel VM) asks one machine to be two: costs are driven
// to their floor, and the page says so, cost by cost.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';

const AMD = 'content/datasets/local-amd-epyc-2-tlb-flush.csv';
const INTEL = 'content/datasets/local-intel-xeon-processor-2.csv';

interface CliFit {
  params: { name: string; value: number; bounds: [number, number]; identifiable: boolean }[];
  residuals: { line: number; measured_ns: number; residual_pct: number }[];
}

/** What `tlbscope fit` reports for a file: the same fit core on the same WASM build. */
function cliFit(file: string): CliFit {
  const r = spawnSync('node', ['web/cli/tlbscope.mjs', 'fit', file, '--format', 'json'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as CliFit;
}

test('the kit run of this machine: residuals per row, as the CLI gives them', async ({
  sim,
  page,
}) => {
  test.setTimeout(180_000);
  const cli = cliFit(AMD);
  await sim.openData();
  await sim.importCsv({ name: 'my-kit-run.csv', buffer: readFileSync(AMD) });
  await page.getByRole('button', { name: 'Add 16 measurements to the charts' }).click();
  await page.getByRole('button', { name: 'Fit a machine preset to my-kit-run.csv' }).click();
  const result = page.getByTestId('fit-result');
  await expect(result).toBeVisible({ timeout: 150_000 });
  // The op_latency rows are fitted (the best-run rows are named as not fitted), each shown.
  const rows = result.locator('tr[data-row]');
  await expect(rows).toHaveCount(8);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.row)))).toEqual(
    cli.residuals.map((x) => x.line),
  );
  for (const [i, x] of cli.residuals.entries()) {
    const row = rows.nth(i);
    await expect(row.locator('td').nth(2)).toHaveText(`${(x.measured_ns / 1000).toFixed(4)} µs`);
    const pct = Number(await row.locator('[data-residual-pct]').getAttribute('data-residual-pct'));
    expect(pct).toBeCloseTo(x.residual_pct, 6);
  }
  // The 2-thread shared-mm row is the one the model misses by most, and the page shows it.
  await expect(result.locator('tr[data-row="6"] [data-residual-pct]')).toHaveText(/^-\d+\.\d\d %$/);
  await expect(result).toContainText('Not fitted: row 3 (the mean of the same variant is used');
  // No cost of this fit stopped at a bound, so none is flagged.
  expect(cli.params.some((p) => p.value <= p.bounds[0] || p.value >= p.bounds[1])).toBe(false);
  await expect(result.getByTestId('fit-flags')).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});

test('two machines’ kit runs fitted as one: the costs at their floor are flagged', async ({
  sim,
  page,
}) => {
  test.setTimeout(300_000);
  const both = `${readFileSync(AMD, 'utf8')}${readFileSync(INTEL, 'utf8').split('\n').slice(1).join('\n')}`;
  await sim.openData();
  await sim.importCsv({ name: 'two-kit-runs.csv', buffer: Buffer.from(both) });
  await page.getByRole('button', { name: 'Add 24 measurements to the charts' }).click();
  await page.getByRole('button', { name: 'Fit a machine preset to two-kit-runs.csv' }).click();
  const result = page.getByTestId('fit-result');
  await expect(result).toBeVisible({ timeout: 280_000 });
  await expect(result.locator('tr[data-row]')).toHaveCount(12);
  const flags = result.getByTestId('fit-flags');
  const flagged = await flags
    .locator('li')
    .evaluateAll((lis) => lis.map((li) => li.getAttribute('data-param')));
  // full_flush_ns is 32 ns in the preset; no one machine fits both runs and it is driven to 1 ns.
  expect(flagged).toContain('full_flush_ns');
  await expect(flags.locator('li[data-param="full_flush_ns"]')).toContainText(
    'ended at its floor (1 ns), so its value is not measured: the data cannot separate full_flush_ns from',
  );
  await expect(result.locator('tr[data-param="full_flush_ns"]')).toContainText('1 ns at its floor');
  // Each flagged cost is one the fit left at a bound: its floor (1 ns) or its ceiling.
  for (const name of flagged)
    await expect(result.locator(`tr[data-param="${name}"] td`).nth(1)).toHaveText(
      /at its (floor|ceiling)$/,
    );
  expect(sim.consoleErrors).toEqual([]);
});
