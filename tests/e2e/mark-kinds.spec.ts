// Every mark kind has its own colour and shape on the timeline and in the legend.
import { expect, test } from './fixtures';

test('kinds sharing a sub-track differ in shape and colour, and the legend shows both', async ({
  sim,
}) => {
  // R1: a flush, IPI handlers, flush_tlb_func and the wait, and two violations.
  await sim.open({ scenario: 'x86-flush-info-story', set: ['preempt=preemptible_wait'] });
  const geometry = (kind: string) =>
    sim
      .marks(kind)
      .first()
      .evaluate((el) => ({
        h: Number(el.getAttribute('height')),
        fill: getComputedStyle(el).fill,
      }));
  const flush = await geometry('FlushRange');
  const handler = await geometry('IpiHandler');
  const wait = await geometry('IpiWait');
  const func = await geometry('FlushTlbFunc');
  expect(handler.h).toBeLessThan(flush.h);
  expect(handler.fill).not.toBe(flush.fill);
  expect(func.h).toBeLessThan(wait.h);
  expect(func.fill).not.toBe(wait.fill);
  // The legend draws the same bands.
  const swatch = (kind: string) =>
    sim.page
      .locator(`.legend [data-legend-kind="${kind}"] rect.span`)
      .evaluate((el) => Number(el.getAttribute('height')));
  expect(await swatch('IpiHandler')).toBeLessThan(await swatch('FlushRange'));
  await expect(sim.page.locator('.legend [data-legend-kind="InvariantViolated"]')).toHaveText(
    'invariant violated',
  );
});
