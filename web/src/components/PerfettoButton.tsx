// Downloads a run (model or recording) as a Chrome JSON trace for ui.perfetto.dev. A run kept
// in its worker (Trace.remote) is exported a window at a time: the visible window's rows, asked
// of the worker, written in slices between frames into a Blob, with progress and cancel.
import { useEffect, useRef, useState } from 'react';
import { perfettoChunks, type ExportInfo } from '../export/perfetto';
import { localTrace } from '../model/windowTrace';
import { isRecorded } from '../recording/asRun';
import type { RunResult } from '../sim/run';
import { formatNs } from '../viz/scales';
import { traceWindowOf } from '../workers/session';

/** Most rows of a window exported from a run kept in its worker (the worker's 'export' limit). */
export const WINDOW_EXPORT_ROWS = 200_000;
/** Main-thread time per slice of writing, in ms: the page stays responsive meanwhile. */
const SLICE_MS = 12;

function save(parts: BlobPart[], name: string) {
  const url = URL.createObjectURL(new Blob(parts, { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function baseName(run: RunResult): string {
  const rec = isRecorded(run) ? run.recording : null;
  return (rec?.name ?? run.title).replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '') || 'tlbscope';
}

interface Props {
  run: RunResult;
  label: string;
  /** The visible window, read when a run kept in its worker is exported. */
  window?: () => [number, number];
}

export function PerfettoButton({ run, label, window }: Props) {
  if (run.trace.remote && window) return <WindowPerfetto run={run} label={label} window={window} />;
  const download = () => {
    const rec = isRecorded(run) ? run.recording : null;
    const chunks = [
      ...perfettoChunks(run.trace, {
        title: run.title,
        source: rec
          ? `recorded (${rec.format}, ${rec.name})`
          : `predicted by the tlbscope model (${label})`,
        extras: rec?.extras,
      }),
    ];
    save(chunks, `${baseName(run)}.perfetto.json`);
  };
  return (
    <button type="button" onClick={download} title="Open it at ui.perfetto.dev → Open trace file">
      Download {label} as a Perfetto trace
    </button>
  );
}

type Phase =
  | { at: 'idle'; note?: string }
  | { at: 'reading' }
  | { at: 'writing'; rows: number; bytes: number };

/** The export of a run kept in its worker: its visible window. */
function WindowPerfetto({ run, label, window }: Required<Props>) {
  const [phase, setPhase] = useState<Phase>({ at: 'idle' });
  const job = useRef(0);
  useEffect(() => () => void job.current++, []);
  const cancel = () => {
    job.current++;
    setPhase({ at: 'idle', note: 'Export cancelled.' });
  };
  const start = async () => {
    const mine = ++job.current;
    const client = traceWindowOf(run.trace);
    if (!client) return;
    const [t0, t1] = window();
    setPhase({ at: 'reading' });
    let got;
    try {
      got = await client.exportRows(t0, t1, WINDOW_EXPORT_ROWS);
    } catch (err) {
      if (mine === job.current) setPhase({ at: 'idle', note: `Not exported: ${String(err)}` });
      return;
    }
    if (mine !== job.current) return;
    if (!got || got.total < 0 || got.total > got.rows.length) {
      const n =
        got && got.total > 0 ? `${got.total.toLocaleString('en-US')} rows` : 'too many rows';
      setPhase({
        at: 'idle',
        note: `Not exported: this window has ${n}; zoom in to at most ${WINDOW_EXPORT_ROWS.toLocaleString('en-US')}.`,
      });
      return;
    }
    const w = localTrace(got.rows, got.columns, run.trace.cpus, run.trace.strings);
    const info: ExportInfo = {
      title: run.title,
      source: `predicted by the tlbscope model (${label}); the window ${formatNs(t0)} to ${formatNs(t1)} of a run of ${run.trace.remote?.rows.toLocaleString('en-US')} rows`,
      window: { rows: w.rows, t0, t1, runRows: run.trace.remote?.rows ?? 0 },
    };
    const chunks = perfettoChunks(w.trace, info);
    const parts: string[] = [];
    let bytes = 0;
    // Written in slices between tasks: a window of 200,000 rows is tens of MB of JSON.
    const step = () => {
      if (mine !== job.current) return;
      const until = performance.now() + SLICE_MS;
      while (performance.now() < until) {
        const next = chunks.next();
        if (next.done) {
          save(parts, `${baseName(run)}.window.perfetto.json`);
          setPhase({
            at: 'idle',
            note: `Exported ${w.trace.n.toLocaleString('en-US')} rows of the window.`,
          });
          return;
        }
        parts.push(next.value);
        bytes += next.value.length;
      }
      setPhase({ at: 'writing', rows: w.trace.n, bytes });
      setTimeout(step, 0);
    };
    step();
  };
  const busy = phase.at !== 'idle';
  return (
    <span className="perfetto-window">
      <button
        type="button"
        onClick={start}
        disabled={busy}
        title="This run stays in the simulator's worker (above 2,000,000 rows): the visible window's rows are exported. Open it at ui.perfetto.dev → Open trace file"
      >
        Download {label}&apos;s visible window as a Perfetto trace (run above 2 M rows)
      </button>
      {busy && (
        <>
          {' '}
          <span className="muted" role="status" data-testid="perfetto-progress">
            {phase.at === 'reading'
              ? 'Reading the window from the worker…'
              : `Writing ${phase.rows.toLocaleString('en-US')} rows: ${(phase.bytes / 1e6).toFixed(1)} MB so far…`}
          </span>{' '}
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        </>
      )}
      {!busy && phase.note && (
        <span className="muted" role="status" data-testid="perfetto-progress">
          {' '}
          {phase.note}
        </span>
      )}
    </span>
  );
}
