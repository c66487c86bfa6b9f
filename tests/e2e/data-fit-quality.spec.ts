// A fit that shows its quality: costs stopped by a bound are flagged with the likely reason,
// the fit is kept with its dataset across a reload, and it downloads as a preset file.
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';

// Far faster than any preset: the fit runs its costs down to the 1 ns floor.
const CSV = `arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source
x86,tiny-box,4,pcid-pingpong,pcid=on,op_latency,0.002,us,0.001,5,my-lab
x86,tiny-box,4,pcid-pingpong,pcid=off,op_latency,0.003,us,0.001,5,my-lab
`;

test('a fit at its floor is flagged, kept across a reload and downloads as TOML', async ({
  sim,
  page,
}) => {
  test.setTimeout(150_000);
  await sim.openData();
  await sim.pasteCsv(CSV);
  await page.getByRole('button', { name: 'Add 2 measurements to the charts' }).click();
  await page.getByRole('button', { name: /Fit a machine preset to/ }).click();
  const result = page.getByTestId('fit-result');
  await expect(result).toBeVisible({ timeout: 120_000 });
  const flags = result.getByTestId('fit-flags');
  await expect(flags.locator('li').first()).toContainText('ended at its floor (1 ns)');
  await expect(flags.locator('li').first()).toContainText(/too few rows|cannot separate/);
  const rms = await result.locator('[data-fit="rms"]').textContent();
  // The fitted machine is drawn on the chart, through the panel of the dataset's machine.
  const chart = sim.chart('pcid-pingpong', 'op_latency');
  await expect(chart.getByTestId('fitted-legend')).toBeVisible();
  await expect(
    chart.locator('figure.panel', { hasText: 'tiny-box' }).locator('path.fitted-curve'),
  ).toHaveAttribute('d', /^M[\d.]+,[\d.]+L[\d.]+,[\d.]+$/);

  const [file] = await Promise.all([
    page.waitForEvent('download'),
    result.getByRole('button', { name: 'Download the fitted preset (.toml)' }).click(),
  ]);
  const toml = await readFile((await file.path())!, 'utf8');
  expect(toml).toMatch(/^\[machine\]\npreset = "[a-z0-9-]+"$/m);
  const flagged = await flags.locator('li').first().getAttribute('data-param');
  expect(toml).toContain(`${flagged} = 1\n`);

  await page.reload();
  await expect(result).toBeVisible({ timeout: 20_000 });
  await expect(result.locator('[data-fit="rms"]')).toHaveText(rms!);
  await expect(result.locator('tr[data-row]')).toHaveCount(2);
  await expect(flags.locator('li').first()).toContainText('ended at its floor');
  await expect(chart.locator('path.fitted-curve')).toHaveCount(1);
  expect(sim.consoleErrors).toEqual([]);
});
