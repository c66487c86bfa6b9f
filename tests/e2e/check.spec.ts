// "Check all interleavings" in the page: the check runs in the simulator's worker, its
// counterexample opens as A's timeline with numbered steps, and the reader steps through it.
// The expected verdicts come from the same WASM build's checker run in Node.
import AxeBuilder from '@axe-core/playwright';
import { finishCheck, openChecker } from '../../web/src/sim/check';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { expect, test } from './fixtures';

function expected(id: string, set: string[] = []) {
  initSimulatorForNode();
  const { report, counterexample } = finishCheck(
    openChecker(readScenario(id), set),
    () => {},
    () => 0,
  );
  counterexample?.free();
  return report;
}

test('a check of R6 opens its counterexample, numbered, narrated and stepped', async ({ sim }) => {
  test.setTimeout(90_000);
  const page = sim.page;
  const want = expected('x86-r6-lazy-freed-tables');
  const cx = want.counterexample!;
  const last = cx.steps.length;
  await sim.open({ scenario: 'x86-r6-lazy-freed-tables' });
  await page.getByRole('button', { name: 'Check all interleavings' }).click();
  const verdict = page.locator('[data-verdict][data-side="A"]');
  await expect(verdict).toContainText(`Violated: invariant I4 in ${last} steps`, {
    timeout: 60_000,
  });
  await expect(verdict).toContainText(`${want.states.toLocaleString('en-US')} states`);
  // The invariant's id is a link to its explanation in the model's documentation.
  await expect(verdict.locator('a[data-doc-id="I4"]')).toHaveAttribute(
    'href',
    /(^|\/)docs\/model\.html#i4$/,
  );
  await expect(page.locator('[data-narration] a[data-doc-id="I4"]')).toHaveAttribute(
    'href',
    /(^|\/)docs\/model\.html#i4$/,
  );
  await sim.waitForIdle();
  expect(page.url()).toContain('view=counterexample');

  // Every step numbered on the timeline, on its CPU's lane; the violation's badge is red.
  const badges = page.locator('.timeline g.cx-step');
  await expect(badges).toHaveCount(last);
  for (const s of cx.steps)
    await expect(page.locator(`.timeline g.cx-step[data-step="${s.n}"]`)).toHaveAttribute(
      'data-cpu',
      String(s.cpu),
    );
  await expect(page.locator('.timeline g.cx-step.violation')).toHaveAttribute(
    'data-step',
    String(cx.violation_step),
  );
  await expect(page.locator('[data-narration]')).toContainText(
    `I4 breaks at step ${cx.violation_step} of ${last} on CPU 1`,
  );

  // It opens on the violation: the inspector shows it, and the lazy CPU's stale translations
  // at that moment.
  await expect(page.locator('[data-current-step]')).toHaveAttribute(
    'data-current-step',
    String(last),
  );
  await expect(page.locator('.timeline g.cx-step.current')).toHaveAttribute(
    'data-step',
    String(last),
  );
  await expect(page.locator('.inspector')).toContainText('InvariantViolated');
  await expect(page.locator('[data-state-cpu="1"] [data-state-stale]')).not.toHaveAttribute(
    'data-state-stale',
    '0',
  );
  await expect(page.locator('[data-cx-stale]')).toContainText(
    'CPU 1 still holds 4 stale translations: mm 1 page 0 (v0)',
  );

  // P / N walk the steps; each is a link of its own.
  await page.locator('body').press('p');
  await expect(page.locator('.timeline g.cx-step.current')).toHaveAttribute(
    'data-step',
    String(last - 1),
  );
  await expect(page).toHaveURL(new RegExp(`cx=${last - 1}`));
  await page.locator('body').press('n');
  await expect(page.locator('.timeline g.cx-step.current')).toHaveAttribute(
    'data-step',
    String(last),
  );

  // Step 1 from the list: CPU 1's A2 wakes, before any flush; nothing is stale yet.
  await page.locator('.cx-steps button[data-step="1"]').click();
  await expect(page.locator('[data-current-step]')).toContainText(
    `Step 1 of ${last}: ${`CPU ${cx.steps[0].cpu}, 0 ns`}`,
  );
  await expect(page.locator('[data-cx-stale]')).toContainText('no CPU holds a stale translation');
  await expect(page.getByRole('button', { name: '← Step' })).toBeDisabled();

  // The link reproduces the view: same verdict, same step.
  await page.goto(page.url());
  await expect(page.locator('[data-verdict][data-side="A"]')).toContainText(
    'Violated: invariant I4',
    {
      timeout: 60_000,
    },
  );
  await expect(page.locator('.timeline g.cx-step.current')).toHaveAttribute('data-step', '1');
  expect(sim.consoleErrors).toEqual([]);
});

