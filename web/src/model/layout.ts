// Vertical layout of the timeline: one lane per CPU, and on large machines groups of CPUs
// with a header each; a collapsed group shows one aggregate lane instead of its CPUs.
import { TRACKS } from './lanes';

/** Machines with more CPUs than this are shown in groups. */
export const GROUP_ABOVE = 32;
export const GROUP_SIZE = 16;

export interface LayoutSizes {
  trackHeight: number;
  laneGap: number;
  headerHeight: number;
  top: number;
}

export type LayoutRow =
  | { type: 'cpu'; cpu: number; y: number }
  | { type: 'group'; group: number; first: number; last: number; collapsed: boolean; y: number }
  /** The aggregate lane of a collapsed group. */
  | { type: 'aggregate'; group: number; first: number; last: number; y: number };

export interface LaneLayout {
  readonly rows: readonly LayoutRow[];
  readonly grouped: boolean;
  readonly groups: number;
  readonly laneHeight: number;
  readonly height: number;
  /** Top of the lane that shows `cpu` (its own, or its collapsed group's aggregate lane). */
  laneTop(cpu: number): number;
  /** The row at vertical position y, if any, with the sub-track under it. */
  rowAt(y: number): { row: LayoutRow; track: number } | null;
}

export function groupOf(cpu: number): number {
  return Math.floor(cpu / GROUP_SIZE);
}

export function toLayout(
  cpus: number,
  collapsed: ReadonlySet<number>,
  sizes: LayoutSizes,
): LaneLayout {
  const laneHeight = TRACKS * sizes.trackHeight + sizes.laneGap;
  const grouped = cpus > GROUP_ABOVE;
  const groups = grouped ? Math.ceil(cpus / GROUP_SIZE) : 0;
  const rows: LayoutRow[] = [];
  const laneTops = new Float64Array(cpus);
  let y = sizes.top;
  const lane = (cpu: number) => {
    rows.push({ type: 'cpu', cpu, y });
    laneTops[cpu] = y;
    y += laneHeight;
  };
  if (!grouped) for (let c = 0; c < cpus; c++) lane(c);
  for (let g = 0; g < groups; g++) {
    const first = g * GROUP_SIZE;
    const last = Math.min(cpus, first + GROUP_SIZE) - 1;
    const isCollapsed = collapsed.has(g);
    rows.push({ type: 'group', group: g, first, last, collapsed: isCollapsed, y });
    y += sizes.headerHeight;
    if (isCollapsed) {
      rows.push({ type: 'aggregate', group: g, first, last, y });
      for (let c = first; c <= last; c++) laneTops[c] = y;
      y += laneHeight;
    } else for (let c = first; c <= last; c++) lane(c);
  }
  const height = y;
  return {
    rows,
    grouped,
    groups,
    laneHeight,
    height,
    laneTop: (cpu) => laneTops[cpu],
    rowAt(py) {
      // Rows are in y order; few enough (≤ 512 + groups) for a binary search to be overkill,
      // but it is called on every pointer move.
      let lo = 0;
      let hi = rows.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (rows[mid].y <= py) lo = mid + 1;
        else hi = mid;
      }
      const row = rows[lo - 1];
      if (!row) return null;
      const dy = py - row.y;
      if (row.type === 'group') return dy < sizes.headerHeight ? { row, track: -1 } : null;
      const track = Math.floor(dy / sizes.trackHeight);
      return track < TRACKS ? { row, track } : null;
    },
  };
}

/** Groups collapsed by default: all but the one holding `focus` (the initiator). */
export function defaultCollapsed(cpus: number, focus: number): Set<number> {
  const set = new Set<number>();
  if (cpus <= GROUP_ABOVE) return set;
  const keep = focus >= 0 ? groupOf(focus) : 0;
  for (let g = 0; g < Math.ceil(cpus / GROUP_SIZE); g++) if (g !== keep) set.add(g);
  return set;
}
