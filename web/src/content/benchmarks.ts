// Which scenario models which measured benchmark: the one place that ties datasets to the
// simulator. A benchmark without an entry, a scenario not yet written, a variant the model has
// no setting for, or a metric the simulator does not report all give "no model prediction yet"
// with the reason — never a made-up number.
import type { Measurement } from './datasets';
import { findScenario } from './scenarios';
import benchmarkTable from '../../../content/benchmarks.json';

export interface BenchmarkModel {
  /** content/scenarios/<scenario>.toml */
  scenario: string;
  /** Dataset metrics the prediction is compared with. */
  metrics: readonly string[];
  /** Where the number is in the simulator's summary, e.g. `op_latency_ns.mean`. */
  summaryPath: string;
  summaryUnit: TimeUnit;
  /** Variant keys the simulator can set for this benchmark, with the values it accepts. */
  settings: Readonly<Record<string, RegExp>>;
  /** Variant pairs the model runs as another pair, e.g. the PCID mail's `pcid=before` as `pcid=off`. */
  aliases: Readonly<Record<string, string>>;
  /** Why the mapping is what it is (shown under the chart). */
  notes: string | null;
  /** Count metrics (e.g. dTLB misses) the model predicts per iteration, by dataset metric. */
  counts: Readonly<Record<string, CountMetric>>;
  /** Metrics measured in another unit than the summary's, and how the model's number becomes one. */
  derived: Readonly<Record<string, DerivedMetric>>;
}

/**
 * A number a source states in a unit the simulator's summary does not report, e.g.
 * will-it-scale's total iterations a second. The model's number is converted to it by a named
 * rule, never the measurement to the model's: the chart shows the digits the source wrote.
 */
export interface DerivedMetric {
  /** The dataset unit, e.g. `per_s`. */
  unit: string;
  /** The model's number in the simulator's summary, e.g. `op_latency_ns.mean`. */
  summaryPath: string;
  /**
   * `threads_per_ns`: threads × 10^9 / the summary's ns (a total rate over threads from one
   * thread's time per iteration, the variant's `threads=`). `percent_of_inverse`: 100 / the
   * summary's number (a time relative to an undisturbed run from a throughput fraction).
   */
  rule: 'threads_per_ns' | 'percent_of_inverse';
  /**
   * Settings the prediction runs with besides the variant's, e.g. fewer iterations where the
   * measured thread counts make the scenario's own count slow in the page (the note says why).
   */
  set?: readonly string[];
  /** The assumption behind the conversion (shown under the chart). */
  why: string;
}

/**
 * A count a benchmark reports as a total over an unstated number of iterations. The model
 * predicts it per iteration, so the two meet only as fractions of one variant's count.
 */
export interface CountMetric {
  /** The count in the simulator's summary, e.g. `tlb_misses_measured`. */
  summaryPath: string;
  /** The number of measured iterations in the summary, e.g. `op_latency_ns.count`. */
  perIteration: string;
  /** The variant every other is a fraction of, e.g. `pcid=off`. */
  relativeTo: string;
  /** The assumption behind the comparison (shown under the chart). */
  why: string;
}

/** The mapping itself lives in content/benchmarks.json, which the CLI (`tlbscope calibrate`,
 * `tlbscope fit`) reads too; settings are regular expressions written as strings there. */
export const BENCHMARK_MODELS: Readonly<Record<string, BenchmarkModel>> = Object.fromEntries(
  Object.entries(benchmarkTable as Record<string, BenchmarkEntry>).map(([id, b]) => [
    id,
    {
      scenario: b.scenario,
      metrics: b.metrics,
      summaryPath: b.summaryPath,
      summaryUnit: b.summaryUnit as TimeUnit,
      settings: Object.fromEntries(
        Object.entries(b.settings).map(([k, re]) => [k, new RegExp(re)]),
      ),
      aliases: b.aliases ?? {},
      notes: b.notes ?? null,
      counts: b.counts ?? {},
      derived: b.derived ?? {},
    },
  ]),
);

interface BenchmarkEntry {
  scenario: string;
  metrics: string[];
  summaryPath: string;
  summaryUnit: string;
  settings: Record<string, string>;
  aliases?: Record<string, string>;
  notes?: string;
  counts?: Record<string, CountMetric>;
  derived?: Record<string, DerivedMetric>;
}

/** Machine presets of the simulator (sim-wasm/src/presets.rs); the first is its default. */
export const PRESETS = [
  'generic-x86',
  'icelake-8336c-128',
  'skylake-laptop-kvm',
  'skylake-desktop-4',
  'skylake-sp-56',
  'zen3-epyc-7763-128',
  'generic-arm64',
  'ampere-32',
  'altra-n1-80',
  'thunderx2-2s',
] as const;

/** Variant keys that name the measured system, not a design choice the model could vary. */
const DESCRIPTIVE_KEYS = new Set(['kernel']);

export type TimeUnit = 'ns' | 'us' | 'ms' | 's';
const NS_PER: Record<TimeUnit, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };

export function isTimeUnit(u: string): u is TimeUnit {
  return u in NS_PER;
}

export function toNs(value: number, unit: TimeUnit): number {
  return value * NS_PER[unit];
}

export function fromNs(ns: number, unit: TimeUnit): number {
  return ns / NS_PER[unit];
}

