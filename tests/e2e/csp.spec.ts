// The production page carries a strict Content-Security-Policy, and nothing it does breaks it:
// the simulator's worker and WASM, the CSV worker, the timelines and the thumbnails.
import { resolve } from 'node:path';
import { expect, test } from './fixtures';

test('the built page sets a strict CSP and every view works under it', async ({ sim }) => {
  const { page } = sim;
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await sim.openHome();
  const csp = await page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute('content');
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  await expect(page.locator('.card canvas, .card svg').first()).toBeVisible();

  await sim.open({ scenario: 'x86-munmap-shootdown' });
  await expect(sim.marks('IpiHandler')).toHaveCount(3);

  await sim.openData();
  await sim.importCsv(resolve('tests/fixtures/good.csv'));
  await expect(sim.importPreview()).toContainText('good.csv: 2 data rows');

  const violations = await page.evaluate(
    () => (window as unknown as { cspViolations: string[] }).cspViolations,
  );
  expect(violations).toEqual([]);
  expect(sim.consoleErrors).toEqual([]);
});
