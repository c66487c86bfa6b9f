// Measured numbers next to the model's predictions: one chart model per (benchmark, metric),
// with every point carrying its provenance and a verdict on whether the model's difference from
// it is inside the measurement noise. Pure: measurements and finished predictions in, columns out.
import { bandOf } from './band';
import {
  BENCHMARK_MODELS,
  fromNs,
  isTimeUnit,
  toNs,
  type Alias,
  type CountMetric,
  type DerivedMetric,
  type TimeUnit,
} from '../content/benchmarks';
import type { Measurement } from '../content/datasets';

/** How many standard deviations of the runs still count as measurement noise. */
export const NOISE_SIGMAS = 2;
export const NOISE_RULE = `A difference counts as "within measurement noise" when |predicted − measured| ≤ ${NOISE_SIGMAS} × the stddev of the measured runs (about 95 % of runs fall in that band if they are roughly normal). With no stddev stated, the noise is unknown and no verdict is given.`;

/** Rows the CLI wrote (`tlbscope sweep --format csv`) are model output, never measurements. */
export const MODEL_SOURCE = 'tlbscope-model';

/** What one model run gives the charts. */
export interface Readout {
  ns: number;
  /** The benchmark's count metrics per iteration (null: not in the summary). */
  perIteration: Readonly<Record<string, number | null>>;
  /** The benchmark's derived metrics in their dataset units (null: not computable). */
  derived?: Readonly<Record<string, number | null>>;
}

/** Which end of the cost ranges a band run took (model/band.ts). */
export type BandEnd = 'low' | 'high';

export type PredictionState =
  | { status: 'pending' }
  | { status: 'none'; reason: string }
  | (Readout & {
      status: 'done';
      scenario: string;
      /** The machine preset the model ran with. */
      preset: string;
      ignored: string[];
      aliased: Alias[];
      /**
       * The runs with every estimated cost at the low and at the high end of its range;
       * undefined while they run, null when either gave no figure.
       */
      band?: Readonly<Record<BandEnd, Readout>> | null;
    });

/**
 * The band around `predicted`: the figure `at` reads from each end run, with the central one.
 * Null until both ends have run, or when either end gives no figure.
 */
export function bandAround(
  predicted: number | null,
  prediction: PredictionState,
  at: (run: Readout, end: BandEnd) => number | null | undefined,
): [number, number] | null {
  if (predicted === null || prediction.status !== 'done' || !prediction.band) return null;
  const lo = at(prediction.band.low, 'low');
  const hi = at(prediction.band.high, 'high');
  if (lo == null || hi == null) return null;
  const b = bandOf(predicted, lo, hi);
  return b && [b.low, b.high];
}

/** A prediction whose band's two runs have not both answered yet. */
export function bandToCome(p: PredictionState): boolean {
  return p.status === 'done' && p.band === undefined;
}

export type Verdict =
  | { kind: 'within-noise'; diff: number; sigmas: number }
  | { kind: 'outside-noise'; diff: number; sigmas: number }
  | { kind: 'noise-unknown'; diff: number }
  /** The model has no preset for the measured machine: its number is another machine's. */
  | { kind: 'other-machine'; diff: number; preset: string }
  | { kind: 'no-prediction'; reason: string }
  /** The variant a fraction chart divides by: 1 on both sides by definition. */
  | { kind: 'reference' }
  | { kind: 'pending' };

/** The noise rule: prediction and measurement in the same unit. */
export function judge(predicted: number, measured: number, stddev: number | null): Verdict {
  const diff = predicted - measured;
  if (stddev === null) return { kind: 'noise-unknown', diff };
  const sigmas = stddev > 0 ? Math.abs(diff) / stddev : diff === 0 ? 0 : Infinity;
  return {
    // The epsilon keeps decimal round-off (2.7 − 2.5 = 0.2000000000000002) on the right side.
    kind: Math.abs(diff) <= NOISE_SIGMAS * stddev * (1 + 1e-9) ? 'within-noise' : 'outside-noise',
    diff,
    sigmas,
  };
}

