// For a row of an imported recording: the kernel event it was read from (the input line, the
// flush reason and page count, the task), under the inspector. A recording kept in its
// worker (trace.remote) is asked for the row's.
import { useEffect, useState } from 'react';
import type { RecordedRun } from '../recording/asRun';
import { reasonName, TLB_FLUSH_REASON_ENUM } from '../recording/payload';
import type { RecordedFields } from '../recording/protocol';
import { EventKind } from '../trace/trace';

function localFields(run: RecordedRun, row: number): RecordedFields | null {
  if (row >= run.trace.n) return null;
  const x = run.recording.extras;
  return {
    row,
    line: x.line?.[row] ?? 0,
    reason: x.reason?.[row] ?? -1,
    pages: x.pages?.[row] ?? NaN,
    kind: run.trace.kind[row],
    arg: run.trace.arg[row],
  };
}

export function RecordedRow({ run, row }: { run: RecordedRun; row: number | null }) {
  const kept = run.recording.window;
  const [asked, setAsked] = useState<RecordedFields | null>(null);
  useEffect(() => {
    if (!kept || row === null) return;
    let live = true;
    kept
      .recorded(row)
      .then((f) => live && f && setAsked(f))
      .catch(() => live && setAsked(null));
    return () => {
      live = false;
    };
  }, [kept, row]);
  if (row === null) return null;
  const f = kept ? (asked?.row === row ? asked : null) : localFields(run, row);
  if (!f) return null;
  const pid = f.kind === EventKind.TaskRun ? f.arg : null;
  const tasks = run.recording.extras.tasks;
  return (
    <section className="recorded-row" aria-label="Recorded event">
      <h3>Recorded</h3>
      <dl>
        <dt>From</dt>
        <dd data-recorded="line">
          {f.line > 0 ? (
            <>
              line {f.line} of <code>{run.recording.name}</code>
            </>
          ) : (
            'joined from the flags column of several lines (irqs off / preemption off)'
          )}
        </dd>
        {f.reason >= 0 && (
          <>
            <dt>tlb_flush reason</dt>
            <dd data-recorded="reason">
              {reasonName(f.reason)} (<code>{TLB_FLUSH_REASON_ENUM[f.reason] ?? f.reason}</code>)
            </dd>
            <dt>Pages</dt>
            <dd>{f.pages === -1 ? 'all (TLB_FLUSH_ALL)' : f.pages}</dd>
          </>
        )}
        {pid !== null && (
          <>
            <dt>Task</dt>
            <dd>
              {tasks?.[pid] ?? '?'} (pid {pid})
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
