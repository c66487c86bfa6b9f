import { describe, expect, it } from 'vitest';
import { stacksOf, STACK_PX } from './violations';

const ids = ['I3', 'I1'];
describe('stacksOf', () => {
  it('counts the ✕ stacked on one spot of a lane, by invariant', () => {
    // 39 stale hits at one instant: an I3 and an I1 for each page.
    const items = Array.from({ length: 78 }, (_, row) => ({ row, x: 100, y: 40, more: 0 }));
    const stacks = stacksOf(items, (row) => ids[row % 2]);
    expect(stacks).toHaveLength(1);
    expect(stacks[0]).toMatchObject({ count: 78, label: '39×I1 39×I3', row: 0 });
  });

  it('leaves a lone ✕ without a badge, and splits lanes and spots apart', () => {
    const items = [
      { row: 0, x: 10, y: 40, more: 0 },
      { row: 1, x: 10 + STACK_PX + 1, y: 40, more: 0 },
      { row: 2, x: 10, y: 80, more: 0 },
      { row: 3, x: 11, y: 80, more: 2 },
    ];
    const stacks = stacksOf(items, () => 'I2');
    expect(stacks.map((s) => [s.row, s.count, s.label])).toEqual([[2, 4, '4×I2']]);
  });

  it('says only the total when more than two invariants share a spot', () => {
    const items = [0, 1, 2].map((row) => ({ row, x: 5, y: 5, more: 0 }));
    expect(stacksOf(items, (r) => `I${r + 1}`)[0].label).toBe('×3');
  });
});
