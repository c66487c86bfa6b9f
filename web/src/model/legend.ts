// What each mark means, for the kinds a run actually has: shared by the page's legend and the
// exported diagrams, so the two say the same thing.
import { EventKind, type Trace } from '../trace/trace';
import { unpairedSends } from './ipis';

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
  | { mark: 'ipi' | 'ack' | 'unpaired' | 'violation'; label: string };

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
