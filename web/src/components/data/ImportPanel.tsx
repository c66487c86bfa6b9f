// Load a CSV by drag-and-drop, file picker or paste; watch it parse in a worker; check the
// preview, map columns, read the problems; then add its numbers to the charts.
import { useState, type DragEvent } from 'react';
import { MAX_BYTES, formatBytes, type LoadErrorKind } from '../../content/csv';
import type { Dataset } from '../../content/datasets';
import { ImportPreview } from './ImportPreview';
import { useCsvImport } from './useCsvImport';

const ERROR_TITLE: Record<LoadErrorKind, string> = {
  'too-big': 'Too big',
  'not-csv': 'Not a CSV',
  encoding: 'Wrong encoding',
  empty: 'Empty file',
  'missing-column': 'Missing column',
};

const PHASE: Record<string, string> = { read: 'Reading', parse: 'Parsing', validate: 'Checking' };

export function ImportPanel({ onAdd }: { onAdd: (d: Dataset) => void }) {
  const { state, loadFile, loadText, setMapping, setOptions, cancel, reset } = useCsvImport();
  const [over, setOver] = useState(false);
  const [paste, setPaste] = useState('');
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files[0];
    if (f) loadFile(f);
  };
  return (
    <section className="import" aria-labelledby="import-h">
      <h3 id="import-h">Import measurements (CSV)</h3>
      <p>
        The file is read and checked in this browser only; nothing is uploaded. Up to{' '}
        {formatBytes(MAX_BYTES)}, UTF-8, with the header{' '}
        <code>arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source</code> (other
        names can be mapped). Rows are counted as in a spreadsheet: the header is row 1.
      </p>
      <div className="import-inputs">
        <div
          className={`dropzone${over ? ' over' : ''}`}
          data-testid="dropzone"
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          Drop a CSV file here, or{' '}
          <label className="file-label">
            choose a file
            <input
              type="file"
              accept=".csv,.tsv,.txt,text/csv"
              aria-label="Choose a CSV file"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) loadFile(f);
                e.target.value = '';
              }}
            />
          </label>
        </div>
        <div className="paste">
          <label htmlFor="csv-paste">…or paste CSV text</label>
          <textarea
            id="csv-paste"
            rows={4}
            spellCheck={false}
            value={paste}
            onChange={(e) => setPaste(e.target.value)}
          />
          <button type="button" disabled={!paste.trim()} onClick={() => loadText(paste)}>
            Check pasted text
          </button>
        </div>
      </div>
      {state.status === 'loading' && (
        <div className="run-status import-progress" role="status" aria-live="polite">
          <span>
            {PHASE[state.phase]} {state.name}… {Math.floor(state.fraction * 100)} %
          </span>
          <progress aria-label="Import progress" value={state.fraction} max={1} />
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      {state.status === 'cancelled' && <p role="status">Import of {state.name} cancelled.</p>}
      {state.status === 'error' && (
        <div role="alert" className="error-panel import-error" data-error-kind={state.error.kind}>
          <h4>
            {ERROR_TITLE[state.error.kind]}: {state.name}
          </h4>
          <p>{state.error.message}</p>
        </div>
      )}
      {state.status === 'parsed' && (
        <ImportPreview
          state={state}
          onMapping={setMapping}
          onOptions={setOptions}
          onAdd={(d) => {
            onAdd(d);
            reset();
          }}
          onDiscard={reset}
        />
      )}
    </section>
  );
}
