// The band around a prediction. Every cost the model estimates carries a range (a factor below
// and above the value a run uses, with what says so; the simulator's vocabulary lists them).
// The band is what the model predicts with every such cost at the bottom of its range and with
// every one at the top: both ends run, plus the central run, and the band spans the three.
// Costs a scenario or the user set explicitly are their own and stay as given, as do counts
// and switches.
import { VOCABULARY } from '../sim/vocabulary.generated';

export interface CostRange {
  name: string;
  low: number | null;
  high: number | null;
  /** The largest value the simulator accepts: an end past it is held there. */
  max: number;
}

const RANGES: readonly CostRange[] = VOCABULARY.costs;

/** The cost names `overrides` sets (`costs.<name>=…` or `<name>=…`). */
function setCosts(overrides: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (const o of overrides) {
    const m = /^(?:costs\.)?([a-z_0-9]+)=/.exec(o);
    if (m) named.add(m[1]);
  }
  return named;
}

/**
 * The settings to add to a run's own for its low and high ends: each ranged cost at its
 * factor times the value the run used (`costs`, as the simulator reports them).
 */
export function boundOverrides(
  costs: Readonly<Record<string, number>>,
  overrides: readonly string[],
  ranges: readonly CostRange[] = RANGES,
): { low: string[]; high: string[] } {
  const own = setCosts(overrides);
  const low: string[] = [];
  const high: string[] = [];
  for (const r of ranges) {
    const v = costs[r.name];
    if (r.low === null || r.high === null || own.has(r.name) || !(v > 0)) continue;
    low.push(`costs.${r.name}=${Math.round(v * r.low)}`);
    high.push(`costs.${r.name}=${Math.min(r.max, Math.round(v * r.high))}`);
  }
  return { low, high };
}

export interface Band {
  low: number;
  central: number;
  high: number;
}

/** The band of one figure from its central run and the two ends (either end may be the lower). */
export function bandOf(central: number, atLow: number, atHigh: number): Band | null {
  if (![central, atLow, atHigh].every(Number.isFinite)) return null;
  return {
    low: Math.min(central, atLow, atHigh),
    central,
    high: Math.max(central, atLow, atHigh),
  };
}

/** How wide a band is, as the factor its top is of its bottom (null: a bottom of 0). */
export function bandWidth(b: Band): number | null {
  return b.low > 0 ? b.high / b.low : null;
}

/** "−38 % / +95 %": how far the band reaches below and above its central value. */
export function formatBand(b: Band): string {
  if (!(b.central !== 0)) return `${b.low} to ${b.high}`;
  const pct = (x: number) => Math.round((x / b.central - 1) * 100);
  const lo = pct(b.low);
  return `${lo < 0 ? '−' : '+'}${Math.abs(lo)} % / +${pct(b.high)} %`;
}
