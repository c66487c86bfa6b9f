// A shipped kernel recording drawn beside a guided step's model run: its own timeline (its
// own time axis: a recording spans milliseconds, the model's run microseconds), opened on its
// first complete shootdown, with the measured numbers the step talks about.
import { useEffect, useState } from 'react';
import { createWindowStore } from '../app/windowStore';
import { EXAMPLE_RECORDINGS, provenanceOf } from '../content/recordings';
import { asRun, type RecordedRun } from '../recording/asRun';
import { parseInWorker } from '../recording/client';
import { busiestSender, firstShootdown } from '../recording/focus';
import type { RecordingSummary } from '../recording/summary';
import { formatNs } from '../viz/scales';
import { Timeline } from './Timeline';

export function RecordingBeside({ id }: { id: string }) {
  const ex = EXAMPLE_RECORDINGS.find((r) => r.id === id);
  const [run, setRun] = useState<RecordedRun | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [view] = useState(() => createWindowStore());
  const [cursor, setCursor] = useState<number | null>(null);
  useEffect(() => {
    if (!ex) return;
    let cancel = () => {};
    let live = true;
    fetch(ex.url)
      .then((res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return res.blob();
      })
      .then((blob) => {
        if (!live) return;
        const job = parseInWorker(blob, ex.file, () => {});
        cancel = job.cancel;
        return job.done;
      })
      .then((p) => {
        if (!live || !p) return;
        const r = asRun(p, ex.source ? provenanceOf(ex.source) : null);
        view.set(firstShootdown(r.trace) ?? [0, r.trace.time[r.trace.n - 1] ?? 1]);
        setRun(r);
      })
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
      cancel();
    };
  }, [ex, view]);
  if (!ex) return <p className="muted">Recording {id} is not shipped.</p>;
  const s = run?.summary as RecordingSummary | undefined;
  return (
    <section className="recording-beside" aria-label="A real kernel beside the model">
      <h3>Recorded on a real kernel: {ex.id}</h3>
      <p className="provenance">
        Measured, not predicted.{' '}
        {ex.source ? provenanceOf(ex.source) : 'Where it was recorded is not stated.'}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!run && !error && <p className="muted">Reading the recording…</p>}
      {run && s && (
        <>
          <Timeline
            trace={run.trace}
            label={`Recorded: ${ex.file} (its own time axis)`}
            view={view}
            fullExtent={[0, Math.max(1, run.summary.sim_time_ns)]}
            cursor={cursor}
            onCursorChange={setCursor}
            selected={null}
            initiator={busiestSender(run.trace)}
          />
          <div className="summary">
            <dl>
              <div>
                <dt>Shootdowns</dt>
                <dd>{s.shootdowns.toLocaleString('en-US')}</dd>
              </div>
              <div>
                <dt>IPI delivery, send to handler (mean / p99)</dt>
                <dd data-summary="IPI delivery">
                  {s.ipi_delivery_ns.count
                    ? `${formatNs(s.ipi_delivery_ns.mean)} / ${formatNs(s.ipi_delivery_ns.p99)}`
                    : 'not measurable'}
                </dd>
              </div>
              <div>
                <dt>IPI handler time (mean / p99)</dt>
                <dd>
                  {s.handler_ns.count
                    ? `${formatNs(s.handler_ns.mean)} / ${formatNs(s.handler_ns.p99)}`
                    : 'not measurable'}
                </dd>
              </div>
              <div>
                <dt>Shootdown, flush to last ack (mean / p99)</dt>
                <dd>
                  {s.flush_latency_ns.count
                    ? `${formatNs(s.flush_latency_ns.mean)} / ${formatNs(s.flush_latency_ns.p99)}`
                    : 'not measurable'}
                </dd>
              </div>
            </dl>
          </div>
        </>
      )}
    </section>
  );
}
