// The walking skeleton end to end: the page runs the real WASM simulator and draws exactly
// what its trace holds. The expected counts come from running the same build in Node.
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { EventKind } from '../../web/src/trace/trace';
import { expect, test } from './fixtures';

function expected(scenario: string, overrides: string[] = [], seed = 1) {
  initSimulatorForNode();
  const { trace } = runScenario(readScenario(scenario), { overrides, seed });
  const count = (k: EventKind) => trace.kind.filter((x) => x === k).length;
  return {
    cpus: trace.cpus,
    handlers: count(EventKind.IpiHandler),
    sends: count(EventKind.IpiSent),
    acks: count(EventKind.CsdUnlocked),
    flushes: count(EventKind.FlushRange),
    funcs: count(EventKind.FlushTlbFunc),
    waits: count(EventKind.IpiWait),
  };
}

test('the default page shows a shootdown across four CPU lanes', async ({ sim }) => {
  await sim.open();
  const want = expected('x86-munmap-shootdown');
  expect(want.cpus).toBeGreaterThanOrEqual(4);
  await expect(sim.lanes()).toHaveCount(want.cpus);
  await expect(sim.page.locator('.lane-label').first()).toHaveText('CPU 0 · initiator');
  await expect(sim.marks('FlushRange')).toHaveCount(want.flushes);
  await expect(sim.marks('IpiHandler')).toHaveCount(want.handlers);
  await expect(sim.marks('IpiArrow')).toHaveCount(want.sends);
  await expect(sim.marks('AckArrow')).toHaveCount(want.acks);
  await expect(sim.marks('FlushTlbFunc')).toHaveCount(want.funcs);
  await expect(sim.marks('IpiWait')).toHaveCount(want.waits);
  expect(sim.consoleErrors).toEqual([]);
});

test('each IPI arrow ends on the lane of the handler it caused', async ({ sim }) => {
  await sim.open();
  const arrows = sim.marks('IpiArrow');
  const n = await arrows.count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) {
    const row = await arrows.nth(i).getAttribute('data-row');
    const handler = sim.page.locator(`.timeline svg rect[data-row="${row}"]`);
    await expect(handler).toHaveAttribute('data-kind', 'IpiHandler');
    const [y2, hy, hh] = await Promise.all([
      arrows.nth(i).getAttribute('y2'),
      handler.getAttribute('y'),
      handler.getAttribute('height'),
    ]);
    expect(Number(y2)).toBeGreaterThanOrEqual(Number(hy));
    expect(Number(y2)).toBeLessThanOrEqual(Number(hy) + Number(hh));
  }
});

test('overrides in the URL re-run the simulator with more CPUs', async ({ sim }) => {
  await sim.open({ set: ['cpus=8'] });
  const want = expected('x86-munmap-shootdown', ['cpus=8']);
  await expect(sim.lanes()).toHaveCount(8);
  await expect(sim.marks('IpiHandler')).toHaveCount(want.handlers);
});

test('a bad override shows the simulator error naming the field, not a blank page', async ({
  sim,
}) => {
  // Typed into the control: a link with cpus=0 never reaches the simulator (share-links.spec.ts).
  await sim.open();
  await sim.page.locator('input[data-setting="cpus"]').first().fill('0');
  await sim.page.keyboard.press('Enter');
  await expect(sim.page.getByRole('alert')).toContainText(
    'machine.cpus: must be between 1 and 512, got 0',
  );
  await expect(sim.page.locator('header h1')).toHaveText('tlbscope');
});

test('the summary shows the simulator numbers and says they are predicted', async ({ sim }) => {
  await sim.open();
  await expect(sim.page.locator('[data-summary="IPIs sent"]')).toHaveText(
    String(expected('x86-munmap-shootdown').sends),
  );
  await expect(sim.page.locator('.provenance')).toContainText('Predicted by the tlbscope model');
});
