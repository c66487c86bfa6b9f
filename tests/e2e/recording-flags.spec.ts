// A kit recording's flags column (bench/kit/trace.sh on this 2-CPU AMD guest): each event that
// fired with interrupts or preemption off is drawn as an instant on its CPU's lane, while the
// summary keeps saying the spans are unknown (the recording has no irq_disable/preempt events).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from './fixtures';

const FIXTURE = resolve('tests/fixtures/recordings/tracefs.trace');
const KNOWN =
  /\]\s+(\S{5})\s+\d+\.\d+:\s+(tlb_flush|sched_switch|ipi_send_cpu|ipi_send_cpumask|csd_queue_cpu|csd_function_entry|csd_function_exit|call_function_entry|call_function_exit|call_function_single_entry|call_function_single_exit):/;

test('events flagged irqs-off / preempt-off are instants on their lanes; spans stay unknown', async ({
  sim,
}) => {
  test.setTimeout(90_000);
  const lines = readFileSync(FIXTURE, 'utf8').split('\n');
  const flagged = lines
    .map((l, i) => ({ f: KNOWN.exec(l)?.[1], line: i + 1, cpu: Number(/\[(\d+)\]/.exec(l)?.[1]) }))
    .filter((x): x is { f: string; line: number; cpu: number } => !!x.f)
    .map((x) => ({
      ...x,
      irqs: x.f[0] === 'd' || x.f[0] === 'D',
      preempt: x.f[3] !== '.' && x.f[3] !== '0',
    }))
    .filter((x) => x.irqs || x.preempt);
  await sim.open();
  const page = sim.page;
  await page.setInputFiles('#recording-input', FIXTURE);
  await expect(page.getByTestId('recording-loaded')).toContainText('tracefs.trace');
  await sim.waitForIdle();
  const summary = page.getByRole('region', { name: 'Recording summary' });
  await expect(summary).toContainText(
    'unknown (the recording has no irq_disable/irq_enable events)',
  );
  await expect(summary).toContainText(
    'unknown (the recording has no preempt_disable/preempt_enable events)',
  );
  const irqsFlagged = flagged.filter((x) => x.irqs).length;
  await expect(
    summary.locator(
      '[data-summary="Events with the irqs-off flag (each an instant: a tick under its CPU’s lane)"]',
    ),
  ).toHaveText(String(irqsFlagged));
  // The whole recording in view: every flagged event is one instant (under the 3000 drawn a window).
  const marks = page.locator('.timeline g.flag-instants g.flag-instant');
  expect(flagged.length).toBeLessThan(3000);
  await expect(marks).toHaveCount(flagged.length);
  await expect(page.locator('.timeline g.flag-instant[data-flag="irqs-off"]')).toHaveCount(
    flagged.filter((x) => x.irqs && !x.preempt).length,
  );
  await expect(
    page.locator('.timeline g.flag-instant[data-flag="irqs-off,-preempt-off"]'),
  ).toHaveCount(flagged.filter((x) => x.irqs && x.preempt).length);
  // A mark is the line it came from, on that line's CPU, and says it is no span.
  const first = flagged[0];
  const mark = page.locator(`.timeline g.flag-instant[data-line="${first.line}"]`);
  await expect(mark).toHaveAttribute('data-cpu', String(first.cpu));
  await expect(mark.locator('title')).toContainText(`line ${first.line}): an instant, not a span`);
  // No span is drawn for them: no IrqsOff or PreemptOff mark.
  await expect(page.locator('.timeline svg [data-kind="IrqsOff"]')).toHaveCount(0);
  await expect(page.locator('.timeline svg [data-kind="PreemptOff"]')).toHaveCount(0);
  // Each CPU's instants sit under its own lane: CPU 1's below CPU 0's.
  const y = async (cpu: number) =>
    (await page.locator(`.timeline g.flag-instant[data-cpu="${cpu}"]`).first().boundingBox())!.y;
  if (flagged.some((x) => x.cpu === 1)) expect(await y(1)).toBeGreaterThan(await y(0));
  expect(sim.consoleErrors).toEqual([]);
});
