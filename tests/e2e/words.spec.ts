// Words on the page that must agree with what the page shows: the run's machine size in the
// title, statistics without samples, a mean above p99, and A/B steps that name their sides.
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import type { Stats } from '../../web/src/trace/trace';
import { formatNs } from '../../web/src/viz/scales';
import { expect, test } from './fixtures';

test('the title states the CPU count of the run, not of the file, after cpus=64', async ({
  sim,
}) => {
  await sim.open({ set: ['cpus=64'] });
  await expect(sim.page.locator('[data-run-title]')).toHaveText(
    'What a TLB shootdown is: munmap on a 64-CPU machine',
  );
});

test('a statistic with no samples reads "no samples", never 0 ns', async ({ sim }) => {
  await sim.open({ scenario: 'arm64-asid-rollover' });
  const off = sim.page.locator('[data-summary="Initiator preemption off (p99 / max)"]');
  await expect(off).toHaveText('no samples');
  await expect(sim.page.locator('.summary dd', { hasText: /^0 ns$/ })).toHaveCount(0);
  await expect(sim.page.locator('[data-summary="ASID rollovers"]')).not.toHaveText('0');
});

test('an operation latency whose mean is above p99 shows p50 and says why', async ({ sim }) => {
  initSimulatorForNode();
  const op = runScenario(readScenario('x86-pcid-pingpong')).summary.op_latency_ns as Stats;
  await sim.open({ scenario: 'x86-pcid-pingpong' });
  await expect(
    sim.page.locator('[data-summary="Operation latency (p50 / p99 / max / mean)"]'),
  ).toHaveText([op.p50, op.p99, op.max, op.mean].map(formatNs).join(' / '));
  const note = sim.page.locator('[data-summary-note="mean-above-p99"]');
  await expect(note).toContainText('The mean is above p99');
  await expect(note).toContainText(formatNs(op.max));
});

test('an A/B step names the sides A and B, as the timelines are labelled', async ({ sim }) => {
  await sim.open({ scenario: 'x86-flush-info-story', step: 5 });
  await expect(sim.page.locator('.timeline')).toHaveCount(2);
  const text = sim.page.locator('.narration');
  await expect(text).toContainText('A: the 2026 design');
  await expect(text).not.toContainText(/\b(Left|Right):/);
  await expect(sim.page.locator('.timeline-label').first()).toHaveText(/^A: /);
  await expect(sim.page.locator('.timeline-label').nth(1)).toHaveText(/^B: /);
});

test('a race id in a step title links to its explanation, and no text cites a private id', async ({
  sim,
}) => {
  await sim.open({ scenario: 'arm64-asid-rollover', step: 4 });
  const title = sim.page.locator('[data-step-title]');
  await expect(title).toContainText('R17: the fast path against a rollover');
  await expect(title.locator('a[data-doc-id="R17"]')).toHaveAttribute(
    'href',
    /(^|\/)docs\/model\.html#r17$/,
  );
  await expect(sim.page.locator('body')).not.toContainText(/§|kernel-mechanics|[Ss]eed 00/);
});
