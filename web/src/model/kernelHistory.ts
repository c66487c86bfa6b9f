// The kernel history slider's view model: which kernel the A settings name, the overrides that
// replay the workload under each kernel, and the history table's rows (figures, the change
// from the previous kernel, the commits). Pure: the kernels come from the simulator's
// vocabulary (`kernels`, oldest first), the figures from run summaries.
import type { Summary } from '../trace/summary';

/** One `kernel=` step as the simulator's vocabulary lists it. */
export interface KernelStep {
  name: string;
  /** The commit(s) of this step and what they changed. */
  change: string;
  /** The toggles the step sets, `key=value` (a toggle it leaves out keeps its default). */
  set: readonly string[];
}

const keyOf = (o: string) => o.slice(0, Math.max(0, o.indexOf('=')));

/**
 * The keys the slider owns: `kernel` and every toggle some kernel sets. Moving the slider
 * replaces them, because a toggle the reader had set would otherwise win over the kernel's
 * (the simulator lets explicit toggles win) and the run would not be that kernel's.
 */
export function historyKeys(kernels: readonly KernelStep[]): Set<string> {
  const keys = new Set(['kernel']);
  for (const k of kernels) for (const o of k.set) keys.add(keyOf(o));
  return keys;
}

/** The reader's overrides without those the slider owns: the workload every kernel replays. */
export function workloadOf(kernels: readonly KernelStep[], overrides: readonly string[]): string[] {
  const owned = historyKeys(kernels);
  return overrides.filter((o) => !owned.has(keyOf(o)));
}

/**
 * The overrides that run the workload under `kernels[index]`: the reader's workload, then
 * `kernel=` and every toggle that kernel sets, as `tlbscope history` runs each step.
 */
export function kernelOverrides(
  kernels: readonly KernelStep[],
  overrides: readonly string[],
  index: number,
): string[] {
  const k = kernels[index];
  return [...workloadOf(kernels, overrides), `kernel=${k.name}`, ...k.set];
}

const valueIn = (overrides: readonly string[], key: string) => {
  let v: string | undefined;
  for (const o of overrides) if (keyOf(o) === key) v = o.slice(key.length + 1);
  return v;
};

export interface ChosenKernel {
  index: number;
  /**
   * Toggles the reader changed after picking the kernel (`key=value` as set now): the run is
   * then not that kernel's, and the table says so.
   */
  departures: string[];
}

/** The kernel the overrides name (`kernel=`), or null when they name none the slider knows. */
export function chosenKernel(
  kernels: readonly KernelStep[],
  overrides: readonly string[],
): ChosenKernel | null {
  const name = valueIn(overrides, 'kernel');
  const index = kernels.findIndex((k) => k.name === name);
  if (index < 0) return null;
  const want = new Map(kernels[index].set.map((o) => [keyOf(o), o]));
  const departures: string[] = [];
  for (const key of historyKeys(kernels)) {
    if (key === 'kernel') continue;
    const v = valueIn(overrides, key);
    const own = want.get(key);
    if (own === undefined ? v !== undefined : v !== own.slice(key.length + 1))
      departures.push(v === undefined ? `${key} (default)` : `${key}=${v}`);
  }
  return { index, departures };
}

/**
 * The slider moved by `dir` from the kernel the overrides name: the overrides of the kernel
 * reached, or null at either end. With no kernel chosen, `+1` starts at the oldest kernel and
 * `-1` at the newest.
 */
export function stepKernel(
  kernels: readonly KernelStep[],
  overrides: readonly string[],
  dir: 1 | -1,
): string[] | null {
  const at = chosenKernel(kernels, overrides);
  const index = at === null ? (dir > 0 ? 0 : kernels.length - 1) : at.index + dir;
  if (index < 0 || index >= kernels.length) return null;
  return kernelOverrides(kernels, overrides, index);
}

/** What the history table shows of one kernel's run (the figures `tlbscope history` prints). */
export interface KernelFigures {
  /** Mean op latency; null when the scenario measures no op. */
  opLatencyNs: number | null;
  flushLatencyNs: number;
  /** The longest preemption-off time of a flush. */
  preemptOffMaxNs: number;
  ipis: number;
  /** The invariants the run broke, sorted, each once. */
  violated: string[];
  /** The machine preset the run used. */
  machine: string;
}

export function figuresOf(summary: Summary): KernelFigures {
  const op = summary.op_latency_ns as { count?: number; mean?: number } | undefined;
  return {
    opLatencyNs: op && typeof op.count === 'number' && op.count > 0 ? (op.mean ?? null) : null,
    flushLatencyNs: summary.flush_latency_ns.mean,
    preemptOffMaxNs: summary.preempt_off_ns.max,
    ipis: summary.ipis,
    violated: [...new Set(summary.violations.map((v) => v.invariant))].sort(),
    machine: typeof summary.machine === 'string' ? summary.machine : '',
  };
}

