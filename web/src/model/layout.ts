// Vertical layout of the timeline: one lane per CPU, and on large machines groups of CPUs
// with a header each; a collapsed group shows one aggregate lane instead of its CPUs. A guided
// step's subject can fold the CPUs it does not talk about: each run of them becomes one thin
// row (a header-high strip the arrows still reach), so the CPUs it does talk about fit on
// screen together; on a grouped machine that happens inside the groups left open.
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
  | { type: 'aggregate'; group: number; first: number; last: number; y: number }
  /** Consecutive CPUs folded away (outside a guided step's subject), one thin row. */
  | { type: 'fold'; first: number; last: number; y: number };

export interface LaneLayout {
  readonly rows: readonly LayoutRow[];
  readonly grouped: boolean;
  readonly groups: number;
  readonly laneHeight: number;
  readonly height: number;
  /** Top of the lane that shows `cpu` (its own, or its collapsed group's aggregate lane). */
  laneTop(cpu: number): number;
  /** Whether `cpu` sits in a folded row (its marks are not drawn, only arrows reach it). */
  folded(cpu: number): boolean;
  /** The row at vertical position y, if any, with the sub-track under it. */
  rowAt(y: number): { row: LayoutRow; track: number } | null;
}

const NO_FOLD: ReadonlySet<number> = new Set();
const NO_EXTRA: ReadonlyMap<number, number> = new Map();

export function groupOf(cpu: number): number {
  return Math.floor(cpu / GROUP_SIZE);
}

export function toLayout(
  cpus: number,
  collapsed: ReadonlySet<number>,
  sizes: LayoutSizes,
  /** CPUs to fold (on a grouped machine, within the open groups). */
  fold: ReadonlySet<number> = NO_FOLD,
  /** Extra height under a CPU's lane, in px (the latency lens's rows). */
  below: ReadonlyMap<number, number> = NO_EXTRA,
): LaneLayout {
  const laneHeight = TRACKS * sizes.trackHeight + sizes.laneGap;
  const grouped = cpus > GROUP_ABOVE;
  const groups = grouped ? Math.ceil(cpus / GROUP_SIZE) : 0;
  const rows: LayoutRow[] = [];
  const laneTops = new Float64Array(cpus);
  const isFolded = new Uint8Array(cpus);
  let y = sizes.top;
  const lane = (cpu: number) => {
    rows.push({ type: 'cpu', cpu, y });
    laneTops[cpu] = y;
    y += laneHeight + (below.get(cpu) ?? 0);
  };
  // Folding every CPU would show nothing: then nothing is folded.
  const folding = fold.size > 0 && [...fold].filter((c) => c < cpus).length < cpus;
  // CPUs first..last as lanes, each run of folded ones as one thin row. Inside an open group
  // of a large machine too: a step about CPU 0 of 80 shows CPU 0, not the 15 beside it.
  const lanes = (first: number, last: number) => {
    for (let c = first; c <= last; c++) {
      if (!folding || !fold.has(c)) {
        lane(c);
        continue;
      }
      let end = c;
      while (end + 1 <= last && fold.has(end + 1)) end++;
      rows.push({ type: 'fold', first: c, last: end, y });
      for (let f = c; f <= end; f++) {
        laneTops[f] = y;
        isFolded[f] = 1;
      }
      y += sizes.headerHeight;
      c = end;
    }
  };
  if (!grouped) lanes(0, cpus - 1);
  const groupFolded = (g: number) => {
    const first = g * GROUP_SIZE;
    const last = Math.min(cpus, first + GROUP_SIZE) - 1;
    for (let c = first; c <= last; c++) if (!fold.has(c)) return false;
    return folding;
  };
  for (let g = 0; g < groups; g++) {
    const first = g * GROUP_SIZE;
    // Groups the step does not talk about at all: one thin row for each run of them, not a
    // header and an aggregate lane each (sixteen of those fill a screen on their own).
    if (groupFolded(g)) {
      let end = g;
      while (end + 1 < groups && groupFolded(end + 1)) end++;
      const lastCpu = Math.min(cpus, (end + 1) * GROUP_SIZE) - 1;
      rows.push({ type: 'fold', first, last: lastCpu, y });
      for (let f = first; f <= lastCpu; f++) {
        laneTops[f] = y;
        isFolded[f] = 1;
      }
      y += sizes.headerHeight;
      g = end;
      continue;
    }
    const last = Math.min(cpus, first + GROUP_SIZE) - 1;
    const isCollapsed = collapsed.has(g);
    rows.push({ type: 'group', group: g, first, last, collapsed: isCollapsed, y });
    y += sizes.headerHeight;
    if (isCollapsed) {
      rows.push({ type: 'aggregate', group: g, first, last, y });
      for (let c = first; c <= last; c++) laneTops[c] = y;
      y += laneHeight;
    } else lanes(first, last);
  }
  const height = y;
  return {
    rows,
    grouped,
    groups,
    laneHeight,
    height,
    laneTop: (cpu) => laneTops[cpu],
    folded: (cpu) => isFolded[cpu] === 1,
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
      if (row.type === 'group' || row.type === 'fold')
        return dy < sizes.headerHeight ? { row, track: -1 } : null;
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
