// What each mark means, for the kinds a run actually has: shared by the page's legend and the
// exported diagrams, so the two say the same thing.
import { kernelFunction } from './events';
import { EventKind, type Trace } from '../trace/trace';
import { unpairedSends } from './ipis';
import type { StepMark } from './check';

const SPANS: [EventKind, string][] = [
  [EventKind.TaskRun, 'task running'],
  [EventKind.Lazy, 'lazy TLB (kernel thread on a borrowed mm)'],
  [EventKind.PreemptOff, 'preemption off'],
  [EventKind.IrqsOff, 'interrupts off (IPI pending)'],
  [EventKind.FlushRange, 'flush_tlb_mm_range (initiator)'],
  [EventKind.IpiHandler, 'IPI handler (target)'],
  [EventKind.IpiWait, 'csd_lock_wait: waiting for acks'],
  [EventKind.FlushTlbFunc, 'flush_tlb_func: TLB invalidation'],
  [EventKind.SwitchMm, 'switch_mm_irqs_off'],
  [EventKind.TlbiBroadcast, 'TLBI …IS + DSB ISH (broadcast)'],
  [EventKind.InterconnectQueued, 'queued for the interconnect'],
  [EventKind.LocalTlbi, 'local TLBI + DSB NSH'],
  [EventKind.VictimStall, 'victim stall (another CPU’s broadcast)'],
  [EventKind.PageWalk, 'page walk in flight'],
];

export type LegendEntry =
  | { mark: 'span'; kind: EventKind; label: string }
  | { mark: 'ipi' | 'ack' | 'unpaired' | 'violation'; label: string }
  | { mark: 'step'; step: StepBadge; label: string };

/** A counterexample's numbered badge (viz/marks/checkSteps.ts), by what its style says. */
export type StepBadge = 'plain' | 'racing' | 'violation';

/** What one diagram's data draws: a run's kinds and unpaired IPI sends. */
export interface DrawnKinds {
  kinds: ReadonlySet<number>;
  unpaired: number;
}

/** The kinds `trace` has and its unpaired IPI sends (what its timeline can draw). */
export function drawnKinds(trace: Pick<Trace, 'n' | 'kind' | 'parent'>): DrawnKinds {
  const kinds = new Set<number>();
  for (let i = 0; i < trace.n; i++) kinds.add(trace.kind[i]);
  return { kinds, unpaired: kinds.has(EventKind.IpiSent) ? unpairedSends(trace) : 0 };
}

/**
 * The legend of a figure of several timelines (A and B) and a counterexample's numbered steps:
 * every mark kind any of them draws, each once, in the order of the single-run legend, then
 * the step badges whose styles are drawn.
 */
export function legendOfFigure(
  runs: readonly DrawnKinds[],
  steps: readonly Pick<StepMark, 'race' | 'violation'>[] = [],
  /** Kinds a step's magnifier draws besides the lanes' own (viz/marks/magnifier.ts). */
  magnified: ReadonlySet<number> = new Set(),
): LegendEntry[] {
  const kinds = new Set<number>();
  let unpaired = 0;
  for (const r of runs) {
    for (const k of r.kinds) kinds.add(k);
    unpaired += r.unpaired;
  }
  const out = legendOfKinds(kinds, unpaired);
  // The inset also draws instants the lanes leave out (preempt_disable(), a preemption):
  // named by their kernel function, after the lanes' own marks.
  const named = new Set(out.flatMap((e) => (e.mark === 'span' ? [e.kind] : [])));
  for (const k of [...magnified].sort((x, y) => x - y))
    if (!named.has(k) && !NOT_SPANS.has(k))
      out.push({ mark: 'span', kind: k, label: kernelFunction(k) });
  const badges: [StepBadge, boolean, string][] = [
    [
      'plain',
      steps.some((s) => s.race === null && !s.violation),
      'a step of the counterexample, numbered',
    ],
    [
      'racing',
      steps.some((s) => s.race !== null && !s.violation),
      'a racing step (run in the opposite order to a normal run)',
    ],
    ['violation', steps.some((s) => s.violation), 'the step that breaks the invariant'],
  ];
  for (const [step, drawn, label] of badges) if (drawn) out.push({ mark: 'step', step, label });
  return out;
}

export function legendEntries(trace: Pick<Trace, 'n' | 'kind' | 'parent'>): LegendEntry[] {
  const seen = new Set<number>();
  for (let i = 0; i < trace.n; i++) seen.add(trace.kind[i]);
  return legendOfKinds(seen, seen.has(EventKind.IpiSent) ? unpairedSends(trace) : 0);
}

/** The legend for the kinds `seen` (a window's, when the rows are not on the page). */
export function legendOfKinds(seen: ReadonlySet<number>, unpaired: number): LegendEntry[] {
  const out: LegendEntry[] = SPANS.filter(([k]) => seen.has(k)).map(([kind, label]) => ({
    mark: 'span',
    kind,
    label,
  }));
  if (seen.has(EventKind.IpiSent) && seen.has(EventKind.IpiHandler)) {
    out.push({ mark: 'ipi', label: 'IPI sent → handled' });
  }
  if (unpaired > 0) {
    out.push({ mark: 'unpaired', label: 'IPI sent, no handler recorded (unpaired)' });
  }
  if (seen.has(EventKind.CsdUnlocked)) out.push({ mark: 'ack', label: 'csd unlocked (ack)' });
  if (seen.has(EventKind.InvariantViolated))
    out.push({ mark: 'violation', label: 'invariant violated' });
  return out;
}

/** Kinds with a legend line of their own shape (arrows, the violation cross), not a bar. */
const NOT_SPANS: ReadonlySet<number> = new Set([
  EventKind.IpiSent,
  EventKind.CsdUnlocked,
  EventKind.InvariantViolated,
]);

/** The kinds of the rows within `range` (ns): what a step's magnifier may draw there. */
export function kindsIn(
  trace: Pick<Trace, 'n' | 'kind' | 'time' | 'dur'>,
  range: readonly [number, number] | null | undefined,
): Set<number> {
  const out = new Set<number>();
  if (!range) return out;
  const [a, b] = range;
  for (let i = 0; i < trace.n; i++)
    if (trace.time[i] <= b && trace.time[i] + trace.dur[i] >= a) out.add(trace.kind[i]);
  return out;
}
