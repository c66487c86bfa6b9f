// A panel with more points than a chart can draw one by one, as consecutive bins of its
// variants (in the file's order) with each bin's min, median and max. A 20,000-variant series
// drawn point by point was ~800 k DOM nodes and froze the page for seconds; 200 bins are a few
// hundred. Pure: a panel in, a binned panel out.
import type { Panel, PanelPoint } from './panels';

/** Points a panel draws one by one; beyond this it is drawn as at most as many bins. */
export const MAX_POINTS = 200;

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export interface Bin {
  /** Position of the bin's first and last variant in the panel (from 1, as a reader counts). */
  from: number;
  to: number;
  firstVariant: string;
  lastVariant: string;
  /** Points in the bin (a variant can have more than one, e.g. two units). */
  count: number;
  measured: Spread;
  /** Of the points that have a prediction; null when none has. */
  predicted: Spread | null;
  /** Points per verdict kind, so a bin's tooltip can say how many the model missed. */
  verdicts: Readonly<Record<string, number>>;
}

export interface BinnedPanel {
  /** Variants in the panel. */
  variants: number;
  /** Variants per bin (the last bin may hold fewer). */
  perBin: number;
  bins: Bin[];
}

/** Min, median and max of a non-empty list (the median of an even count is the mean of two). */
export function spreadOf(values: readonly number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { min: s[0]!, median, max: s[s.length - 1]! };
}

/**
 * `panel` as at most `maxBins` bins of consecutive variants, or null when it has few enough
 * points to draw each one.
 */
export function binPanel(panel: Panel, maxBins = MAX_POINTS): BinnedPanel | null {
  if (panel.points.length <= maxBins) return null;
  const order = new Map(panel.variants.map((v, i) => [v, i]));
  const byVariant: PanelPoint[][] = panel.variants.map(() => []);
  for (const p of panel.points) byVariant[order.get(p.point.measurement.variant) ?? 0]!.push(p);
  const perBin = Math.ceil(panel.variants.length / maxBins);
  const bins: Bin[] = [];
  for (let start = 0; start < panel.variants.length; start += perBin) {
    const end = Math.min(start + perBin, panel.variants.length);
    const points = byVariant.slice(start, end).flat();
    if (!points.length) continue;
    const predicted = points.map((p) => p.predicted).filter((v): v is number => v !== null);
    const verdicts: Record<string, number> = {};
    for (const p of points)
      verdicts[p.point.verdict.kind] = (verdicts[p.point.verdict.kind] ?? 0) + 1;
    bins.push({
      from: start + 1,
      to: end,
      firstVariant: panel.variants[start]!,
      lastVariant: panel.variants[end - 1]!,
      count: points.length,
      measured: spreadOf(points.map((p) => p.value)),
      predicted: predicted.length ? spreadOf(predicted) : null,
      verdicts,
    });
  }
  return { variants: panel.variants.length, perBin, bins };
}

/** What the chart says about its bins, so no reader takes a bar for one measurement. */
export function describeBinning(b: BinnedPanel): string {
  return `${b.variants.toLocaleString('en-US')} variants drawn as ${b.bins.length} bins of ${b.perBin.toLocaleString('en-US')} consecutive variants (in the file's order): each bar spans the bin's smallest to largest value, the mark is its median, and a × is the median prediction.`;
}
