// A panel whose variants are one numeric setting swept (threads=1,5,10,…) within a few groups
// of the other settings (tlb_gen_read=always / when_needed) reads as curves over that number,
// not as 24 categories: will-it-scale output and thread sweeps look like this. Pure: variants
// and points in, the sweep (or null when the variants are not one) out.
import type { PanelPoint } from './panels';

export interface SweepGroup {
  /** The other settings, joined as in a variant (`tlb_gen_read=always;processes=off`). */
  label: string;
  /** The part of `label` that differs between groups (the whole label with one group). */
  short: string;
  /** Sorted by the swept value. */
  points: { x: number; point: PanelPoint }[];
}

export interface Sweep {
  /** The swept setting, e.g. `threads`. */
  key: string;
  groups: SweepGroup[];
  /** The swept values' extent. */
  extent: [number, number];
}

/** Fewer distinct values than this are categories, not a curve. */
export const MIN_SWEEP_VALUES = 3;
/** More groups than this are too many curves to tell apart on one panel. */
export const MAX_SWEEP_GROUPS = 4;
const NUMBER = /^-?\d+(\.\d+)?$/;

function pairsOf(variant: string): Map<string, string> | null {
  const pairs = new Map<string, string>();
  for (const part of variant.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.includes('->') || pairs.has(part.slice(0, eq))) return null;
    pairs.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return pairs;
}

export function sweepOf(points: readonly PanelPoint[]): Sweep | null {
  const parsed = points.map((p) => pairsOf(p.point.measurement.variant));
  if (!parsed.length || parsed.some((m) => m === null)) return null;
  const maps = parsed as Map<string, string>[];
  const keys = [...maps[0].keys()];
  if (maps.some((m) => m.size !== keys.length || keys.some((k) => !m.has(k)))) return null;
  const varying = (k: string) => new Set(maps.map((m) => m.get(k))).size > 1;
  const numeric = keys.filter((k) => maps.every((m) => NUMBER.test(m.get(k)!)) && varying(k));
  if (numeric.length !== 1) return null;
  const key = numeric[0];
  if (new Set(maps.map((m) => m.get(key))).size < MIN_SWEEP_VALUES) return null;
  const rest = keys.filter((k) => k !== key);
  const differing = rest.filter(varying);
  const byLabel = new Map<string, SweepGroup>();
  points.forEach((point, i) => {
    const m = maps[i];
    const label = rest.map((k) => `${k}=${m.get(k)}`).join(';');
    let g = byLabel.get(label);
    if (!g) {
      const short = differing.length ? differing.map((k) => `${k}=${m.get(k)}`).join(';') : label;
      byLabel.set(label, (g = { label, short, points: [] }));
    }
    g.points.push({ x: Number(m.get(key)), point });
  });
  if (byLabel.size > MAX_SWEEP_GROUPS) return null;
  const groups = [...byLabel.values()];
  for (const g of groups) {
    g.points.sort((a, b) => a.x - b.x);
    // One point per swept value within a group, or it is not a curve.
    if (g.points.some((p, i) => i > 0 && p.x === g.points[i - 1].x)) return null;
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (const g of groups) {
    lo = Math.min(lo, g.points[0].x);
    hi = Math.max(hi, g.points[g.points.length - 1].x);
  }
  return { key, groups, extent: [lo, hi] };
}