test('the fixed design’s proof sits beside the counterexample as B', async ({ sim }) => {
  test.setTimeout(120_000);
  const page = sim.page;
  const fixed = expected('x86-r6-lazy-freed-tables', ['lazy_freed_tables=ipi']);
  expect(fixed.verdict).toBe('holds');
  await page.goto('./?scenario=x86-r6-lazy-freed-tables&view=counterexample');
  await page.getByRole('button', { name: 'Compare with the fix: lazy_freed_tables=ipi' }).click({
    timeout: 60_000,
  });
  const b = page.locator('[data-verdict][data-side="B"]');
  await expect(b).toContainText(
    `Holds in all interleavings up to the bound (${fixed.states.toLocaleString('en-US')} states, depth ${fixed.depth}`,
    { timeout: 100_000 },
  );
  await expect(page.locator('[data-verdict][data-side="A"]')).toContainText(
    'Violated: invariant I4',
  );
  await expect(page).toHaveURL(/compare=1&setB=lazy_freed_tables%3Dipi/);
  expect(sim.consoleErrors).toEqual([]);
});

test('a check with interchangeable CPUs names them and visits the states Node does', async ({
  sim,
}) => {
  test.setTimeout(120_000);
  const page = sim.page;
  const want = expected('x86-check-bystanders', ['switch_mm_barrier=none']);
  expect(want.symmetric).toEqual([[2, 3]]);
  const last = want.counterexample!.steps.length;
  await page.goto(
    './?scenario=x86-check-bystanders&set=switch_mm_barrier%3Dnone&view=counterexample',
  );
  const verdict = page.locator('[data-verdict][data-side="A"]');
  await expect(verdict).toContainText(`Violated: invariant I3 in ${last} steps`, {
    timeout: 100_000,
  });
  await expect(verdict).toContainText(
    `${want.states.toLocaleString('en-US')} states, depth ${want.depth}`,
  );
  await expect(verdict).toContainText('CPUs 2 = 3 interchangeable');
  await expect(page.locator('.timeline g.cx-step')).toHaveCount(last);
  expect(sim.consoleErrors).toEqual([]);
});

test('a scenario too big to check says why, and a check can be cancelled', async ({ sim }) => {
  test.setTimeout(90_000);
  const page = sim.page;
  await sim.open({ scenario: 'x86-r8-plus-one-rule' });
  await expect(page.getByRole('button', { name: 'Check all interleavings' })).toBeDisabled();
  await expect(page.locator('[data-check-why]')).toContainText('Not available: it has 8 CPUs');
  // A link to its counterexample view is refused with the same reason, and offers the way back.
  await page.goto('./?scenario=x86-r8-plus-one-rule&view=counterexample');
  await expect(page.getByRole('alert')).toContainText(
    'too big to check in the page: it has 8 CPUs',
  );
  await page.getByRole('button', { name: 'Back to the seeded run' }).click();
  await sim.waitForIdle();
  await expect(page.getByRole('button', { name: 'Check all interleavings' })).toBeDisabled();

  // R1's fixed design takes tens of thousands of states: progress shows, Cancel stops it.
  await page.goto(
    './?scenario=x86-r1-percpu-descriptor-race&set=flush_info%3Dstack&view=counterexample',
  );
  const progress = page.locator('[data-check-progress]');
  await expect(progress).toContainText(/Checking every interleaving of A… [\d,]+ states/);
  await expect(progress).not.toContainText('… 0 states', { timeout: 30_000 });
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status')).toContainText('Run A was cancelled');
  await expect(progress).toHaveCount(0);
  await page.getByRole('button', { name: 'Back to the seeded run' }).click();
  await sim.waitForIdle();
  await expect(page.locator('h2[data-run-title]')).toContainText('R1');
  expect(sim.consoleErrors).toEqual([]);
});

test('the counterexample view has no serious accessibility violations in either theme', async ({
  sim,
}) => {
  test.setTimeout(90_000);
  for (const theme of ['light', 'dark']) {
    await sim.page.goto(`./?scenario=arm64-r16-dsb-before-dec&view=counterexample&theme=${theme}`);
    await expect(sim.page.locator('[data-verdict]')).toContainText('Violated: invariant I18', {
      timeout: 60_000,
    });
    await sim.waitForIdle();
    const results = await new AxeBuilder({ page: sim.page }).include('.check-panel').analyze();
    const serious = results.violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
});