export interface OverlayPoint {
  measurement: Measurement;
  /** Series = one source on one machine: drawn with its own shape. */
  series: number;
  /** In the chart's unit. */
  value: number;
  lo: number | null;
  hi: number | null;
  predicted: number | null;
  /** The prediction's band in the chart's unit (null: not run yet, or no figure at an end). */
  band: [number, number] | null;
  prediction: PredictionState;
  verdict: Verdict;
  /** What a machine fitted to this dataset predicts, in the chart's unit (null: no fit). */
  fitted: number | null;
}

export interface OverlayChartModel {
  id: string;
  benchmark: string;
  metric: string;
  /** A time unit, or `× <variant>` for a count charted as a fraction of that variant's. */
  unit: string;
  variants: string[];
  series: { label: string; machine: string; source: string }[];
  points: OverlayPoint[];
  /** What the comparison assumes, and the measured rows it could not chart. */
  notes: string[];
}

function pickUnit(maxNs: number): TimeUnit {
  if (maxNs < 1e3) return 'ns';
  if (maxNs < 1e6) return 'us';
  if (maxNs < 1e9) return 'ms';
  return 's';
}

/**
 * Absolute time measurements (not `a->b` comparisons, not model rows), grouped per benchmark
 * and metric. `predictionOf` gives the state of the prediction planned for a measurement.
 */
export function toOverlayCharts(
  measurements: readonly Measurement[],
  predictionOf: (m: Measurement) => PredictionState,
): OverlayChartModel[] {
  return chartsOf(chartGroups(measurements), predictionOf);
}

/** A chart's id and its measurements, before any prediction is asked for. */
export type ChartGroup = readonly [id: string, measurements: Measurement[]];

const collator = new Intl.Collator();

/**
 * The chartable measurements grouped per (benchmark, metric), in chart order. Cheap: a page
 * can group 20 k distinct series, then plan and draw only the groups it shows.
 */
export function chartGroups(measurements: readonly Measurement[]): ChartGroup[] {
  const groups = new Map<string, Measurement[]>();
  for (const m of measurements) {
    if (m.variant.includes('->') || m.source === MODEL_SOURCE) continue;
    if (!isTimeUnit(m.unit) && !countOf(m) && !derivedOf(m)) continue;
    const id = `${m.benchmark} · ${m.metric}`;
    const list = groups.get(id);
    if (list) list.push(m);
    else groups.set(id, [m]);
  }
  return [...groups].sort((a, b) => collator.compare(a[0], b[0]));
}

/** The chart models of `groups` (a group with nothing chartable gives no chart). */
export function chartsOf(
  groups: readonly ChartGroup[],
  predictionOf: (m: Measurement) => PredictionState,
  fittedNsOf: (m: Measurement) => number | null = () => null,
): OverlayChartModel[] {
  const charts: OverlayChartModel[] = [];
  for (const [id, ms] of groups) {
    const count = countOf(ms[0]);
    const derived = derivedOf(ms[0]);
    const chart = count
      ? fractionChart(ms, count, predictionOf)
      : derived
        ? derivedChart(ms, derived, predictionOf)
        : timeChart(ms, predictionOf, fittedNsOf);
    if (!chart.points.length) continue;
    const variants = [...new Set(chart.points.map((p) => p.measurement.variant))];
    charts.push({ id, benchmark: ms[0].benchmark, metric: ms[0].metric, variants, ...chart });
  }
  return charts;
}

function countOf(m: Measurement): CountMetric | null {
  return BENCHMARK_MODELS[m.benchmark]?.counts[m.metric] ?? null;
}

/** A derived metric, only for rows in its unit (another unit is not converted). */
function derivedOf(m: Measurement): DerivedMetric | null {
  const d = BENCHMARK_MODELS[m.benchmark]?.derived[m.metric];
  return d && d.unit === m.unit ? d : null;
}

/** Series = one source on one machine, numbered in order of appearance. */
function seriesIndex() {
  const series: OverlayChartModel['series'] = [];
  const of = (m: Measurement) => {
    let i = series.findIndex((s) => s.machine === m.machine && s.source === m.source);
    if (i < 0) {
      i = series.length;
      series.push({ label: `${m.machine} (${m.source})`, machine: m.machine, source: m.source });
    }
    return i;
  };
  return { series, of };
}

