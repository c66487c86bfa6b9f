// Label placement for the timeline's words and badges (lens labels, counterexample numbers,
// row labels). Labels that want the same spot would print on top of each other, so each is
// moved to the nearest free place in its group's rows; one that moved gets a leader line back
// to what it labels (the caller draws it). Pure: boxes in, positions out.

export interface LabelBox {
  /** Labels of one group compete for the same rows (a CPU's lane, one sub-track). */
  group: string | number;
  /** Where the label's left edge would be if nothing were in the way (px). */
  want: number;
  width: number;
  /** The row it belongs in (0 = first); it may move to another of its group's rows. */
  row?: number;
  /** How many rows its group has (default 1). */
  rows?: number;
}

export interface PlacedLabel {
  /** Left edge (px). */
  x: number;
  row: number;
  /** Moved off its spot or row: the caller draws a leader line back to it. */
  moved: boolean;
}

export interface LayoutOptions {
  /** Where labels may go: [left, right] (px); a label never crosses either edge. */
  bounds: [number, number];
  /** Space kept between two labels of one row (px). */
  gap: number;
  /** What moving one row costs, in px of sideways shift (default 24). */
  rowCost?: number;
  /** Farther than this from its spot a label is left out (default: anywhere in bounds). */
  maxShift?: number;
}

/**
 * Places `boxes` in order of their spot (ties: input order); returns each one's place, or
 * null for one that fits nowhere (more labels than room).
 */
export function placeLabels(
  boxes: readonly LabelBox[],
  { bounds: [lo, hi], gap, rowCost = 24, maxShift = Infinity }: LayoutOptions,
): (PlacedLabel | null)[] {
  const out: (PlacedLabel | null)[] = boxes.map(() => null);
  // Each group's rows: the [start, end) intervals taken so far.
  const taken = new Map<string | number, [number, number][][]>();
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a].want - boxes[b].want || a - b);
  for (const i of order) {
    const b = boxes[i];
    const rows = Math.max(1, b.rows ?? 1);
    const pref = Math.min(rows - 1, Math.max(0, b.row ?? 0));
    let rowsTaken = taken.get(b.group);
    if (!rowsTaken) taken.set(b.group, (rowsTaken = []));
    if (b.width > hi - lo) continue;
    const want = Math.min(hi - b.width, Math.max(lo, b.want));
    let best: { x: number; row: number; cost: number } | null = null;
    for (let r = 0; r < rows; r++) {
      const x = nearestFree(rowsTaken[r] ?? [], want, b.width, gap, lo, hi);
      if (x === null || Math.abs(x - b.want) > maxShift) continue;
      const cost = Math.abs(x - want) + Math.abs(r - pref) * rowCost;
      if (!best || cost < best.cost) best = { x, row: r, cost };
    }
    if (!best) continue;
    (rowsTaken[best.row] ??= []).push([best.x, best.x + b.width]);
    out[i] = {
      x: best.x,
      row: best.row,
      moved: best.row !== pref || Math.abs(best.x - b.want) > 0.5,
    };
  }
  return out;
}

/** The free left edge nearest `want` for a label of width w in a row, or null. */
function nearestFree(
  row: readonly [number, number][],
  want: number,
  w: number,
  gap: number,
  lo: number,
  hi: number,
): number | null {
  const fits = (x: number) =>
    x >= lo - 1e-9 &&
    x + w <= hi + 1e-9 &&
    row.every(([a, b]) => x + w + gap <= a + 1e-9 || x >= b + gap - 1e-9);
  // The free spot nearest `want` is `want` itself or flush against a taken interval.
  const candidates = [want];
  for (const [a, b] of row) candidates.push(b + gap, a - gap - w);
  let best: number | null = null;
  for (const x of candidates)
    if (fits(x) && (best === null || Math.abs(x - want) < Math.abs(best - want))) best = x;
  return best;
}

/** Whether two boxes [x0, x1] × [y0, y1] overlap by more than `slack` px both ways. */
export function boxesOverlap(
  a: { x0: number; x1: number; y0: number; y1: number },
  b: { x0: number; x1: number; y0: number; y1: number },
  slack = 0,
): boolean {
  return (
    Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > slack &&
    Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > slack
  );
}
