// What each mark means. Every entry pairs a swatch with a word, so nothing relies on colour.
const ITEMS: [string, string][] = [
  ['k-TaskRun', 'task running'],
  ['k-PreemptOff', 'preemption off'],
  ['k-IrqsOff', 'interrupts off (IPI pending)'],
  ['k-FlushRange', 'flush_tlb_mm_range (initiator)'],
  ['k-IpiHandler', 'IPI handler (target)'],
  ['k-IpiWait', 'csd_lock_wait: waiting for acks'],
  ['k-FlushTlbFunc', 'flush_tlb_func: TLB invalidation'],
];

export function Legend() {
  return (
    <ul className="legend" aria-label="Legend">
      {ITEMS.map(([cls, label]) => (
        <li key={cls}>
          <svg width="18" height="10" aria-hidden="true">
            <rect className={`span ${cls}`} width="18" height="10" />
          </svg>
          {label}
        </li>
      ))}
      <li>
        <svg width="22" height="10" aria-hidden="true">
          <line className="arrow arrow-ipi" x1="0" y1="5" x2="22" y2="5" />
        </svg>
        IPI sent → handled
      </li>
      <li>
        <svg width="22" height="10" aria-hidden="true">
          <line className="arrow arrow-ack" x1="0" y1="5" x2="22" y2="5" />
        </svg>
        csd unlocked (ack)
      </li>
    </ul>
  );
}
