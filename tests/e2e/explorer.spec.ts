// The explorer's interactions, each checked against what the simulator computes for the
// same settings (run in Node on the same WASM build).
import AxeBuilder from '@axe-core/playwright';
import { Simulator } from '../../sim-wasm/pkg/tlbscope_sim.js';
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { EventKind } from '../../web/src/trace/trace';
import { formatNs } from '../../web/src/viz/scales';
import { expect, test } from './fixtures';

function simulate(overrides: string[] = [], seed = 1) {
  initSimulatorForNode();
  return runScenario(readScenario('x86-munmap-shootdown'), { overrides, seed });
}

test('flipping a design toggle re-runs the simulator and updates the summary', async ({ sim }) => {
  await sim.open();
  const pinned = simulate(['preempt=pinned']).summary;
  const preemptible = simulate(['preempt=preemptible_wait']).summary;
  expect(preemptible.preempt_off_ns.max).toBeLessThan(pinned.preempt_off_ns.max);
  await sim.page.locator('[data-setting="preempt"]').first().selectOption('preemptible_wait');
  await sim.waitForIdle();
  await expect(sim.page).toHaveURL(/set=preempt%3Dpreemptible_wait/);
  const shown = `${formatNs(preemptible.preempt_off_ns.p99)} / ${formatNs(preemptible.preempt_off_ns.max)}`;
  await expect(
    sim.page.locator('[data-summary="Initiator preemption off (p99 / max)"]'),
  ).toHaveText(shown);
});

test('stepping moves the cursor and the inspector through the events in order', async ({ sim }) => {
  await sim.open();
  const { trace } = simulate();
  await sim.page.getByRole('button', { name: 'Next event' }).click();
  await expect(sim.page.locator('[data-inspector="kind"]')).toHaveText(EventKind[trace.kind[0]]);
  await sim.page.keyboard.press('.');
  await sim.page.keyboard.press('.');
  await expect(sim.page.locator('[data-inspector="kind"]')).toHaveText(EventKind[trace.kind[2]]);
  await expect(sim.page.locator('.transport output')).toHaveText(formatNs(trace.time[2]));
  await sim.page.keyboard.press(',');
  await expect(sim.page.locator('[data-inspector="kind"]')).toHaveText(EventKind[trace.kind[1]]);
  await expect(sim.page.locator('.event-log tr.selected')).toHaveAttribute('data-row', '1');
});

test('selecting an ack shows its causal chain back to flush_tlb_mm_range', async ({ sim }) => {
  await sim.open();
  const { trace } = simulate();
  const ack = trace.kind.findIndex((k) => k === EventKind.CsdUnlocked);
  await sim.page.locator(`.event-log tr[data-row="${ack}"]`).click();
  const chain = sim.page.locator('[data-inspector="chain"] li code');
  await expect(chain).toHaveText([
    'flush_tlb_mm_range()',
    'smp_call_function_many_cond(): llist_add + send IPI',
    '__flush_smp_call_function_queue() (call-function IPI)',
    'csd_unlock() (SYNC ack after the function ran)',
  ]);
});

test('compare shows both runs and their difference as the simulator computes it', async ({
  sim,
}) => {
  await sim.open({ set: ['preempt=pinned'] });
  await sim.page.keyboard.press('c');
  await sim.page.getByRole('tab', { name: 'Settings B' }).click();
  await sim.page.locator('[data-setting="preempt"]').nth(1).selectOption('preemptible_wait');
  await sim.waitForIdle();
  await expect(sim.page.locator('.timeline')).toHaveCount(2);
  const a = simulate(['preempt=pinned']).summary;
  const b = simulate(['preempt=preemptible_wait']).summary;
  const row = sim.page.locator('[data-metric="Preemption off, max"] td');
  await expect(row.nth(0)).toHaveText(formatNs(a.preempt_off_ns.max));
  await expect(row.nth(1)).toHaveText(formatNs(b.preempt_off_ns.max));
  await expect(row.nth(2)).toHaveAttribute(
    'data-delta',
    String(b.preempt_off_ns.max - a.preempt_off_ns.max),
  );
  await expect(sim.page.locator('path.ecdf')).toHaveCount(2);
  expect(sim.consoleErrors).toEqual([]);
});