function verdictOf(
  m: Measurement,
  prediction: PredictionState,
  predicted: number | null,
  value: number,
  sd: number | null,
): Verdict {
  if (prediction.status === 'pending') return { kind: 'pending' };
  if (prediction.status === 'none') {
    return { kind: 'no-prediction', reason: `for ${m.benchmark}: ${prediction.reason}` };
  }
  if (prediction.preset !== m.machine) {
    return { kind: 'other-machine', diff: predicted! - value, preset: prediction.preset };
  }
  return judge(predicted!, value, sd);
}

function point(
  m: Measurement,
  series: number,
  value: number,
  sd: number | null,
  prediction: PredictionState,
  predicted: number | null,
  verdict: Verdict,
  fitted: number | null = null,
  band: [number, number] | null = null,
): OverlayPoint {
  return {
    fitted,
    band,
    measurement: m,
    series,
    value,
    lo: sd === null ? null : value - sd,
    hi: sd === null ? null : value + sd,
    predicted,
    prediction,
    verdict,
  };
}

/** What a chart builder decides; the grouping adds the rest. */
type ChartBody = Pick<OverlayChartModel, 'unit' | 'series' | 'points' | 'notes'>;

function timeChart(
  ms: Measurement[],
  predictionOf: (m: Measurement) => PredictionState,
  fittedNsOf: (m: Measurement) => number | null = () => null,
): ChartBody {
  const ns = (m: Measurement) => toNs(m.value + (m.stddev ?? 0), m.unit as TimeUnit);
  const unit = pickUnit(ms.reduce((a, m) => Math.max(a, ns(m)), -Infinity));
  const conv = (v: number, from: TimeUnit) => fromNs(toNs(v, from), unit);
  const { series, of } = seriesIndex();
  const points = ms.map((m): OverlayPoint => {
    const u = m.unit as TimeUnit;
    const value = conv(m.value, u);
    const sd = m.stddev === null ? null : conv(m.stddev, u);
    const prediction = predictionOf(m);
    const predicted = prediction.status === 'done' ? fromNs(prediction.ns, unit) : null;
    return point(
      m,
      of(m),
      value,
      sd,
      prediction,
      predicted,
      verdictOf(m, prediction, predicted, value, sd),
      ((f) => (f === null ? null : fromNs(f, unit)))(fittedNsOf(m)),
      bandAround(predicted, prediction, (r) => fromNs(r.ns, unit)),
    );
  });
  return { unit, series, points, notes: [] };
}

/**
 * A count measured as a total over an unstated number of iterations: each series' values and
 * the model's per-iteration predictions are divided by their own `relativeTo` variant, so they
 * compare if every variant ran the same number of iterations (the note says so). Rows whose
 * series has no reference row (in the same unit) cannot be charted and are listed instead.
 */
function fractionChart(
  ms: Measurement[],
  count: CountMetric,
  predictionOf: (m: Measurement) => PredictionState,
): ChartBody {
  const ref = count.relativeTo;
  const unit = `× ${ref}`;
  const { series, of } = seriesIndex();
  const notes = [count.why];
  const points: OverlayPoint[] = [];
  for (const m of ms) {
    const base = ms.find(
      (b) =>
        b.variant === ref && b.machine === m.machine && b.source === m.source && b.unit === m.unit,
    );
    if (!base || base.value === 0) {
      notes.push(
        `Not charted: ${m.variant} on ${m.machine} (${m.source}), ${base ? `its ${ref} count is 0` : `no ${ref} row in ${m.unit} to divide by`}.`,
      );
      continue;
    }
    const value = m.value / base.value;
    // Relative errors add in quadrature (independent runs); unknown if either is unstated.
    const sd =
      m === base || m.stddev === null || base.stddev === null
        ? null
        : value * Math.hypot(m.stddev / m.value, base.stddev / base.value);
    const prediction = predictionOf(m);
    const refPrediction = predictionOf(base);
    const mine = prediction.status === 'done' ? prediction.perIteration[m.metric] : null;
    const theirs = refPrediction.status === 'done' ? refPrediction.perIteration[m.metric] : null;
    const predicted = mine == null || !theirs ? null : mine / theirs;
    const verdict: Verdict =
      refPrediction.status === 'pending'
        ? { kind: 'pending' }
        : prediction.status === 'done' && predicted === null
          ? {
              kind: 'no-prediction',
              reason:
                theirs === 0
                  ? `for ${m.benchmark}: the model predicts no ${m.metric} for ${ref}`
                  : `for ${m.benchmark}: the simulator does not report ${count.summaryPath}`,
            }
          : m === base && predicted !== null
            ? { kind: 'reference' }
            : verdictOf(m, prediction, predicted, value, sd);
    // Each end divided by the reference's run at the same end.
    const band = bandAround(predicted, prediction, (r, end) => {
      const other = refPrediction.status === 'done' ? refPrediction.band?.[end] : undefined;
      const [a, b] = [r.perIteration[m.metric], other?.perIteration[m.metric]];
      return a == null || !b ? null : a / b;
    });
    points.push(point(m, of(m), value, sd, prediction, predicted, verdict, null, band));
  }
  return { unit, series, points, notes };
}

