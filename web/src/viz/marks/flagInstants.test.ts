import { describe, expect, it } from 'vitest';
import { FLAG_IRQS_OFF, FLAG_PREEMPT_OFF } from '../../recording/types';
import { layoutFlags } from './flagInstants';

const flags = (rows: [number, number, number][]) => ({
  time: Float64Array.from(rows.map((r) => r[0])),
  cpu: Uint16Array.from(rows.map((r) => r[1])),
  bits: Uint8Array.from(rows.map((r) => r[2])),
});
const BOTH = FLAG_IRQS_OFF | FLAG_PREEMPT_OFF;

describe('layoutFlags', () => {
  it('draws each flagged event in the window on its own while they fit the budget', () => {
    const f = flags([
      [10, 0, FLAG_IRQS_OFF],
      [20, 1, BOTH],
      [5000, 0, FLAG_IRQS_OFF], // outside the plot
      [30, 7, FLAG_IRQS_OFF], // a CPU this timeline has not
    ]);
    const out = layoutFlags(
      f,
      (t) => t,
      (cpu) => (cpu < 2 ? cpu * 100 : null),
      [0, 1000],
      3,
    );
    expect(out).toEqual({
      each: [
        { i: 0, x: 10, y: 0 },
        { i: 1, x: 20, y: 100 },
      ],
    });
  });

  it('past the budget, one tick per pixel column per lane and flag, with the count behind them', () => {
    // 40 events on CPU 0 within two pixel columns, and one on CPU 1 with both flags.
    const rows: [number, number, number][] = [];
    for (let k = 0; k < 40; k++) rows.push([100 + (k % 2) * 1.0 + k * 0.01, 0, FLAG_IRQS_OFF]);
    rows.push([500, 1, BOTH]);
    const out = layoutFlags(
      flags(rows),
      (t) => t,
      (cpu) => cpu * 100,
      [0, 1000],
      10,
    );
    expect('columns' in out && out.count).toBe(41);
    const cols = 'columns' in out ? out.columns : [];
    expect(cols.map((c) => [c.cpu, c.flag, c.xs, c.count])).toEqual([
      [0, FLAG_IRQS_OFF, [100, 101], 40],
      [1, FLAG_IRQS_OFF, [500], 1],
      [1, FLAG_PREEMPT_OFF, [500], 1],
    ]);
  });
});
