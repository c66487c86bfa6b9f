// A recording's summary in the model's terms, laid out as the model run's summary is, saying
// where it was measured rather than which preset predicted it.
import { memo } from 'react';
import type { RecordedRun } from '../recording/asRun';
import type { RecordingSummary as Summary } from '../recording/summary';
import type { Stats } from '../trace/trace';
import { formatNs } from '../viz/scales';
import { SummaryRows } from './SummaryRows';

const statLine = (s: Stats) =>
  s.count > 0
    ? `${formatNs(s.mean)} / ${formatNs(s.p99)} / ${formatNs(s.max)} (n=${s.count})`
    : null;
const n = (v: number) => v.toLocaleString('en-US');

export const RecordingSummary = memo(function RecordingSummary({ run }: { run: RecordedRun }) {
  const s = run.summary as Summary;
  const rows: [string, string | null][] = [
    ['tlb_flush events', n(s.tlb_flush)],
    ...Object.entries(s.flushes_by_reason).map(([reason, count]): [string, string] => [
      `  reason: ${reason}`,
      n(count),
    ]),
    [
      'Shootdowns (remote IPI send)',
      `${n(s.shootdowns)}${s.shootdown_rate_per_s !== null ? `, ${s.shootdown_rate_per_s.toFixed(0)} per second` : ''}`,
    ],
    [
      'IPI sends',
      `${n(s.ipi_sends)} (paired with a handler ${n(s.paired_ipis)}, unpaired ${n(s.unpaired_ipis)})`,
    ],
    ['IPIs per shootdown', s.ipis_per_shootdown?.toFixed(2) ?? null],
    [`Shootdown, ${s.flush_latency_basis} (mean / p99 / max)`, statLine(s.flush_latency_ns)],
    ['IPI delivery, send to handler (mean / p99 / max)', statLine(s.ipi_delivery_ns)],
    ['IPI handler time (mean / p99 / max)', statLine(s.handler_ns)],
    [
      'Irqs off, irq_disable to irq_enable (mean / p99 / max)',
      s.irqs_off_unknown ?? statLine(s.irqs_off_ns),
    ],
    ...(s.syscall_path_ns
      ? [
          [
            'Syscall path: a syscall around one shootdown, less it (p50 / p10 / p90)',
            `${formatNs(s.syscall_path_ns.p50)} / ${formatNs(s.syscall_path_ns.p10)} / ${formatNs(s.syscall_path_ns.p90)} (n=${n(s.syscall_path_ns.samples)})`,
          ] as [string, string],
        ]
      : []),
    ...(s.irqs_off_inferred > 0
      ? [
          [
            'Irqs off, inferred: a late IPI and the timer tick due meanwhile taken together',
            `${n(s.irqs_off_inferred)} stretches`,
          ] as [string, string],
        ]
      : []),
    [
      'Preemption off, preempt_disable to preempt_enable (mean / p99 / max)',
      s.preempt_off_unknown ?? statLine(s.preempt_off_ns),
    ],
    [
      'Events with the irqs-off flag (each an instant: a tick under its CPU’s lane)',
      n(s.irqs_off_marks),
    ],
    [
      'Events with a preempt count (each an instant: a ring under its CPU’s lane)',
      n(s.preempt_off_marks),
    ],
    ['Recorded time', formatNs(s.sim_time_ns)],
    ['Events read', `${n(s.events)} of ${n(s.lines)} lines`],
    ['Unreadable lines', n(s.unreadable_lines)],
  ];
  const unknown = Object.entries(s.unknown_events);
  return (
    <section className="summary" aria-label="Recording summary">
      <h2>Summary</h2>
      <p className="provenance">
        Measured, not predicted: {run.recording.provenance ?? `read from ${run.recording.name}.`}
      </p>
      <SummaryRows rows={rows} />
      {unknown.length > 0 && (
        <p className="muted">
          Events not drawn (counted): {unknown.map(([k, c]) => `${k} ${n(c)}`).join(', ')}
        </p>
      )}
      {s.warnings.map((w) => (
        <p key={w} className="muted">
          Note: {w}
        </p>
      ))}
    </section>
  );
});