test('zooming or panning A moves B with it: both stay on one time axis', async ({ sim }) => {
  await sim.open({ set: ['preempt=pinned'] });
  await sim.page.keyboard.press('c');
  await sim.page.getByRole('tab', { name: 'Settings B' }).click();
  await sim.page.locator('[data-setting="preempt"]').nth(1).selectOption('preemptible_wait');
  await sim.waitForIdle();
  const ticks = (i: number) =>
    sim.page.locator('.timeline').nth(i).locator('g.axis .tick text').allTextContents();
  const full = await ticks(0);
  expect(await ticks(1)).toEqual(full);
  await sim.page.locator('.timeline').first().focus();
  for (const key of ['w', 'w', 'd']) await sim.page.keyboard.press(key);
  await expect.poll(() => ticks(0)).not.toEqual(full);
  // A may still be taking the last key when it is first read: compare the two, not a snapshot.
  await expect
    .poll(async () => {
      const [a, b] = [(await ticks(0)).join(' '), (await ticks(1)).join(' ')];
      return a === b ? a : `A: ${a} / B: ${b}`;
    })
    .not.toMatch(/^A: /);
  expect(sim.consoleErrors).toEqual([]);
});

test('"?" opens the shortcut help and Escape closes it', async ({ sim }) => {
  await sim.open();
  await sim.page.keyboard.press('?');
  await expect(sim.page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await sim.page.keyboard.press('Escape');
  await expect(sim.page.getByRole('dialog')).toHaveCount(0);
});

test('a long run shows progress and can be cancelled without freezing the page', async ({
  sim,
}) => {
  await sim.page.goto('./?scenario=x86-munmap-shootdown&set=cpus=128&set=flushes=200000');
  await expect(sim.page.getByRole('progressbar', { name: 'Simulating A' })).toBeVisible();
  await sim.page.getByRole('button', { name: 'Cancel' }).click();
  await expect(sim.page.getByText('Run A was cancelled')).toBeVisible();
  await sim.waitForIdle();
});

test('the explorer has no serious accessibility violations in light and dark themes', async ({
  sim,
}) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    await sim.page.emulateMedia({ colorScheme });
    await sim.open();
    const results = await new AxeBuilder({ page: sim.page }).analyze();
    const serious = results.violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
});

test('a violation listed in the summary shows the stale translation in the machine state', async ({
  sim,
}) => {
  await sim.open({ scenario: 'x86-r1-percpu-descriptor-race' });
  const { trace } = (() => {
    initSimulatorForNode();
    return runScenario(readScenario('x86-r1-percpu-descriptor-race'));
  })();
  const v = trace.kind.findIndex((k) => k === EventKind.InvariantViolated);
  expect(v).toBeGreaterThanOrEqual(0);
  await sim.page
    .getByRole('list', { name: 'Invariant violations' })
    .getByRole('button')
    .first()
    .click();
  await expect(sim.page.locator('[data-inspector="kind"]')).toHaveText('InvariantViolated');
  const state = sim.page.locator('.state-view');
  await expect(state).toHaveAttribute('data-state-time', String(trace.time[v]));
  const cpu = state.locator(`[data-state-cpu="${trace.cpu[v]}"] [data-state-stale]`);
  await expect(cpu).toContainText('STALE');
  expect(Number(await cpu.getAttribute('data-state-stale'))).toBeGreaterThan(0);
});

test('the machine state follows the cursor: before the flush the mm is at generation 1', async ({
  sim,
}) => {
  await sim.open();
  await sim.page.getByRole('button', { name: 'Next event' }).click();
  await expect(sim.page.locator('.state-view [data-state-mm="1"]')).toContainText('tlb_gen 1');
  await expect(sim.page.locator('.state-view [data-state-cpu="0"]')).toBeVisible();
});

test('scrubbing to the end shows the machine state there: the mm at its last tlb_gen', async ({
  sim,
}) => {
  await sim.open();
  const { trace } = simulate();
  let last = -1;
  let end = 0;
  for (let i = 0; i < trace.n; i++) {
    end = Math.max(end, trace.time[i] + trace.dur[i]);
    if (trace.kind[i] === EventKind.TlbGenIncremented && trace.mm[i] === 1) last = trace.gen[i];
  }
  expect(last).toBeGreaterThan(1);
  const scrub = sim.page.getByRole('slider', { name: 'Cursor' });
  await scrub.fill(String(end));
  await expect(sim.page.locator('.transport output')).toHaveText(formatNs(end));
  await expect(sim.page.locator('.state-view [data-state-mm="1"]')).toContainText(
    `tlb_gen ${last}`,
  );
});

