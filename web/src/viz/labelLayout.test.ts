import { describe, expect, it } from 'vitest';
import { boxesOverlap, placeLabels, type LabelBox, type PlacedLabel } from './labelLayout';

const H = 12;
/** No two placed labels of a group share a row and overlap by more than `gap` allows. */
function clashes(boxes: readonly LabelBox[], placed: readonly (PlacedLabel | null)[], gap: number) {
  const bad: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [p, q] = [placed[i], placed[j]];
      if (!p || !q || boxes[i].group !== boxes[j].group) continue;
      const a = { x0: p.x, x1: p.x + boxes[i].width, y0: p.row * H, y1: (p.row + 1) * H };
      const b = { x0: q.x, x1: q.x + boxes[j].width, y0: q.row * H, y1: (q.row + 1) * H };
      if (boxesOverlap({ ...a, x1: a.x1 + gap - 0.01 }, b)) bad.push(`${i}/${j}`);
    }
  return bad;
}

describe('placeLabels', () => {
  it('leaves labels that do not collide where they want to be, without leaders', () => {
    const boxes = [
      { group: 0, want: 10, width: 20 },
      { group: 0, want: 50, width: 20 },
    ];
    expect(placeLabels(boxes, { bounds: [0, 200], gap: 4 })).toEqual([
      { x: 10, row: 0, moved: false },
      { x: 50, row: 0, moved: false },
    ]);
  });

  it('pushes a label that lands on another aside, keeping the gap, and marks it moved', () => {
    // Two lens labels at the same spot: the second used to print over the first.
    const boxes = [
      { group: 0, want: 100, width: 60 },
      { group: 0, want: 110, width: 60 },
    ];
    const placed = placeLabels(boxes, { bounds: [0, 400], gap: 6 });
    expect(placed[0]).toEqual({ x: 100, row: 0, moved: false });
    expect(placed[1]).toEqual({ x: 166, row: 0, moved: true });
    expect(clashes(boxes, placed, 6)).toEqual([]);
  });

  it('uses a free row rather than a long shift, and stays inside the bounds', () => {
    // Thirteen badges of one lane at nearly one spot near the right edge (a counterexample).
    const boxes = Array.from({ length: 13 }, (_, i) => ({
      group: 'cpu0',
      want: 180 + i,
      width: 16,
      rows: 2,
    }));
    const placed = placeLabels(boxes, { bounds: [0, 200], gap: 2, rowCost: 20 });
    expect(placed.every((p) => p !== null)).toBe(true);
    expect(clashes(boxes, placed, 2)).toEqual([]);
    expect(new Set(placed.map((p) => p!.row))).toEqual(new Set([0, 1]));
    for (const p of placed) {
      expect(p!.x).toBeGreaterThanOrEqual(0);
      expect(p!.x + 16).toBeLessThanOrEqual(200);
    }
    // Both rows share the load: no badge is farther from its spot than the whole chain in one row.
    const far = Math.max(...placed.map((p, i) => Math.abs(p!.x - boxes[i].want)));
    expect(far).toBeLessThan(13 * 18 - 18);
  });

  it('keeps groups apart: labels of different lanes never push each other', () => {
    const boxes = [
      { group: 1, want: 30, width: 40 },
      { group: 2, want: 30, width: 40 },
    ];
    const placed = placeLabels(boxes, { bounds: [0, 100], gap: 4 });
    expect(placed.map((p) => p?.x)).toEqual([30, 30]);
  });

  it('prefers the label’s own row and returns null when there is no room at all', () => {
    const boxes = [
      { group: 0, want: 0, width: 50, row: 1, rows: 2 },
      { group: 0, want: 0, width: 50, row: 1, rows: 2 },
      { group: 0, want: 0, width: 50, row: 1, rows: 2 },
      { group: 0, want: 0, width: 50, row: 1, rows: 2 },
      { group: 0, want: 0, width: 50, row: 1, rows: 2 },
    ];
    const placed = placeLabels(boxes, { bounds: [0, 100], gap: 0, rowCost: 1000 });
    expect(placed[0]).toEqual({ x: 0, row: 1, moved: false });
    expect(placed[1]).toEqual({ x: 50, row: 1, moved: true });
    expect(placed.slice(2, 4).map((p) => p?.row)).toEqual([0, 0]);
    expect(placed[4]).toBeNull();
    expect(clashes(boxes, placed, 0)).toEqual([]);
  });

  it('leaves out a label that would have to move farther than maxShift', () => {
    const boxes = [
      { group: 0, want: 10, width: 30 },
      { group: 0, want: 10, width: 30 },
    ];
    const placed = placeLabels(boxes, { bounds: [0, 300], gap: 4, maxShift: 20 });
    expect(placed[0]).not.toBeNull();
    expect(placed[1]).toBeNull();
  });

  it('moves a label that would cross an edge back inside', () => {
    const placed = placeLabels([{ group: 0, want: 190, width: 30 }], {
      bounds: [0, 200],
      gap: 2,
    });
    expect(placed[0]).toEqual({ x: 170, row: 0, moved: true });
  });
});

describe('boxesOverlap', () => {
  it('ignores touching boxes and overlaps within the slack', () => {
    const a = { x0: 0, x1: 10, y0: 0, y1: 10 };
    expect(boxesOverlap(a, { x0: 10, x1: 20, y0: 0, y1: 10 })).toBe(false);
    expect(boxesOverlap(a, { x0: 8.5, x1: 20, y0: 0, y1: 10 }, 2)).toBe(false);
    expect(boxesOverlap(a, { x0: 5, x1: 20, y0: 5, y1: 10 }, 2)).toBe(true);
  });
});
