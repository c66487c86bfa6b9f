import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from './fixtures';

// What the page claims about real recordings (tests/fixtures/recordings, made with
// bench/kit/trace.sh on a 2-CPU KVM guest, quiet and with a busy loop competing): irqs-off and
// preemption-off spans only where events bound them, the problems of a broken copy each at its
// line and clipped, flushes matched with the model's.
const DIR = 'tests/fixtures/recordings';
const file = (f: string) => readFileSync(resolve(DIR, f), 'utf8');
const UNKNOWN_IRQS = 'unknown (the recording has no irq_disable/irq_enable events)';
const UNKNOWN_PREEMPT = 'unknown (the recording has no preempt_disable/preempt_enable events)';

test('a recording appended to itself with a 10 MB line: irqs off unknown, its problems named by line', async ({
  sim,
}) => {
  await sim.open();
  const page = sim.page;
  const text = file('madvise-touch-2cpu-busy-loop.trace');
  const lines = text.replace(/\n$/, '').split('\n');
  const first = lines.findIndex((l) => !l.startsWith('#'));
  const copy = [...lines];
  copy.splice(first + 1, 0, `<b>${'w'.repeat(10e6)}</b>`);
  const joined = `${copy.join('\n')}\n`.repeat(2);
  await page.setInputFiles('#recording-input', {
    name: 'joined.trace',
    mimeType: 'text/plain',
    buffer: Buffer.from(joined),
  });
  const loaded = page.getByTestId('recording-loaded');
  await expect(loaded).toContainText('joined.trace');
  await sim.waitForIdle();
  const issues = loaded.locator('ul.issues li');
  await expect(issues.filter({ hasText: `line ${first + 2}: line longer than 4096` })).toHaveCount(
    1,
  );
  await expect(
    issues.filter({
      hasText: new RegExp(`line ${copy.length + first + 1}: timestamp .* time goes back`),
    }),
  ).toHaveCount(1);
  await expect(
    issues.filter({ hasText: `line ${copy.length + 1}: a second trace header` }),
  ).toHaveCount(1);
  // The 10 MB line is shown clipped: no item carries more than a line's start.
  for (const t of await issues.allTextContents()) expect(t.length).toBeLessThan(500);
  const summary = page.getByRole('region', { name: 'Recording summary' });
  await expect(summary.locator('[data-summary^="Irqs off"]')).toHaveText(UNKNOWN_IRQS);
  await expect(summary.locator('[data-summary^="Preemption off"]')).toHaveText(UNKNOWN_PREEMPT);
  // Counted once: the appended copy's shootdowns are dropped, not added.
  const shootdowns = lines.filter((l) => /tlb_flush:.*\(4\)\s*$/.test(l)).length;
  await expect(summary.locator('[data-summary="Shootdowns (remote IPI send)"]')).toHaveText(
    new RegExp(`^${shootdowns},`),
  );
  expect(sim.consoleErrors).toEqual([]);
});

test('in A/B the recording says preemption off is unknown and its flushes meet the model’s', async ({
  sim,
}) => {
  await sim.open({
    scenario: 'x86-madvise-touch',
    set: ['cpus=2', 'busy_threads=1', 'flushes=300'],
  });
  const page = sim.page;
  await sim.loadRecording(resolve(DIR, 'madvise-touch-2cpu-quiet.trace'));
  await sim.waitForIdle();
  await page.keyboard.press('c');
  await sim.waitForIdle();
  const row = page.locator('[data-metric="Preemption off, p99"] td');
  await expect(row.nth(0)).toHaveText(UNKNOWN_PREEMPT);
  await expect(row.nth(2)).toHaveText('–');
  const match = page.locator('[data-match-summary]');
  await expect(match).toContainText('matched by initiating CPU and order');
  // Before, a recording's flushes met none of the model's: its mm ids are not the model's.
  const text = (await match.textContent()) ?? '';
  const inA = Number(/^(\d+) flushes in A/.exec(text)?.[1]);
  const both = Number(/; (\d+) matched/.exec(text)?.[1]);
  expect(inA).toBe(
    file('madvise-touch-2cpu-quiet.trace')
      .split('\n')
      .filter((l) => /tlb_flush:.*\(4\)\s*$/.test(l)).length,
  );
  expect(both).toBeGreaterThan(0);
  expect(both).toBeLessThanOrEqual(inA);
  expect(sim.consoleErrors).toEqual([]);
});