test('play moves the cursor forward; with reduced motion it jumps from event to event', async ({
  sim,
}) => {
  const { trace } = simulate();
  const cursor = sim.page.locator('.transport output');
  await sim.open();
  await sim.page.locator('.timeline').first().focus();
  await sim.page.keyboard.press('Space');
  await expect(cursor).not.toHaveText('—');
  await sim.page.keyboard.press('Space');
  await expect(sim.page.getByRole('button', { name: /play/ })).toHaveAttribute(
    'aria-pressed',
    'false',
  );

  await sim.page.emulateMedia({ reducedMotion: 'reduce' });
  await sim.open();
  await sim.page.getByRole('button', { name: /play/ }).click();
  // Each tick selects the next event, so the cursor only ever shows event times, in order
  // (polled: under load several ticks may pass between two looks, so which ones it shows is
  // not fixed, only that each is an event's time and later than the one before).
  const later = trace.time.findIndex((t) => t > trace.time[0]);
  expect(later).toBeGreaterThan(0);
  await expect(sim.page.locator('[data-inspector="kind"]')).toHaveText(EventKind[trace.kind[0]]);
  const eventAt = new Map<string, number>();
  for (const t of trace.time) if (!eventAt.has(formatNs(t))) eventAt.set(formatNs(t), t);
  const seen: string[] = [];
  await expect
    .poll(
      async () => {
        const v = (await cursor.textContent()) ?? '';
        if (seen.at(-1) !== v) seen.push(v);
        return seen.length;
      },
      { timeout: 2000 + 600 * later },
    )
    .toBeGreaterThanOrEqual(3);
  await sim.page.getByRole('button', { name: /pause/ }).click();
  const shown = seen.map((v) => eventAt.get(v));
  expect(shown, seen.join(', ')).not.toContain(undefined);
  for (let i = 1; i < shown.length; i++) expect(shown[i]!).toBeGreaterThan(shown[i - 1]!);
  expect(sim.consoleErrors).toEqual([]);
});

test('switching the architecture re-runs the workload on arm64 with arm64 toggles', async ({
  sim,
}) => {
  await sim.open();
  await expect(sim.page.locator('[data-setting="broadcast_skip"]')).toHaveCount(0);
  await sim.page.locator('[data-setting="arch"]').first().selectOption('arm64');
  await sim.waitForIdle();
  const { summary } = simulate(['arch=arm64']);
  expect(summary.arch).toBe('arm64');
  await expect(sim.page.locator('[data-setting="broadcast_skip"]')).toHaveCount(1);
  await expect(sim.page.locator('[data-setting="flush_info"]')).toHaveCount(0);
  await expect(sim.page.locator('.provenance')).toContainText(String(summary.machine));
  await expect(sim.page.locator('.summary')).toContainText('retargeted at arm64');
  expect(sim.consoleErrors).toEqual([]);
});

// R7's split switch: while CPU 1's stores wait in its store buffer, the machine state says the
// CPU is switching (the kernel's loaded_mm reads LOADED_MM_SWITCHING) and that its stores are
// buffered, with CR3 still on the previous mm; the moment is found with the same WASM in Node.
test('the machine state shows a CPU mid-switch with its stores still buffered', async ({ sim }) => {
  initSimulatorForNode();
  const set = ['switch_mm_barrier=none'];
  const s = new Simulator(readScenario('x86-r7-switch-mm-order'), set, 1);
  s.run();
  const kind = s.kind();
  const cpu = s.cpu();
  const time = s.time();
  // Every 5 ns around CPU 1's switches: the moments it is mid-switch with buffered stores.
  const inside: number[] = [];
  for (let i = 0; i < kind.length; i++) {
    if (kind[i] !== EventKind.SwitchMm || cpu[i] !== 1) continue;
    for (let t = Math.max(0, time[i] - 300); t < time[i] + 300; t += 5) {
      const c = JSON.parse(s.snapshotJson(t)).cpus[1];
      if (c.switching_to === 1 && c.switch_buffered) inside.push(t);
    }
  }
  s.free();
  expect(inside.length).toBeGreaterThan(2);
  // The middle of the window: the cursor slider rounds to its step.
  const mid = inside[inside.length >> 1];

  const q = new URLSearchParams({ scenario: 'x86-r7-switch-mm-order', set: set[0] });
  await sim.page.goto(`./?${q}`);
  await sim.waitForIdle();
  await sim.page.getByRole('slider', { name: 'Cursor' }).fill(String(mid));
  const row = sim.page.locator('.state-view [data-state-cpu="1"]');
  await expect(row.locator('[data-state-switching="1"]')).toContainText(
    '→ mm 1 (loaded_mm = LOADED_MM_SWITCHING)',
  );
  await expect(row).toContainText('switch stores buffered');
  expect(sim.consoleErrors).toEqual([]);
});
