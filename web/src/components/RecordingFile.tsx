// Import a kernel recording (tracefs, trace-cmd report or perf script text): drop a file, pick
// one, paste text or load a shipped example. It is parsed in a worker with progress and
// cancel, then drawn as run A; unreadable lines are listed by number. One of more than
// REMOTE_ABOVE_ROWS rows (or the link's `remote=`) stays in the import's worker, as a large run
// stays in the simulator's.
import { useEffect, useRef, useState } from 'react';
import { EXAMPLE_RECORDINGS, provenanceOf, type RecordingSource } from '../content/recordings';
import { asRun, type RecordedRun } from '../recording/asRun';
import { keepOnly, ParseCancelled, parseInWorker, type ParseJob } from '../recording/client';
import type { ImportSketch } from '../recording/sketch';
import type { RecordingWindow } from '../recording/window';
import { perfRecord } from '../viz/perf';
import { REMOTE_ABOVE_ROWS } from '../workers/protocol';
import { ImportSketchView } from './ImportSketch';

interface Props {
  value: RecordedRun | null;
  onLoad: (r: RecordedRun | null) => void;
  /** Rows above which the recording stays in its worker (default REMOTE_ABOVE_ROWS). */
  remoteAbove?: number;
}

interface Progress {
  name: string;
  bytes: number;
  total: number;
  lines: number;
  sketch: ImportSketch | null;
}

export function RecordingFile({ value, onLoad, remoteAbove = REMOTE_ABOVE_ROWS }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [paste, setPaste] = useState('');
  const [over, setOver] = useState(false);
  const job = useRef<ParseJob | null>(null);
  useEffect(() => () => job.current?.cancel(), []);

  const start = (
    input: Blob | string,
    name: string,
    provenance: string | null = null,
    source: RecordingSource | null = null,
  ) => {
    job.current?.cancel();
    setError(null);
    const total = typeof input === 'string' ? input.length : input.size;
    setProgress({ name, bytes: 0, total, lines: 0, sketch: null });
    // Where the UI benchmark times a read from (to 'tlbscope:import-done').
    performance.mark('tlbscope:import-start');
    const j = parseInWorker(input, name, (p) => setProgress({ name, ...p }), remoteAbove);
    job.current = j;
    j.done.then(
      (p) => {
        if (job.current !== j) return;
        job.current = null;
        setProgress(null);
        // The import's counterpart of 'tlbscope:run-done' (bench/ui-bench.mjs times from it).
        performance.mark('tlbscope:import-done');
        keepOnly(p.window);
        recordWorkerMemory(p.window);
        onLoad(asRun(p, provenance, source));
      },
      (e: unknown) => {
        if (job.current !== j && !(e instanceof ParseCancelled)) return;
        job.current = null;
        setProgress(null);
        if (!(e instanceof ParseCancelled)) setError(e instanceof Error ? e.message : String(e));
      },
    );
  };

  const loadExample = async (id: string) => {
    const ex = EXAMPLE_RECORDINGS.find((r) => r.id === id);
    if (!ex) return;
    try {
      const res = await fetch(ex.url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      start(await res.blob(), ex.file, ex.source ? provenanceOf(ex.source) : null, ex.source);
    } catch (e) {
      setError(`${ex.file}: could not be fetched (${e instanceof Error ? e.message : String(e)})`);
    }
  };

  return (
    <div
      className={`recording-file${over ? ' drop-over' : ''}`}
      data-testid="recording-file"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const f = e.dataTransfer.files[0];
        if (f) start(f, f.name);
      }}
    >
      <label htmlFor="recording-input">
        Kernel recording as run A (tracefs, trace-cmd report, perf script; drop, pick or paste)
      </label>
      <input
        id="recording-input"
        type="file"
        accept=".trace,.txt,.log,text/plain"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) start(f, f.name);
        }}
      />
      <details>
        <summary>Paste a recording</summary>
        <textarea
          aria-label="Recording text"
          rows={4}
          value={paste}
          onChange={(e) => setPaste(e.target.value)}
          placeholder="bash-1 [000] d..2. 12.345678: tlb_flush: pages:1 reason:remote IPI send (4)"
        />
        <button type="button" disabled={!paste.trim()} onClick={() => start(paste, 'pasted text')}>
          Import pasted text
        </button>
      </details>
      {EXAMPLE_RECORDINGS.length > 0 && (
        <p>
          {EXAMPLE_RECORDINGS.map((ex) => (
            <button
              key={ex.id}
              type="button"
              className="linklike"
              onClick={() => loadExample(ex.id)}
            >
              Load the recording {ex.id}
            </button>
          ))}
        </p>
      )}
      {progress && (
        <div className="run-status" role="status" aria-live="polite">
          <span>
            Reading {progress.name}… {progress.lines.toLocaleString('en-US')} lines
          </span>
          <progress
            aria-label={`Reading ${progress.name}`}
            value={progress.bytes}
            max={Math.max(1, progress.total)}
          />
          <button type="button" onClick={() => job.current?.cancel()}>
            Cancel
          </button>
        </div>
      )}
      {progress?.sketch && progress.sketch.rows > 0 && (
        <ImportSketchView sketch={progress.sketch} />
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {value && (
        <div className="muted" data-testid="recording-loaded">
          <p>
            <code>{value.recording.name}</code> ({value.recording.format}) is run A:{' '}
            {(value.trace.remote?.rows ?? value.trace.n).toLocaleString('en-US')} rows on{' '}
            {value.trace.cpus} CPUs{value.trace.remote ? ', kept in the import worker' : ''}.{' '}
            <button
              type="button"
              className="linklike"
              onClick={() => {
                keepOnly(null);
                onLoad(null);
              }}
            >
              back to the model
            </button>
          </p>
          {value.recording.issueCount > 0 && (
            <>
              <p>
                {value.recording.issueCount.toLocaleString('en-US')} problem(s), each at the line
                where it begins; everything else was kept:
              </p>
              <ul className="issues">
                {value.recording.issues.slice(0, 8).map((i, k) => (
                  <li key={k}>
                    line {i.line}: {i.message} (<code>{i.excerpt}</code>)
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** What the import's worker keeps of a large recording, for the UI benchmark and DevTools. */
function recordWorkerMemory(w: RecordingWindow | undefined) {
  const p = perfRecord();
  if (p) delete p.worker;
  w?.memory()
    .then((m) => {
      if (p && m) p.worker = m;
    })
    .catch(() => {}); // replaced meanwhile: its figures no longer matter
}
