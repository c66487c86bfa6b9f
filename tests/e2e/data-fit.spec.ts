// Fitting a machine to one's own CSV in the page: the fit runs in a worker on the same WASM
// build, every row's residual is shown and agrees with a run of the fitted costs, and any
// scenario opens with the fitted machine.
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import type { Stats } from '../../web/src/trace/trace';
import { expect, test } from './fixtures';

const CSV = `arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source
x86,my-laptop,4,pcid-pingpong,pcid=on,op_latency,1.22,us,0.01,5,my-lab
x86,my-laptop,4,pcid-pingpong,pcid=off,op_latency,1.40,us,0.01,5,my-lab
`;

test('a preset fitted to an imported CSV, with residuals, runs in any scenario', async ({
  sim,
  page,
}) => {
  test.setTimeout(120_000);
  await sim.openData();
  await sim.pasteCsv(CSV);
  await page.getByRole('button', { name: 'Add 2 measurements to the charts' }).click();
  await page.getByRole('button', { name: /Fit a machine preset to/ }).click();
  const result = page.getByTestId('fit-result');
  await expect(result).toBeVisible({ timeout: 90_000 });
  await expect(result.locator('tr[data-row]')).toHaveCount(2);

  // The page's prediction for the pcid=on row is what the fitted costs give in Node.
  const params = await result
    .locator('tr[data-param]')
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute('data-param')!,
        /(\d+) ns/.exec(tr.children[2].textContent!)![1],
      ]),
    );
  expect(params.length).toBeGreaterThan(0);
  const preset = (await result.locator('code').first().textContent())!;
  const overrides = [`machine=${preset}`, ...params.map(([k, v]) => `costs.${k}=${v}`)];
  initSimulatorForNode();
  const on = runScenario(readScenario('x86-pcid-pingpong-bench'), {
    overrides: [...overrides, 'pcid=on'],
  }).summary.op_latency_ns as Stats;
  const row = result.locator('tr[data-row]').first();
  await expect(row.locator('td').nth(3)).toHaveText(`${(on.mean / 1000).toFixed(4)} µs`);
  const pct = Number(await row.locator('[data-residual-pct]').getAttribute('data-residual-pct'));
  expect(pct).toBeCloseTo((on.mean / 1220 - 1) * 100, 6);

  // The fit ran x86-pcid-pingpong-bench; its x86 preset is offered to x86 scenarios only.
  const pick = result.getByRole('combobox');
  await expect(pick).toHaveValue('x86-pcid-pingpong-bench');
  await expect(pick.locator('option[value="arm64-asid-rollover"]')).toHaveCount(0);
  // Use the fitted machine in another scenario.
  await result.getByRole('combobox').selectOption('x86-munmap-shootdown');
  const link = page.getByTestId('use-fitted');
  for (const o of overrides) {
    expect(await link.getAttribute('href')).toContain(`set=${encodeURIComponent(o)}`);
  }
  await link.click();
  await sim.waitForIdle();
  await expect(page.locator('[data-run-title]')).toContainText('What a TLB shootdown is');
  await expect(page.locator('[data-setting="machine"]').first()).toHaveValue(preset);
  await expect(page.locator('[data-control-source="machine"]').first()).toHaveText('yours');
});
