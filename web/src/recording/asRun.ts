// A parsed recording as the explorer's run: the same trace columns, its summary in the
// model's terms, and what only a recording has (reasons, pages, lines, task names) beside.
import { registerPrebuiltView, registerTraceWindow } from '../workers/session';
import type { RunResult } from '../sim/run';
import { toTrace } from '../trace/trace';
import type { ImportedRecording } from './client';
import { busiestSender } from './focus';
import type { ParsedRecording } from './protocol';
import type { RecordingSummary } from './summary';
import type { RecordingWindow } from './window';
import { FORMAT_NAMES, type FlagInstants, type RowExtras } from './types';

export interface RecordedRun extends RunResult {
  recording: {
    name: string;
    format: string;
    lines: number;
    issues: ParsedRecording['issues'];
    issueCount: number;
    unknown: Record<string, number>;
    extras: RowExtras;
    /** Who recorded it where, when known (content/recordings/*.source.json). */
    provenance: string | null;
    /** The machine and command of its .source.json, when it came with one ("Model this recording"). */
    source?: { machine: string; command: string } | null;
    /** The CPU that sent the most IPIs (-1 if none): the lane labels' initiator. */
    initiator: number;
    /** Single events' irqs-off / preempt-off flags, drawn as instants (null: rows kept remote). */
    flagged: FlagInstants | null;
    /**
     * Set when the rows stay in the import's worker (trace.remote): `extras` is empty and a
     * row's are asked of it.
     */
    window?: RecordingWindow;
  };
}

export function isRecorded(r: RunResult | null | undefined): r is RecordedRun {
  return !!r && 'recording' in r;
}

/**
 * Whether a run's IrqsOff rows are every interrupts-off section: a model run's are; a
 * recording's only with irq_disable/irq_enable events (or an irqsoff tracer's sections).
 */
export function irqsBounded(r: RunResult): boolean {
  return !isRecorded(r) || (r.summary as RecordingSummary).irqs_off_unknown === null;
}

export function asRun(
  p: ImportedRecording,
  provenance: string | null = null,
  source: { machine: string; command: string } | null = null,
): RecordedRun {
  const { reason, pages, line, ...c } = p.columns;
  const trace = toTrace({
    ...c,
    cpus: p.cpus,
    strings: [],
    ...(p.remote ? { remote: p.remote } : {}),
  });
  if (p.view) registerPrebuiltView(trace, p.view);
  if (p.window) registerTraceWindow(trace, p.window);
  const title = `Recording: ${p.name}`;
  const description =
    `A real kernel's shootdowns, read from ${FORMAT_NAMES[p.format]} (${p.lines.toLocaleString('en-US')} lines). ` +
    (provenance ?? 'Measured, not predicted: where it was recorded is not stated in the file.');
  return {
    title,
    description,
    trace,
    summary: p.summary,
    info: {
      title,
      hook: '',
      description,
      arch: 'x86',
      guide: 0,
      steps: [],
      error: null,
      // Nothing was configured: the recording's machine and kernel chose every value.
      claims: [],
      settings: {},
      costs: {},
    },
    stepProblem: null,
    // A recording is read, not simulated: no run budget can have stopped it.
    budgetError: null,
    recording: {
      name: p.name,
      format: FORMAT_NAMES[p.format],
      lines: p.lines,
      issues: p.issues,
      issueCount: p.issueCount,
      unknown: p.unknown,
      extras: { reason, pages, line, tasks: p.tasks },
      provenance,
      source,
      initiator: p.initiator ?? busiestSender(trace),
      flagged: p.flagged ?? null,
      ...(p.window ? { window: p.window } : {}),
    },
  };
}
