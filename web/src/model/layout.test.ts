import { describe, expect, it } from 'vitest';
import { defaultCollapsed, toLayout } from './layout';

const sizes = { trackHeight: 10, laneGap: 10, headerHeight: 20, top: 28 };

describe('toLayout', () => {
  it('gives small machines one lane per CPU and no groups', () => {
    const l = toLayout(4, new Set(), sizes);
    expect(l.grouped).toBe(false);
    expect(l.rows.map((r) => r.type)).toEqual(['cpu', 'cpu', 'cpu', 'cpu']);
    expect(l.laneTop(2)).toBe(28 + 2 * 60);
  });

  it('groups 128 CPUs by 16 and shows a collapsed group as one aggregate lane', () => {
    const collapsed = defaultCollapsed(128, 0);
    expect([...collapsed].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const l = toLayout(128, collapsed, sizes);
    expect(l.groups).toBe(8);
    expect(l.rows.filter((r) => r.type === 'cpu')).toHaveLength(16);
    expect(l.rows.filter((r) => r.type === 'aggregate')).toHaveLength(7);
    const agg = l.rows.find((r) => r.type === 'aggregate' && r.group === 2);
    expect(l.laneTop(40)).toBe(agg?.y);
    expect(l.laneTop(41)).toBe(agg?.y);
  });

  it('finds the row and sub-track under a y coordinate', () => {
    const l = toLayout(128, new Set([1]), sizes);
    const cpu3 = l.rows.find((r) => r.type === 'cpu' && r.cpu === 3);
    const hit = l.rowAt((cpu3?.y ?? 0) + 25);
    expect(hit?.row).toBe(cpu3);
    expect(hit?.track).toBe(2);
    expect(l.rowAt(0)).toBeNull();
  });
});
