// The run's summary as computed by the simulator, saying which model and machine preset
// predicted it, with the invariant violations listed and one click away on the timeline.
import { memo } from 'react';
import { EventKind, type Stats, type Summary, type Trace } from '../sim/trace';
import { formatNs } from '../viz/scales';

interface Props {
  summary: Summary;
  trace: Trace;
  onShow: (row: number) => void;
}

const stat = (s: unknown): Stats | null =>
  s && typeof s === 'object' && 'count' in s && (s as Stats).count > 0 ? (s as Stats) : null;
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

export const SummaryPanel = memo(function SummaryPanel({ summary, trace, onShow }: Props) {
  const op = stat(summary.op_latency_ns);
  const wake = stat(summary.wakeup_latency_ns);
  const rows: [string, string | null][] = [
    ['Operation latency (mean / p99 / max)', op && statLine(op)],
    ['Flushes', String(summary.flush_latency_ns.count)],
    ['Flush latency (mean / p99 / max)', statLine(summary.flush_latency_ns)],
    [
      'Initiator preemption off (p99 / max)',
      `${formatNs(summary.preempt_off_ns.p99)} / ${formatNs(summary.preempt_off_ns.max)}`,
    ],
    ['High-priority wakeup latency (max)', wake && formatNs(wake.max)],
    ['IPIs sent', String(summary.ipis)],
    ['TLBI broadcasts', num(summary.broadcasts)?.toLocaleString('en-US') ?? null],
    ['TLB misses', num(summary.tlb_misses)?.toLocaleString('en-US') ?? null],
    ['Simulated time', formatNs(summary.sim_time_ns)],
    ['Simulator events', summary.events.toLocaleString('en-US')],
    ['Invariant violations', String(summary.violations.length)],
  ];
  const machine =
    typeof summary.machine === 'string' && summary.machine ? summary.machine : 'default';
  const violationRows: number[] = [];
  for (let i = 0; i < trace.n && violationRows.length < 20; i++) {
    if (trace.kind[i] === EventKind.InvariantViolated) violationRows.push(i);
  }
  return (
    <section className="summary" aria-label="Run summary">
      <h2>Summary</h2>
      <p className="provenance">
        Predicted by the tlbscope model with the <code>{machine}</code> machine preset, not
        measured.
      </p>
      <dl>
        {rows
          .filter((r): r is [string, string] => r[1] !== null)
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd data-summary={k}>{v}</dd>
            </div>
          ))}
      </dl>
      {violationRows.length > 0 && (
        <ol className="violations" aria-label="Invariant violations">
          {violationRows.map((i) => (
            <li key={i}>
              <button type="button" className="linklike" onClick={() => onShow(i)}>
                CPU {trace.cpu[i]} at {formatNs(trace.time[i])}
              </button>
              : {trace.strings[trace.arg[i]] ?? 'invariant violated'}
            </li>
          ))}
        </ol>
      )}
      {Array.isArray(summary.notes) && summary.notes.length > 0 && (
        <p className="muted">{(summary.notes as string[]).join(' ')}</p>
      )}
    </section>
  );
});

function statLine(s: Stats): string {
  return `${formatNs(s.mean)} / ${formatNs(s.p99)} / ${formatNs(s.max)}`;
}
