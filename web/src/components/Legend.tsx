// What each mark means, for the kinds this run actually has. Every entry pairs a swatch with
// words, so nothing relies on colour alone.
import { memo, useMemo } from 'react';
import { EventKind, type Trace } from '../sim/trace';

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

export const Legend = memo(function Legend({ trace }: { trace: Trace }) {
  const present = useMemo(() => {
    const seen = new Set<number>();
    for (let i = 0; i < trace.n; i++) seen.add(trace.kind[i]);
    return seen;
  }, [trace]);
  return (
    <ul className="legend" aria-label="Legend">
      {SPANS.filter(([k]) => present.has(k)).map(([k, label]) => (
        <li key={k}>
          <svg width="18" height="10" aria-hidden="true">
            <rect className={`span k-${EventKind[k]}`} width="18" height="10" />
          </svg>
          {label}
        </li>
      ))}
      {present.has(EventKind.IpiSent) && (
        <li>
          <svg width="22" height="10" aria-hidden="true">
            <line className="arrow arrow-ipi" x1="0" y1="5" x2="22" y2="5" />
          </svg>
          IPI sent → handled
        </li>
      )}
      {present.has(EventKind.CsdUnlocked) && (
        <li>
          <svg width="22" height="10" aria-hidden="true">
            <line className="arrow arrow-ack" x1="0" y1="5" x2="22" y2="5" />
          </svg>
          csd unlocked (ack)
        </li>
      )}
    </ul>
  );
});
