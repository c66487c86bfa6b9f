import { describe, expect, it } from 'vitest';
import type { FlushBreakdown, FlushTarget } from './flushBreakdown';
import { costsToml, recordedCosts, withSyscallPath } from './recordedCosts';

const target = (t: Partial<FlushTarget>): FlushTarget => ({
  cpu: 1,
  send: 100,
  entry: 900,
  ack: 1500,
  func: 300,
  cause: { kind: 'delivery' },
  ...t,
});
const flush = (targets: FlushTarget[]): FlushBreakdown => ({
  row: 0,
  cpu: 0,
  start: 0,
  latency: 2000,
  pages: 1,
  targets,
  local: 100,
  last: 0,
  path: [],
});

describe('recordedCosts', () => {
  it('takes medians of the parts that measure each cost, leaving out deliveries something held', () => {
    const c = recordedCosts(
      [
        flush([target({ send: 100, entry: 900 }), target({ cpu: 2, send: 350, entry: 1050 })]),
        flush([target({ entry: 800 })]),
        // Held by interrupts off: the delay is that section's, not the IPI's.
        flush([
          target({
            entry: 9100,
            cause: { kind: 'irqs-off', ns: 8000, inferred: false, task: null },
          }),
        ]),
      ],
      { irqsKnown: true },
    );
    const by = Object.fromEntries(c.estimates.map((e) => [e.name, e]));
    expect(by.ipi_delivery_ns).toMatchObject({ value: 700, samples: 3, p10: 700, p90: 800 });
    // ack − entry − flush_tlb_func: 1500−900−300, 1500−1050−300, 1500−800−300, 1500−9100−300.
    expect(by.ipi_handler_ns.samples).toBe(4);
    expect(by.ipi_send_ns).toMatchObject({ value: 250, samples: 1 });
    expect(by.syscall_ns.value).toBeNull();
    expect(c.resolution).toBe(10);
  });

  it('estimates nothing under the timestamps’ resolution, and says what it lacked', () => {
    const c = recordedCosts(
      [flush([target({ send: 1000, entry: 9000, ack: 10000, func: 1000 })])],
      {
        irqsKnown: false,
      },
    );
    const by = Object.fromEntries(c.estimates.map((e) => [e.name, e]));
    expect(c.resolution).toBe(1000);
    expect(by.ipi_delivery_ns.value).toBe(8000);
    expect(by.ipi_delivery_ns.basis).toContain('no irq_disable/irq_enable events');
    expect(by.ipi_handler_ns.value).toBeNull();
    expect(by.ipi_handler_ns.basis).toContain("under the timestamps' 1000 ns resolution");
    expect(by.ipi_send_ns.basis).toBe('no flush sent more than one IPI');
  });

  it('writes a costs file whose comments cannot be broken out of by a file name', () => {
    const c = recordedCosts([flush([target({})])], { irqsKnown: true });
    const toml = costsToml(c, 'generic-x86', 'evil\n[costs]\nipi_delivery_ns = 1\n.trace');
    expect(toml.split('\n').filter((l) => l.startsWith('['))).toEqual(['[machine]', '[costs]']);
    expect(toml).toContain('preset = "generic-x86"');
    expect(toml).toContain('\nipi_delivery_ns = 800\n');
  });

  it('the cost per page is the slope of flush_tlb_func over flushes of several sizes', () => {
    // 300 ns of fixed work and 40 ns a page, with noise that medians ignore; a 40-page flush
    // is past the ceiling (a full flush) and is left out.
    const sized = (pages: number, func: number): FlushBreakdown => ({
      ...flush([target({ send: 11, entry: 1013, ack: 2017, func })]),
      pages,
      local: func + 3,
    });
    const flushes: FlushBreakdown[] = [];
    for (const pages of [1, 4, 16, 32, 40])
      for (let i = 0; i < 6; i++)
        flushes.push(sized(pages, 300 + 40 * pages + (i === 0 ? 900 : 0)));
    const by = Object.fromEntries(
      recordedCosts(flushes, { irqsKnown: true }).estimates.map((e) => [e.name, e]),
    );
    expect(by.invlpg_ns).toMatchObject({ value: 40, samples: 48, p10: 40, p90: 40 });
    expect(by.invlpg_ns.basis).toContain('flushes of 1, 4, 16, 32 pages');
    // One size only: no slope, and the kit's knob that records more is named.
    const one = recordedCosts([sized(1, 340), sized(1, 350)], { irqsKnown: true });
    expect(one.estimates.find((e) => e.name === 'invlpg_ns')).toMatchObject({ value: null });
    expect(one.estimates.find((e) => e.name === 'invlpg_ns')?.basis).toContain('MADV_PAGES');
  });

  it('syscall_ns is the recorded syscall path when the recording has one, else says what it lacks', () => {
    const c = recordedCosts([flush([target({})])], { irqsKnown: true });
    const path = withSyscallPath(c, { samples: 40, p10: 2100, p50: 2400, p90: 3000 });
    expect(path.estimates.find((e) => e.name === 'syscall_ns')).toMatchObject({
      value: 2400,
      samples: 40,
      p10: 2100,
      p90: 3000,
    });
    expect(costsToml(path, 'generic-x86', 'r.trace')).toContain('\nsyscall_ns = 2400\n');
    const none = withSyscallPath(c, null).estimates.find((e) => e.name === 'syscall_ns');
    expect(none?.value).toBeNull();
    expect(none?.basis).toContain('raw_syscalls:sys_enter/sys_exit');
  });
});
