// The kernel history slider: the table's figures are the simulator's (the CLI's `history`
// prints the same runs), moving the slider re-runs A with that kernel's toggles (the controls
// credit them to the kernel, the link keeps the kernel), and { / } step it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Locator } from '@playwright/test';
import { formatNs } from '../../web/src/viz/scales';
import { expect, test } from './fixtures';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCENARIO = 'x86-flush-info-story';

interface CliStep {
  kernel: string;
  change: string;
  opLatencyNs: number | null;
  flushLatencyNs: number;
  preemptOffMaxNs: number;
  ipis: number;
  violated: string[];
}

/** What `tlbscope history` prints for the scenario: the page must show the same runs. */
function cliHistory(scenario: string): CliStep[] {
  const out = execFileSync(
    'node',
    ['web/cli/tlbscope.mjs', 'history', scenario, '--format', 'json'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out) as CliStep[];
}

const ns = (cell: Locator) => cell.getAttribute('data-ns').then((v) => Number(v));

test('the history table shows each kernel’s run as tlbscope history computes it', async ({
  sim,
}) => {
  const cli = cliHistory(SCENARIO);
  await sim.open({ scenario: SCENARIO });
  const page = sim.page;
  await page.getByRole('checkbox', { name: 'Kernel history' }).check();
  const panel = page.locator('.kernel-history');
  await expect(panel).toBeVisible();
  await expect(panel.locator('[data-history-progress]')).toHaveCount(0, { timeout: 20_000 });
  await expect(panel.locator('tbody[data-kernel]')).toHaveCount(cli.length);
  for (const step of cli) {
    const row = panel.locator(`tbody[data-kernel="${step.kernel}"]`);
    expect(await ns(row.locator('[data-field="flush"]'))).toBe(step.flushLatencyNs);
    expect(await ns(row.locator('[data-field="preempt"]'))).toBe(step.preemptOffMaxNs);
    await expect(row.locator('[data-field="ipis"]')).toContainText(String(step.ipis));
    await expect(row.locator('[data-field="safety"]')).toContainText(
      step.violated.length ? `breaks ${step.violated.join(', ')}` : 'safe',
    );
    // The commit ids of the step, as code.
    for (const id of step.change.match(/\b[0-9a-f]{12}\b/g) ?? [])
      await expect(row.locator('code.commit', { hasText: id })).toHaveCount(1);
  }
  // Each figure's change is against the kernel above it.
  for (let i = 1; i < cli.length; i++) {
    const d = cli[i].preemptOffMaxNs - cli[i - 1].preemptOffMaxNs;
    const delta = panel.locator(
      `tbody[data-kernel="${cli[i].kernel}"] [data-field="preempt"] .delta`,
    );
    await expect(delta).toHaveText(
      d === 0 ? 'no change' : `${d > 0 ? '+' : '−'}${formatNs(Math.abs(d))}`,
    );
  }
  // The panel is usable with a screen reader and the keyboard in both themes.
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    const results = await new AxeBuilder({ page }).include('.kernel-history').analyze();
    const serious = results.violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(
      serious.map((v) => `${theme} ${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
    ).toEqual([]);
  }
  // Where the numbers come from.
  await expect(panel.locator('[data-history-source]')).toContainText(
    `generic-x86 machine preset: scenario ${SCENARIO}, seed 1`,
  );
  expect(sim.consoleErrors).toEqual([]);
});

test('moving the slider runs A as that kernel, and the link keeps it', async ({ sim }) => {
  const cli = cliHistory(SCENARIO);
  const last = cli[cli.length - 1];
  const before = cli[cli.length - 2];
  // The model's 2026 kernel waits preemptibly: its longest preempt-off is the shorter one.
  expect(last.preemptOffMaxNs).toBeLessThan(before.preemptOffMaxNs);

  await sim.open({ scenario: SCENARIO });
  const page = sim.page;
  await page.getByRole('checkbox', { name: 'Kernel history' }).check();
  const slider = page.getByRole('slider', { name: 'Kernel' });
  await slider.fill(String(cli.length - 1));
  await sim.waitForIdle();
  await expect(page).toHaveURL(new RegExp(`set=kernel%3D${last.kernel.replace('.', '\\.')}`));
  await expect(page.locator('[data-setting="preempt"]')).toHaveValue('preemptible_wait');
  await expect(page.locator('[data-setting="flush_info"]')).toHaveValue('stack');
  await expect(page.locator('[data-control-source="preempt"]')).toHaveText(`Linux ${last.kernel}`);
  await expect(page.locator(`tbody[data-kernel="${last.kernel}"]`)).toHaveAttribute(
    'aria-current',
    'true',
  );
  await expect(page.locator('[data-history-now]')).toContainText(`Linux ${last.kernel}`);
  // The timeline's run is the table's row: the summary's max preempt-off is that kernel's.
  await expect(page.locator('[data-summary="Initiator preemption off (p99 / max)"]')).toContainText(
    formatNs(last.preemptOffMaxNs),
  );

  // { steps back one kernel, with its own toggles.
  await page.locator('body').press('Shift+BracketLeft');
  await sim.waitForIdle();
  await expect(page).toHaveURL(new RegExp(`set=kernel%3D${before.kernel.replace('.', '\\.')}`));
  await expect(page.locator('[data-setting="preempt"]')).toHaveValue('pinned');
  await expect(page.locator('[data-summary="Initiator preemption off (p99 / max)"]')).toContainText(
    formatNs(before.preemptOffMaxNs),
  );

  // The link reopens on that kernel, with the history shown.
  await page.reload();
  await sim.waitForIdle();
  await expect(page.getByRole('slider', { name: 'Kernel' })).toHaveValue(String(cli.length - 2));
  await expect(page.locator('[data-setting="preempt"]')).toHaveValue('pinned');
  // The table came from the page's own cache before the reload: it runs again and agrees.
  await expect(page.locator('[data-history-progress]')).toHaveCount(0, { timeout: 20_000 });
  expect(await ns(page.locator(`tbody[data-kernel="${last.kernel}"] [data-field="preempt"]`))).toBe(
    last.preemptOffMaxNs,
  );
});

test('an arm64 run offers no kernel history', async ({ sim }) => {
  await sim.open({ scenario: 'arm64-mprotect-skip-broadcast' });
  await expect(sim.page.getByRole('checkbox', { name: 'Kernel history' })).toHaveCount(0);
  await sim.page.locator('body').press('Shift+BracketRight');
  await sim.waitForIdle();
  await expect(sim.page).not.toHaveURL(/kernel%3D/);
});

test('switching a kernel’s run to arm64 drops the kernel and its x86 toggles', async ({ sim }) => {
  await sim.open({ scenario: SCENARIO });
  const page = sim.page;
  await page.locator('body').press('Shift+BracketRight');
  await sim.waitForIdle();
  await expect(page).toHaveURL(/set=kernel%3D/);
  await page.locator('[data-setting="arch"]').selectOption('arm64');
  await sim.waitForIdle();
  await expect(page.locator('.error-panel')).toHaveCount(0);
  await expect(page).not.toHaveURL(/kernel%3D|flush_info%3D|pcid%3D/);
  await expect(page.locator('.summary')).toContainText('retargeted at arm64');
  await expect(page.getByRole('checkbox', { name: 'Kernel history' })).toHaveCount(0);
});
