// A fitted machine as the rest of the page uses it: the imported rows the fit reads, and the
// fit's result as `--set` overrides any scenario can run with (a preset plus `costs.*`).
import type { Measurement } from '../content/datasets';
import type { FitResult, FitRow } from './fitCore.mjs';

/** The measurements as the fit's rows, each numbered by its first line in the file. */
export function fitRowsOf(measurements: readonly Measurement[]): FitRow[] {
  return measurements.map((m) => ({
    line: m.rows[0] ?? 0,
    benchmark: m.benchmark,
    variant: m.variant,
    metric: m.metric,
    machine: m.machine,
    value: m.value,
    unit: m.unit,
  }));
}

/** The fitted machine as overrides: its preset, then every fitted cost. */
export function fittedOverrides(r: FitResult): string[] {
  return [`machine=${r.preset}`, ...r.params.map((p) => `costs.${p.name}=${p.value}`)];
}

/** The explorer's URL for `scenario` run with `overrides` (relative, like every link here). */
export function scenarioLink(scenario: string, overrides: readonly string[]): string {
  const q = new URLSearchParams({ scenario });
  for (const o of overrides) q.append('set', o);
  return `?${q}`;
}
