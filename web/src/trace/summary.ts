// The simulator's per-run summary (computed in Rust, sim-wasm/src/summary.rs), and the one
// checked parse of it at the WASM boundary: a summary that lacks a field the app reads is a
// clear error naming the field, not an `undefined` found later in a panel.

import type { Summary as SummaryShape } from './shapes.generated';

// Stats, Violation and the summary's fields are generated from the Rust structs
// (shapes.generated.ts); a field added in Rust is typed here without an edit.
export type { Stats, Violation } from './shapes.generated';

/** The fields the app reads, by what the parse checks them to be. */
const NUMBER_FIELDS = ['events', 'trace_rows', 'sim_time_ns', 'ipis'] as const;
const STATS_OF = ['flush_latency_ns', 'preempt_off_ns'] as const;

/**
 * The fields every run's summary has, a model run's or a recording's (recording/summary.ts
 * fills the same ones from a kernel trace); other keys are kept as they came.
 */
export type Summary = Pick<
  SummaryShape,
  (typeof NUMBER_FIELDS)[number] | (typeof STATS_OF)[number] | 'violations'
> & { [key: string]: unknown };

const STATS_FIELDS = ['count', 'mean', 'p50', 'p99', 'max'] as const;
const VIOLATION_FIELDS = {
  invariant: 'string',
  cpu: 'number',
  time_ns: 'number',
  detail: 'string',
};

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function checkStats(x: unknown, field: string): void {
  if (!isObject(x)) throw new Error(`simulator summary: ${field} is not an object`);
  for (const k of STATS_FIELDS) {
    if (typeof x[k] !== 'number')
      throw new Error(`simulator summary: ${field}.${k} is not a number`);
  }
}

/**
 * The summary JSON the simulator returned, checked for the fields of `Summary`. The object is
 * returned as parsed (key order included: the CLI prints it as it came).
 */
export function parseSummary(json: string): Summary {
  const x: unknown = JSON.parse(json);
  assertSummary(x);
  return x;
}

function assertSummary(x: unknown): asserts x is Summary {
  if (!isObject(x)) throw new Error('simulator summary: not a JSON object');
  for (const k of NUMBER_FIELDS) {
    if (typeof x[k] !== 'number') throw new Error(`simulator summary: ${k} is not a number`);
  }
  for (const k of STATS_OF) checkStats(x[k], k);
  if (!Array.isArray(x.violations)) throw new Error('simulator summary: violations is not a list');
  x.violations.forEach((v: unknown, i) => {
    for (const [k, type] of Object.entries(VIOLATION_FIELDS)) {
      if (!isObject(v) || typeof v[k] !== type)
        throw new Error(`simulator summary: violations[${i}].${k} is not a ${type}`);
    }
  });
}
