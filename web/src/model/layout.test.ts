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

describe('folding the CPUs a step is not about', () => {
  it('folds each run of them into one header-high strip the arrows can still reach', () => {
    const l = toLayout(8, new Set(), sizes, new Set([1, 2, 3, 4, 5]));
    expect(l.rows.map((r) => r.type)).toEqual(['cpu', 'fold', 'cpu', 'cpu']);
    const fold = l.rows[1];
    expect(fold.type === 'fold' && [fold.first, fold.last]).toEqual([1, 5]);
    expect(l.folded(3)).toBe(true);
    expect(l.folded(6)).toBe(false);
    expect(l.laneTop(3)).toBe(fold.y);
    // CPU 7 sits right under CPU 6: the five folded CPUs cost one strip, not five lanes.
    expect(l.laneTop(7)).toBe(28 + 60 + 20 + 60);
    expect(l.rowAt(fold.y + 5)).toEqual({ row: fold, track: -1 });
  });

  it('folds nothing when that would fold every CPU', () => {
    expect(toLayout(4, new Set(), sizes, new Set([0, 1, 2, 3])).rows.map((r) => r.type)).toEqual([
      'cpu',
      'cpu',
      'cpu',
      'cpu',
    ]);
  });

  it('on a grouped machine folds inside the groups a step names, and whole groups it does not', () => {
    // 64 CPUs, group 1 (16-31) collapsed; the step is about CPU 0 and CPU 40.
    const fold = new Set([...Array(64).keys()].filter((c) => c !== 0 && c !== 40));
    const l = toLayout(64, new Set([1]), sizes, fold);
    const types = l.rows.map((r) => r.type);
    expect(types.filter((t) => t === 'cpu')).toHaveLength(2);
    expect(l.folded(0)).toBe(false);
    expect(l.folded(40)).toBe(false);
    expect(l.folded(5)).toBe(true);
    // A group the step does not name at all is one thin row, collapsed or not; runs of such
    // groups share it. Inside a group it names, folded runs stay within the group.
    expect(types).not.toContain('aggregate');
    expect(l.folded(20)).toBe(true);
    const folds = l.rows.flatMap((r) => (r.type === 'fold' ? [[r.first, r.last]] : []));
    expect(folds).toEqual([
      [1, 15],
      [16, 31],
      [32, 39],
      [41, 47],
      [48, 63],
    ]);
    const many = toLayout(256, new Set([2, 3]), sizes, new Set([...Array(256).keys()].slice(1)));
    expect(many.rows.filter((r) => r.type === 'fold').map((r) => [r.first, r.last])).toEqual([
      [1, 15],
      [16, 255],
    ]);
    // And it is much shorter than the same machine with every lane open.
    expect(l.height).toBeLessThan(toLayout(64, new Set([1]), sizes).height / 3);
  });

  it('leaves room under a lane for the latency lens', () => {
    const l = toLayout(3, new Set(), sizes, undefined, new Map([[0, 40]]));
    expect(l.laneTop(1)).toBe(28 + 60 + 40);
    expect(l.rowAt(28 + 60 + 10)).toBeNull();
  });
});
