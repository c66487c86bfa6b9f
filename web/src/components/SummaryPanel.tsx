// The run's summary as computed by the simulator, saying which model and machine preset
// predicted it, with the invariant violations listed and one click away on the timeline.
import { memo } from 'react';
import { meanAboveP99, NO_SAMPLES, sampled } from '../model/runWords';
import { EventKind, type Stats, type Summary, type Trace } from '../trace/trace';
import { formatNs } from '../viz/scales';
import { SummaryRows } from './SummaryRows';
import { useRunFacts } from '../app/useRemoteRun';
import { WithDocIds } from './DocId';

interface Props {
  summary: Summary;
  trace: Trace;
  onShow: (row: number) => void;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

export const SummaryPanel = memo(function SummaryPanel({ summary, trace, onShow }: Props) {
  const op = sampled(summary.op_latency_ns);
  const wake = sampled(summary.wakeup_latency_ns);
  const flush = sampled(summary.flush_latency_ns);
  const preempt = sampled(summary.preempt_off_ns);
  const arm64 = summary.arch === 'arm64';
  const queue = sampled(summary.interconnect_queue_ns);
  // A workload without measured operations simply has no such line; every other statistic is
  // always shown, as "no samples" when nothing was measured (a 0 ns would be a claim).
  const rows: [string, string | null][] = [
    ['Operation latency (p50 / p99 / max / mean)', op && statLine(op)],
    ['Flushes', String(summary.flush_latency_ns.count)],
    ['Flush latency (p50 / p99 / max / mean)', flush ? statLine(flush) : NO_SAMPLES],
    [
      'Initiator preemption off (p99 / max)',
      preempt ? `${formatNs(preempt.p99)} / ${formatNs(preempt.max)}` : NO_SAMPLES,
    ],
    ['High-priority wakeup latency (max)', wake ? formatNs(wake.max) : NO_SAMPLES],
    ['IPIs sent', String(summary.ipis)],
    ['TLBI broadcasts', arm64 ? (num(summary.broadcasts)?.toLocaleString('en-US') ?? null) : null],
    [
      'Interconnect queue per broadcast (p50 / max)',
      arm64 ? (queue ? `${formatNs(queue.p50)} / ${formatNs(queue.max)}` : NO_SAMPLES) : null,
    ],
    ['DVM messages', arm64 ? (num(summary.dvm_messages)?.toLocaleString('en-US') ?? null) : null],
    ['Victim throughput (work done / time taken)', victimLine(summary)],
    [
      'ASID rollovers',
      arm64 ? (num(summary.asid_rollovers)?.toLocaleString('en-US') ?? null) : null,
    ],
    ['TLB misses', num(summary.tlb_misses)?.toLocaleString('en-US') ?? null],
    ['Simulated time', formatNs(summary.sim_time_ns)],
    ['Simulator events', summary.events.toLocaleString('en-US')],
    ['Invariant violations', String(summary.violations.length)],
  ];
  const skew = [op, flush].map((s) => s && meanAboveP99(s, formatNs)).find(Boolean);
  const machine =
    typeof summary.machine === 'string' && summary.machine ? summary.machine : 'default';
  // A run kept in its worker: its first violations as the worker found them.
  const facts = useRunFacts(trace);
  const violations: { row: number; cpu: number; time: number; arg: number }[] = [];
  if (trace.remote) {
    const v = facts?.violations;
    for (let j = 0; v && j < v.rows.length; j++)
      violations.push({
        row: v.rows[j],
        cpu: v.columns.cpu[j],
        time: v.columns.time[j],
        arg: v.columns.arg[j],
      });
  }
  for (let i = 0; i < trace.n && violations.length < 20; i++) {
    if (trace.kind[i] === EventKind.InvariantViolated)
      violations.push({ row: i, cpu: trace.cpu[i], time: trace.time[i], arg: trace.arg[i] });
  }
  return (
    <section className="summary" aria-label="Run summary">
      <h2>Summary</h2>
      <p className="provenance">
        Predicted by the tlbscope model with the <code>{machine}</code> machine preset, not
        measured.
      </p>
      <SummaryRows rows={rows} />
      {skew && (
        <p className="muted" data-summary-note="mean-above-p99">
          {skew}
        </p>
      )}
      {violations.length > 0 && (
        <ol className="violations" aria-label="Invariant violations">
          {violations.map((v) => (
            <li key={v.row}>
              <button type="button" className="linklike" onClick={() => onShow(v.row)}>
                CPU {v.cpu} at {formatNs(v.time)}
              </button>
              : <WithDocIds text={trace.strings[v.arg] ?? 'invariant violated'} />
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

/** The victim-compute tasks' share of their time spent on their own work; no line without victims. */
function victimLine(summary: Summary): string | null {
  const t = num(summary.victim_throughput);
  const chunk = sampled(summary.victim_op_ns);
  if (t === null || !chunk) return null;
  return `${(t * 100).toFixed(1)} % (chunk p50 ${formatNs(chunk.p50)}, max ${formatNs(chunk.max)})`;
}

function statLine(s: Stats): string {
  return `${formatNs(s.p50)} / ${formatNs(s.p99)} / ${formatNs(s.max)} / ${formatNs(s.mean)}`;
}
