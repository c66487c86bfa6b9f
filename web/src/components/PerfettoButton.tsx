// Downloads a run (model or recording) as a Chrome JSON trace for ui.perfetto.dev. A run kept
// in its worker (Trace.remote) is exported either as its visible window (the window's rows,
// asked of the worker) or whole: its rows asked a slice at a time and written by the same
// writer as a page-held run's, each slice's text put in a Blob at once, so the page holds one
// slice of rows and the Blob parts, never the run; with progress and cancel.
import { useEffect, useRef, useState } from 'react';
import { perfettoChunks, PerfettoWriter, type ExportInfo } from '../export/perfetto';
import { localTrace } from '../model/windowTrace';
import { isRecorded } from '../recording/asRun';
import type { RunResult } from '../sim/run';
import { formatNs } from '../viz/scales';
import { traceWindowOf } from '../workers/session';

/** Most rows of a window exported from a run kept in its worker (the worker's 'export' limit). */
export const WINDOW_EXPORT_ROWS = 200_000;
/** Main-thread time per slice of writing, in ms: the page stays responsive meanwhile. */
const SLICE_MS = 12;
/** Rows asked of the worker at a time for a whole-run export (~20-40 ms of writing each). */
export const RUN_EXPORT_SLICE = 16_384;
/**
 * Bytes of JSON a row comes to, for the size the button announces: 180-212 B a row measured
 * on the 128-CPU bench run and a 48-CPU munmap run (model/perfetto.ts output, Nov 2026).
 */
const BYTES_PER_ROW = 200;

const mb = (bytes: number) =>
  bytes >= 1e9
    ? `${(bytes / 1e9).toFixed(1)} GB`
    : bytes >= 1e6
      ? `${(bytes / 1e6).toFixed(1)} MB`
      : `${Math.ceil(bytes / 1e3)} kB`;

function sourceOf(run: RunResult, label: string): string {
  const rec = isRecorded(run) ? run.recording : null;
  return rec
    ? `recorded (${rec.format}, ${rec.name})`
    : `predicted by the tlbscope model (${label})`;
}

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
        source: sourceOf(run, label),
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
  | { at: 'writing'; rows: number; bytes: number }
  /** A whole-run export: `done` of `rows` rows written, `bytes` of JSON so far. */
  | { at: 'run'; done: number; rows: number; bytes: number };

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
      source: `${sourceOf(run, label)}; the window ${formatNs(t0)} to ${formatNs(t1)} of a run of ${run.trace.remote?.rows.toLocaleString('en-US')} rows`,
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
  // The whole run: a slice of rows at a time from the worker, each slice's text into a Blob.
  const whole = async () => {
    const mine = ++job.current;
    const client = traceWindowOf(run.trace);
    const rows = run.trace.remote?.rows ?? 0;
    if (!client) return;
    const rec = isRecorded(run) ? run.recording : null;
    const writer = new PerfettoWriter(
      {
        title: run.title,
        source: sourceOf(run, label),
        extras: rec?.extras.tasks ? { tasks: rec.extras.tasks } : undefined,
      },
      run.trace.cpus,
      rows,
    );
    const head = writer.header();
    const events: Blob[] = [new Blob([head])];
    const flows: Blob[] = [];
    let bytes = head.length;
    const keep = (w: { events: string[]; flows: string[] }) => {
      for (const t of w.events) bytes += t.length;
      for (const t of w.flows) bytes += t.length;
      events.push(new Blob(w.events));
      flows.push(new Blob(w.flows));
    };
    setPhase({ at: 'run', done: 0, rows, bytes });
    try {
      for (let first = 0; first < rows; first += RUN_EXPORT_SLICE) {
        const got = await client.slice(first, RUN_EXPORT_SLICE);
        if (mine !== job.current) return;
        if (!got || got.columns.time.length === 0)
          throw new Error(`the worker sent no rows from row ${first}`);
        keep(writer.feed(got.columns, got.first, got.extras));
        setPhase({ at: 'run', done: got.first + got.columns.time.length, rows, bytes });
        // A frame between slices: the page stays responsive while the worker reads the next.
        await new Promise((r) => setTimeout(r, 0));
        if (mine !== job.current) return;
      }
    } catch (err) {
      if (mine === job.current) setPhase({ at: 'idle', note: `Not exported: ${String(err)}` });
      return;
    }
    const end = writer.finish();
    keep(end);
    bytes += end.tail.length;
    save([...events, ...flows, end.tail], `${baseName(run)}.perfetto.json`);
    setPhase({
      at: 'idle',
      note: `Exported all ${rows.toLocaleString('en-US')} rows (${mb(bytes)}).`,
    });
  };
  const busy = phase.at !== 'idle';
  const rows = run.trace.remote?.rows ?? 0;
  return (
    <span className="perfetto-window">
      <button
        type="button"
        onClick={start}
        disabled={busy}
        title="This run stays in the simulator's worker (above 2,000,000 rows): the visible window's rows are exported. Open it at ui.perfetto.dev → Open trace file"
      >
        Download {label}&apos;s visible window as a Perfetto trace
      </button>{' '}
      <button
        type="button"
        onClick={whole}
        disabled={busy}
        data-testid="perfetto-whole"
        title="Every row, read from the worker a slice at a time and written into the file as it comes: the page never holds the whole run. Open it at ui.perfetto.dev → Open trace file"
      >
        Download all of {label} ({rows.toLocaleString('en-US')} rows, about{' '}
        {mb(rows * BYTES_PER_ROW)}) as a Perfetto trace
      </button>
      {busy && (
        <>
          {' '}
          <span className="muted" role="status" data-testid="perfetto-progress">
            {phase.at === 'reading'
              ? 'Reading the window from the worker…'
              : phase.at === 'run'
                ? `Writing row ${phase.done.toLocaleString('en-US')} of ${phase.rows.toLocaleString('en-US')} (${Math.floor((100 * phase.done) / Math.max(1, phase.rows))} %): ${mb(phase.bytes)} so far${phase.done ? `, about ${mb((phase.bytes / phase.done) * phase.rows)} in all` : ''}…`
                : `Writing ${phase.rows.toLocaleString('en-US')} rows: ${mb(phase.bytes)} so far…`}
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
