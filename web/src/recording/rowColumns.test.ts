import { describe, expect, it } from 'vitest';
import { RowColumns } from './rowColumns';

describe('RowColumns', () => {
  it('keeps every row past its first capacity and gives them back in time order', () => {
    const rows = new RowColumns();
    // 10,000 rows pushed newest first: the drained copy must reverse them.
    const n = 10_000;
    for (let i = 0; i < n; i++) rows.push(1000 + (n - i), i % 7, 3, i, i + 1, i > 0 ? i - 1 : -1);
    rows.dur[5] = 42;
    const out = rows.drainInTimeOrder();
    expect(out.time.length).toBe(n);
    expect(out.time[0]).toBe(0); // shifted to start at 0
    expect(out.time[n - 1]).toBe(n - 1);
    // The row pushed last is first; its source line travels with it.
    expect(out.line[0]).toBe(n);
    expect(out.arg[0]).toBe(n - 1);
    // Row 5 (pushed 6th) is now at n - 6 and keeps its duration; its parent, row 4, is at n - 5.
    expect(out.dur[n - 6]).toBe(42);
    expect(out.parent[n - 6]).toBe(n - 5);
    expect(out.parent[n - 1]).toBe(-1);
    expect(out.reason[0]).toBe(-1);
    expect(Number.isNaN(out.pages[0])).toBe(true);
    expect(rows.length).toBe(0);
    expect(rows.time.length).toBe(0);
  });

  it('keeps rows of equal time in the order they were pushed', () => {
    const rows = new RowColumns();
    rows.push(5, 0, 1, 10, 1, -1);
    rows.push(3, 1, 1, 11, 2, -1);
    rows.push(5, 2, 1, 12, 3, 0);
    const out = rows.drainInTimeOrder();
    expect([...out.arg]).toEqual([11, 10, 12]);
    expect([...out.parent]).toEqual([-1, -1, 1]);
    expect([...out.time]).toEqual([0, 2, 2]);
  });
});
