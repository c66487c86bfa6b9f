// One panel per comparison: a chart's points split by series (one source on one machine), each
// panel with its own axis, so a 14.5 µs point measured elsewhere does not flatten the 2.52 vs
// 2.55 µs difference one mail is about. Optionally each value as its difference from the
// series' reference variant, in percent. Pure: a chart model in, panel models out.
import type { OverlayChartModel, OverlayPoint } from './overlay';
import { sweepOf, type Sweep } from './sweep';

export type PanelMode = 'values' | 'difference';

export interface PanelPoint {
  point: OverlayPoint;
  value: number;
  lo: number | null;
  hi: number | null;
  predicted: number | null;
  /** The prediction's band (values mode only; null otherwise, or until its ends have run). */
  band: [number, number] | null;
  /** The fitted machine's value (values mode only; null otherwise). */
  fitted: number | null;
}

export interface Panel {
  /** The series' index in the chart (its symbol). */
  series: number;
  title: string;
  variants: string[];
  points: PanelPoint[];
  /** The axis unit: the chart's, or a percentage in difference mode (see `reference`). */
  unit: string;
  /** The unit of the measured values themselves (the chart's), for tooltips. */
  valueUnit: string;
  /** The variant the differences are taken from (difference mode only). */
  reference: string | null;
  domain: [number, number];
  /** The variants as one numeric setting swept within groups, drawn as curves (or null). */
  sweep: Sweep | null;
}

/** Whether a chart's values can be shown as differences (fraction charts already are). */
export function canShowDifference(chart: OverlayChartModel): boolean {
  return !chart.unit.startsWith('×') && chart.variants.length > 1;
}

export function panelsOf(chart: OverlayChartModel, mode: PanelMode): Panel[] {
  const ids = [...new Set(chart.points.map((p) => p.series))].sort((a, b) => a - b);
  return ids.map((series) => {
    const own = chart.points.filter((p) => p.series === series);
    // A set, not a scan per variant: a 20,000-variant series would be 400 M comparisons.
    const mine = new Set(own.map((p) => p.measurement.variant));
    const variants = chart.variants.filter((v) => mine.has(v));
    const diff = mode === 'difference' && canShowDifference(chart) && variants.length > 1;
    const ref = diff ? own.find((p) => p.measurement.variant === variants[0])! : null;
    const points = own.map((p): PanelPoint => {
      if (!ref)
        return {
          point: p,
          value: p.value,
          lo: p.lo,
          hi: p.hi,
          predicted: p.predicted,
          band: p.band,
          fitted: p.fitted,
        };
      const pct = (v: number, base: number) => (v / base - 1) * 100;
      const sd = p.lo === null ? null : ((p.value - p.lo) / ref.value) * 100;
      const value = pct(p.value, ref.value);
      return {
        point: p,
        value,
        lo: sd === null ? null : value - sd,
        hi: sd === null ? null : value + sd,
        predicted:
          p.predicted === null || ref.predicted === null || ref.predicted === 0
            ? null
            : pct(p.predicted, ref.predicted),
        band: null,
        fitted: null,
      };
    });
    const s = chart.series[series];
    return {
      series,
      title: `measured on ${s.machine} (${s.source})`,
      variants,
      points,
      unit: ref ? '% vs the first variant' : chart.unit,
      valueUnit: chart.unit,
      reference: ref ? ref.measurement.variant : null,
      domain: domainOf(points, !!ref),
      sweep: sweepOf(points),
    };
  });
}

/** The values' extent with room around it; a difference axis always shows 0. */
function domainOf(points: readonly PanelPoint[], difference: boolean): [number, number] {
  const vs = points
    .flatMap((p) => [p.value, p.lo, p.hi, p.predicted, p.fitted])
    .filter((v): v is number => v !== null && Number.isFinite(v));
  if (difference) vs.push(0);
  if (!vs.length) return [0, 1];
  // A loop, not Math.min(...vs): spreading 80,000 numbers overflows the call stack.
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of vs) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const pad = (hi - lo || Math.abs(hi) || 1) * 0.15;
  lo = lo >= 0 && lo - pad < 0 ? 0 : lo - pad;
  hi += pad;
  return [lo, hi];
}