/** A figure and how it moved from the previous kernel's (null: no previous, or not measured). */
export interface Figure {
  ns: number | null;
  delta: number | null;
}

export interface HistoryRow {
  kernel: string;
  /** The commit ids the change names (12 hex digits each), in order; none for the first. */
  commits: string[];
  change: string;
  /** Null while the kernel's run is pending (or it failed: `error`). */
  opLatency: Figure | null;
  flushLatency: Figure | null;
  preemptOffMax: Figure | null;
  ipis: { n: number; delta: number | null } | null;
  /** 'safe', or the invariants broken. */
  safety: string | null;
  /** How safety changed from the previous kernel ('breaks I1', 'no longer breaks I1'). */
  safetyChange: string | null;
  error: string | null;
}

const COMMIT = /\b[0-9a-f]{12}\b/g;

/** The commit ids a step's change names, in order. */
export function commitsOf(change: string): string[] {
  return change.match(COMMIT) ?? [];
}

function figure(now: number | null, before: number | null | undefined): Figure {
  return { ns: now, delta: now === null || before == null ? null : now - before };
}

function safetyChange(now: string[], before: string[]): string | null {
  const broke = now.filter((i) => !before.includes(i));
  const fixed = before.filter((i) => !now.includes(i));
  const parts = [
    broke.length ? `breaks ${broke.join(', ')}` : '',
    fixed.length ? `no longer breaks ${fixed.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : null;
}

/** One kernel's run: its figures, its failure, or still pending. */
export type KernelResult =
  | { status: 'done'; figures: KernelFigures }
  | { status: 'error'; message: string }
  | { status: 'pending' };

/**
 * The table's rows, one per kernel, each compared with the previous kernel's run (when both
 * are done): deltas are this kernel's figure minus the previous one's.
 */
export function historyRows(
  kernels: readonly KernelStep[],
  results: readonly KernelResult[],
): HistoryRow[] {
  return kernels.map((k, i) => {
    const r = results[i] ?? { status: 'pending' };
    const prevResult = i > 0 ? results[i - 1] : undefined;
    const prev = prevResult?.status === 'done' ? prevResult.figures : undefined;
    const base = { kernel: k.name, commits: commitsOf(k.change), change: k.change };
    if (r.status !== 'done') {
      return {
        ...base,
        opLatency: null,
        flushLatency: null,
        preemptOffMax: null,
        ipis: null,
        safety: null,
        safetyChange: null,
        error: r.status === 'error' ? r.message : null,
      };
    }
    const f = r.figures;
    return {
      ...base,
      opLatency: figure(f.opLatencyNs, prev?.opLatencyNs),
      flushLatency: figure(f.flushLatencyNs, prev?.flushLatencyNs),
      preemptOffMax: figure(f.preemptOffMaxNs, prev?.preemptOffMaxNs),
      ipis: { n: f.ipis, delta: prev ? f.ipis - prev.ipis : null },
      safety: f.violated.length ? `breaks ${f.violated.join(', ')}` : 'safe',
      safetyChange: prev ? safetyChange(f.violated, prev.violated) : null,
      error: null,
    };
  });
}

/** Whose numbers the table shows, in words. */
export function historySource(
  scenario: string,
  machines: readonly string[],
  seed: number,
  workload: readonly string[],
): string {
  const presets = [...new Set(machines.filter(Boolean))];
  const preset = presets.length
    ? `the ${presets.join(' / ')} machine preset${presets.length > 1 ? 's' : ''}`
    : 'the scenario’s machine preset';
  const yours = workload.length ? `, your settings ${workload.join(' ')}` : '';
  return `Predicted by the tlbscope model with ${preset}: scenario ${scenario}, seed ${seed}${yours}. Not measured.`;
}

/**
 * The kernel whose toggle `key` is, when the overrides chose a kernel and hold that kernel's
 * value for `key` (the slider set it, not the reader); else null.
 */
export function kernelSetting(
  kernels: readonly KernelStep[],
  overrides: readonly string[],
  key: string,
): string | null {
  if (key === 'kernel') return null;
  const at = chosenKernel(kernels, overrides);
  if (!at) return null;
  const k = kernels[at.index];
  const own = k.set.find((o) => keyOf(o) === key);
  return own !== undefined && own === `${key}=${valueIn(overrides, key)}` ? k.name : null;
}
