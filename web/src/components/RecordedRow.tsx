// For a row of an imported recording: the kernel event it was read from (the input line, the
// flush reason and page count, the task), under the inspector.
import type { RecordedRun } from '../recording/asRun';
import { reasonName, TLB_FLUSH_REASON_ENUM } from '../recording/payload';
import { EventKind } from '../trace/trace';

export function RecordedRow({ run, row }: { run: RecordedRun; row: number | null }) {
  if (row === null || row >= run.trace.n) return null;
  const x = run.recording.extras;
  const line = x.line?.[row] ?? 0;
  const reason = x.reason?.[row] ?? -1;
  const t = run.trace;
  const pid = t.kind[row] === EventKind.TaskRun ? t.arg[row] : null;
  return (
    <section className="recorded-row" aria-label="Recorded event">
      <h3>Recorded</h3>
      <dl>
        <dt>From</dt>
        <dd data-recorded="line">
          {line > 0 ? (
            <>
              line {line} of <code>{run.recording.name}</code>
            </>
          ) : (
            'joined from the flags column of several lines (irqs off / preemption off)'
          )}
        </dd>
        {reason >= 0 && (
          <>
            <dt>tlb_flush reason</dt>
            <dd data-recorded="reason">
              {reasonName(reason)} (<code>{TLB_FLUSH_REASON_ENUM[reason] ?? reason}</code>)
            </dd>
            <dt>Pages</dt>
            <dd>{x.pages?.[row] === -1 ? 'all (TLB_FLUSH_ALL)' : x.pages?.[row]}</dd>
          </>
        )}
        {pid !== null && (
          <>
            <dt>Task</dt>
            <dd>
              {x.tasks?.[pid] ?? '?'} (pid {pid})
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
