// Violations and generation tracks on the timeline, read from the SVG DOM: every
// InvariantViolated row is its own clickable mark, and each mm whose tlb_gen steps gets a track.
import { expect, test } from './fixtures';

test.describe('timeline marks', () => {
  test('every violation is marked on its CPU lane and selects its row on click', async ({
    sim,
  }) => {
    // The per-CPU descriptor race: its default settings produce I7 and I3 violations.
    await sim.open({ scenario: 'x86-r1-percpu-descriptor-race' });
    const marks = sim.marks('InvariantViolated');
    // The event log lists every row of this small run; its violations are the trace's.
    const logged = sim.page.locator('.event-log tbody tr', { hasText: 'InvariantViolated' });
    await expect.poll(() => logged.count()).toBeGreaterThan(0);
    await expect(marks).toHaveCount(await logged.count());
    const rows = await marks.evaluateAll((els) => els.map((e) => e.getAttribute('data-row')));
    const loggedRows = await logged.evaluateAll((els) =>
      els.map((e) => e.getAttribute('data-row')),
    );
    expect(rows.sort()).toEqual(loggedRows.sort());
    // Each sits on the lane of the CPU the row names.
    for (const m of await marks.all()) {
      const cpu = await m.getAttribute('data-cpu');
      expect(await sim.page.locator(`.timeline g.lane[data-cpu="${cpu}"]`).count()).toBe(1);
    }

    const first = marks.first();
    const row = await first.getAttribute('data-row');
    await first.click();
    await expect(sim.page.locator('[data-inspector="kind"]')).toHaveText(/InvariantViolated/);
    await expect(first).toHaveClass(/\bselected\b/);
    await expect(sim.page.locator(`.timeline .selection-outline[data-row="${row}"]`)).toHaveCount(
      1,
    );
    expect(sim.consoleErrors).toEqual([]);
  });

  test('violations stay drawn when zoomed out on a dense run', async ({ sim }) => {
    await sim.open({ scenario: 'x86-r8-plus-one-rule' });
    const marks = sim.marks('InvariantViolated');
    const n = await marks.count();
    expect(n).toBeGreaterThan(0);
    await sim.page.locator('.timeline').first().focus();
    await sim.page.keyboard.press('s');
    await expect(marks).toHaveCount(n);
    expect(sim.consoleErrors).toEqual([]);
  });

  test('each mm whose tlb_gen steps has a generation track with its CPUs', async ({ sim }) => {
    await sim.open({ scenario: 'x86-r1-percpu-descriptor-race' });
    const tracks = sim.page.locator('.timeline g.gen-track');
    await expect(tracks).toHaveCount(2);
    await expect(tracks.first()).toHaveAttribute('data-mm', '1');
    await expect(tracks.first().locator('.gen-title')).toContainText('mm 1');
    await expect(tracks.first().locator('.lag-labels text')).toHaveText(['CPU 0', 'CPU 2']);
    // CPU 2 never flushes gen 2 of mm 1 (its flush request was overwritten): a lag band.
    await expect(tracks.first().locator('path.lag-1')).not.toHaveAttribute('d', '');
    await expect(tracks.first().locator('.lag-text text').first()).toHaveText('1 behind');
    await sim.page.getByLabel('one step per event').check();
    await expect(tracks).toHaveCount(2);
    await expect(tracks.first().locator('path.lag-1')).not.toHaveAttribute('d', '');
    expect(sim.consoleErrors).toEqual([]);
  });
});
