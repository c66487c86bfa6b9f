// The run's summary as computed by the simulator, with its provenance.
import type { Summary } from '../sim/trace';
import { formatNs } from '../viz/scales';

export function SummaryPanel({ summary }: { summary: Summary }) {
  const rows: [string, string][] = [
    ['Flushes', String(summary.flush_latency_ns.count)],
    ['Flush latency (mean / p99 / max)', statLine(summary.flush_latency_ns)],
    [
      'Initiator preemption off (p99 / max)',
      `${formatNs(summary.preempt_off_ns.p99)} / ${formatNs(summary.preempt_off_ns.max)}`,
    ],
    ['IPIs sent', String(summary.ipis)],
    ['Simulated time', formatNs(summary.sim_time_ns)],
    ['Simulator events', summary.events.toLocaleString('en-US')],
    ['Invariant violations', String(summary.violations.length)],
  ];
  return (
    <section className="summary" aria-label="Run summary">
      <h2>Summary</h2>
      <p className="provenance">
        Predicted by the tlbscope model (default cost parameters), not measured.
      </p>
      <dl>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd data-summary={k}>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function statLine(s: Summary['flush_latency_ns']): string {
  return `${formatNs(s.mean)} / ${formatNs(s.p99)} / ${formatNs(s.max)}`;
}