/**
 * A metric the source states in its own unit (a total rate, a percentage): charted in that unit,
 * the model's number converted to it by the metric's rule (the note says which).
 */
function derivedChart(
  ms: Measurement[],
  d: DerivedMetric,
  predictionOf: (m: Measurement) => PredictionState,
): ChartBody {
  const { series, of } = seriesIndex();
  const points = ms.map((m): OverlayPoint => {
    const prediction = predictionOf(m);
    const predicted =
      prediction.status === 'done' ? (prediction.derived?.[m.metric] ?? null) : null;
    const verdict: Verdict =
      prediction.status === 'done' && predicted === null
        ? {
            kind: 'no-prediction',
            reason: `for ${m.benchmark}: the simulator does not report ${d.summaryPath}`,
          }
        : verdictOf(m, prediction, predicted, m.value, m.stddev);
    const band = bandAround(predicted, prediction, (r) => r.derived?.[m.metric]);
    return point(m, of(m), m.value, m.stddev, prediction, predicted, verdict, null, band);
  });
  return { unit: d.unit, series, points, notes: [d.why] };
}

export const UNIT_LABEL: Record<string, string> = {
  ns: 'ns',
  us: 'µs',
  ms: 'ms',
  s: 's',
  per_s: '/s',
  percent: '%',
};

/** "2.53 µs" with enough digits to tell a mail's numbers apart. */
export function formatValue(v: number, unit: string): string {
  // Rates are whole iterations a second in the sources (614363): grouped, no decimals.
  if (unit === 'per_s') return `${Math.round(v).toLocaleString('en-US')} /s`;
  const digits = Math.abs(v) >= 100 ? 1 : Math.abs(v) >= 1 ? 3 : 4;
  return `${Number(v.toFixed(digits))} ${UNIT_LABEL[unit] ?? unit}`;
}

/** A difference of two values: percentages differ by points, not by per cent. */
function formatDiff(v: number, unit: string): string {
  return unit === 'percent' ? `${Number(v.toFixed(1))} points` : formatValue(v, unit);
}

/** Which way the model is off: a higher rate is faster, a higher time or share slower. */
function direction(diff: number, unit: string): string {
  return diff > 0 === (unit === 'per_s') ? 'faster' : 'slower';
}

/** One sentence for a verdict, in the chart's unit. */
export function describeVerdict(v: Verdict, unit: string): string {
  switch (v.kind) {
    case 'within-noise':
      return `within measurement noise (off by ${formatDiff(Math.abs(v.diff), unit)}, ${v.sigmas.toFixed(1)} σ)`;
    case 'outside-noise':
      return `outside measurement noise: the model is ${direction(v.diff, unit)} by ${formatDiff(Math.abs(v.diff), unit)} (${Number.isFinite(v.sigmas) ? v.sigmas.toFixed(1) : '∞'} σ)`;
    case 'noise-unknown':
      return `off by ${formatDiff(Math.abs(v.diff), unit)}${unit === 'per_s' || unit === 'percent' ? ` (the model is ${direction(v.diff, unit)})` : ''}; no stddev stated, so whether that is noise is unknown`;
    case 'other-machine':
      return `no verdict: the model has no preset for this machine, and the × is its prediction for ${v.preset} (${direction(v.diff, unit)} by ${formatDiff(Math.abs(v.diff), unit)}); fit one to your CSV below (Fit a machine preset) or with npx tlbscope fit`;
    case 'no-prediction':
      return `no model prediction yet ${v.reason}`;
    case 'reference':
      return `the reference: the other variants are fractions of its count (1 ${unit} on both sides by definition)`;
    case 'pending':
      return 'model prediction running…';
  }
}
