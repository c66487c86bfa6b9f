// A recording's summary as text, for `tlbscope import` (the page draws the same numbers).
import type { Stats } from '../trace/trace';
import type { Recording } from './parse';

const fmtNs = (ns: number) =>
  ns >= 1e6
    ? `${(ns / 1e6).toFixed(2)} ms`
    : ns >= 1e3
      ? `${(ns / 1e3).toFixed(1)} µs`
      : `${Math.round(ns)} ns`;

function statLine(label: string, s: Stats, why: string): string {
  if (s.count === 0) return `  ${label}: not measurable (${why})`;
  return `  ${label}: mean ${fmtNs(s.mean)}, p50 ${fmtNs(s.p50)}, p99 ${fmtNs(s.p99)}, max ${fmtNs(s.max)} (n=${s.count})`;
}

function offLine(label: string, s: Stats, unknown: string | null, marks: number): string {
  const flagged = marks > 0 ? `; ${marks} events carry the flag (each an instant, not a span)` : '';
  if (unknown) return `  ${label}: ${unknown}${flagged}`;
  return `${statLine(`${label}, disable to enable`, s, 'no complete section')}${flagged}`;
}

export function formatRecording(rec: Recording): string {
  const s = rec.summary;
  const out: string[] = [];
  out.push(
    `${rec.name}: ${s.format}, ${s.lines} lines, ${s.events} events on ${s.cpus} CPUs over ${fmtNs(s.sim_time_ns)}`,
  );
  out.push(`measured: a kernel recording, not a model prediction`);
  out.push('');
  out.push(`tlb_flush events: ${s.tlb_flush}`);
  for (const [reason, n] of Object.entries(s.flushes_by_reason))
    out.push(`  ${reason.padEnd(22)} ${n}`);
  out.push(
    `  pages flushed by range: ${s.flushed_pages}; full flushes (pages=-1): ${s.full_flushes}`,
  );
  out.push(
    `shootdowns (tlb_flush "remote IPI send"): ${s.shootdowns}` +
      (s.shootdown_rate_per_s !== null ? `, ${s.shootdown_rate_per_s.toFixed(0)} per second` : ''),
  );
  out.push(
    `IPI sends: ${s.ipi_sends} (call-function: ${s.call_function_ipis}; paired with a handler: ${s.paired_ipis}; unpaired: ${s.unpaired_ipis})`,
  );
  if (s.ipis_per_shootdown !== null) {
    out.push(
      `  IPIs per shootdown: ${s.ipis_per_shootdown.toFixed(2)}; flush requests queued per shootdown: ${(s.targets_per_shootdown ?? 0).toFixed(2)}`,
    );
  }
  out.push(
    statLine(
      `shootdown, ${s.flush_latency_basis}`,
      s.flush_latency_ns,
      "no csd events and no target's tlb_flush after a send",
    ),
  );
  out.push(
    statLine('IPI delivery, send to handler entry', s.ipi_delivery_ns, 'no paired handler events'),
  );
  out.push(statLine('IPI handler, entry to exit', s.handler_ns, 'no handler entry/exit events'));
  out.push(offLine('irqs off', s.irqs_off_ns, s.irqs_off_unknown, s.irqs_off_marks));
  if (s.syscall_path_ns) {
    const p = s.syscall_path_ns;
    out.push(
      `syscall path (a syscall around one shootdown, less the shootdown): p50 ${fmtNs(p.p50)}, p10 ${fmtNs(p.p10)}, p90 ${fmtNs(p.p90)} (n=${p.samples})`,
    );
  }
  if (s.irqs_off_inferred > 0)
    out.push(
      `irqs off, inferred: ${s.irqs_off_inferred} stretches where a late IPI and a late timer tick were taken together`,
    );
  out.push(offLine('preemption off', s.preempt_off_ns, s.preempt_off_unknown, s.preempt_off_marks));
  const unknown = Object.entries(s.unknown_events);
  if (unknown.length) {
    out.push(`events not read (counted): ${unknown.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  for (const w of s.warnings) out.push(`note: ${w}`);
  if (rec.issueCount > 0) {
    out.push(`problems, each at the line where it begins: ${rec.issueCount}`);
    for (const i of rec.issues) out.push(`  line ${i.line}: ${i.message}: ${i.excerpt}`);
    if (rec.issueCount > rec.issues.length)
      out.push(`  ... and ${rec.issueCount - rec.issues.length} more`);
  }
  return `${out.join('\n')}\n`;
}
