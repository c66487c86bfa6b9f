// Types of fitCore.mjs (plain JavaScript so the CLI runs it without a build).
export const NS_PER_UNIT: Record<string, number>;

export class FitError extends Error {}

/** A measured row as both the CLI's CSV reader and the page's import provide it. */
export interface FitRow {
  line: number;
  benchmark: string;
  variant: string;
  metric: string;
  machine: string;
  value: number;
  unit: string;
}

export interface BenchmarkModel {
  scenario: string;
  summaryPath: string;
  settings: Record<string, string>;
  fitParams?: string[];
  aliases?: Record<string, string>;
}

export interface SelectedRow {
  line: number;
  benchmark: string;
  variant: string;
  metric: string;
  machine: string;
  /** In ns. */
  measured: number;
  unit: string;
  scenario: string;
  summaryPath: string;
  overrides: string[];
  aliased: { from: string; to: string }[];
}

export interface SkippedRow {
  line: number;
  row: FitRow;
  reason: string;
}

export function selectRows(
  rows: readonly FitRow[],
  opts: { benchmark?: string; benchmarks: Readonly<Record<string, BenchmarkModel>> },
): { selected: SelectedRow[]; skipped: SkippedRow[] };

export function defaultParams(
  selected: readonly SelectedRow[],
  benchmarks: Readonly<Record<string, BenchmarkModel>>,
): string[];

export interface FitResult {
  preset: string;
  runs: number;
  iterations: number;
  params: {
    name: string;
    start: number;
    value: number;
    bounds: [number, number];
    identifiable: boolean;
  }[];
  residuals: {
    line: number;
    benchmark: string;
    variant: string;
    modelled_as: string[];
    metric: string;
    measured_ns: number;
    predicted_ns: number;
    residual_ns: number;
    residual_pct: number;
  }[];
  rms_pct: number;
}

export function fitCosts(opts: {
  selected: readonly SelectedRow[];
  names: readonly string[];
  costs: Readonly<Record<string, number>>;
  preset: string;
  /** One prediction in ns per selected row, for cost values `x` (in `names` order). */
  predict: (x: number[]) => number[];
  maxRuns?: number;
  progress?: (line: string) => void;
  start?: Readonly<Record<string, number>>;
}): FitResult;