/** A number at a dotted path of the summary, or null when the simulator does not report it. */
export function readSummaryPath(summary: unknown, path: string): number | null {
  let v: unknown = summary;
  for (const k of path.split('.')) {
    if (typeof v !== 'object' || v === null || !(k in v)) return null;
    v = (v as Record<string, unknown>)[k];
  }
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** A variant pair of a measurement and the pair the model runs for it. */
export interface Alias {
  from: string;
  to: string;
}

export type PredictionPlan =
  | {
      key: string;
      status: 'run';
      scenario: string;
      text: string;
      overrides: string[];
      preset: string;
      summaryPath: string;
      summaryUnit: TimeUnit;
      /** Variant keys left to the scenario because they describe the measured system. */
      ignored: string[];
      /** Variant pairs run as another pair (`pcid=before` as `pcid=off`). */
      aliased: Alias[];
      /** The benchmark's count metrics, read from the same run. */
      counts: Readonly<Record<string, CountMetric>>;
      /** The benchmark's derived metrics, read from the same run. */
      derived: Readonly<Record<string, DerivedMetric>>;
    }
  | { key: string; status: 'none'; reason: string };

function scenarioPreset(text: string): string {
  const m = /^\s*preset\s*=\s*"([^"]+)"/m.exec(text);
  return m ? m[1] : PRESETS[0];
}

/** What to run (or why nothing can be run) to predict one measurement. */
export function planPrediction(m: Measurement): PredictionPlan {
  const preset = (PRESETS as readonly string[]).includes(m.machine) ? m.machine : null;
  // The CPU count is part of what runs (below), so two machines' rows share a run only at one size.
  const key = `${m.benchmark}|${m.variant}|${preset ?? ''}|${m.cpus ?? ''}`;
  const none = (reason: string): PredictionPlan => ({ key, status: 'none', reason });
  const model = BENCHMARK_MODELS[m.benchmark];
  if (!model) return none(`no scenario models ${m.benchmark} yet`);
  if (
    !model.metrics.includes(m.metric) &&
    !(m.metric in model.counts) &&
    !(m.metric in model.derived)
  ) {
    const known = [...model.metrics, ...Object.keys(model.counts), ...Object.keys(model.derived)];
    return none(
      `only ${known.join(', ')} ${known.length > 1 ? 'are' : 'is'} predicted, not ${m.metric}`,
    );
  }
  const scenario = findScenario(model.scenario);
  if (!scenario) return none(`scenario ${model.scenario} is not written yet`);
  if (m.variant.includes('->')) return none('relative comparisons are not predicted');
  const overrides: string[] = [...(model.derived[m.metric]?.set ?? [])];
  const ignored: string[] = [];
  const aliased: Alias[] = [];
  for (const pair of m.variant.split(';').filter(Boolean)) {
    const use = model.aliases[pair] ?? pair;
    if (use !== pair) aliased.push({ from: pair, to: use });
    const [k, v = ''] = use.split('=');
    if (DESCRIPTIVE_KEYS.has(k)) ignored.push(use);
    else if (model.settings[k]?.test(v)) overrides.push(`${k}=${v}`);
    else return none(`${pair} is not a setting of the model`);
  }
  // A total over threads needs the thread count: without it the run could not be converted.
  const derived = model.derived[m.metric];
  if (derived?.rule === 'threads_per_ns' && !overrides.some((o) => /^threads=\d+$/.test(o)))
    return none('the variant names no threads= to total over');
  if (preset) overrides.push(`machine=${preset}`);
  // The run has the measured machine's size, whether a preset or the scenario's machine stands
  // in for it: the scenario's own CPU count wins over a preset's, and a 55-thread run on the
  // scenario's 16 CPUs would measure oversubscription, not the machine.
  if (m.cpus !== null && m.cpus > 0 && !overrides.some((o) => o.startsWith('cpus=')))
    overrides.push(`cpus=${m.cpus}`);
  return {
    key,
    status: 'run',
    scenario: model.scenario,
    text: scenario.text,
    overrides,
    preset: preset ?? scenarioPreset(scenario.text),
    summaryPath: model.summaryPath,
    summaryUnit: model.summaryUnit,
    ignored,
    aliased,
    counts: model.counts,
    derived: model.derived,
  };
}

/** A count per iteration from a summary, or null when either number is missing. */
export function countPerIteration(summary: unknown, c: CountMetric): number | null {
  const total = readSummaryPath(summary, c.summaryPath);
  const iterations = readSummaryPath(summary, c.perIteration);
  return total === null || !iterations ? null : total / iterations;
}

/**
 * A derived metric's model value from a summary and the overrides it ran with, or null when the
 * summary lacks the number or the rule lacks what it needs (a `threads=` for a total rate).
 */
export function derivedValue(
  summary: unknown,
  d: DerivedMetric,
  overrides: readonly string[],
): number | null {
  const v = readSummaryPath(summary, d.summaryPath);
  if (v === null || v <= 0) return null;
  switch (d.rule) {
    case 'threads_per_ns': {
      const t = overrides.map((o) => /^threads=(\d+)$/.exec(o)).find(Boolean);
      return t ? (Number(t[1]) * 1e9) / v : null;
    }
    case 'percent_of_inverse':
      return 100 / v;
  }
}
