// One CSV import at a time, parsed in a Web Worker (content/csvWorker.ts) with progress and
// cancel. Nothing leaves the browser: the file goes to the worker and nowhere else.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LoadError } from '../../content/csv';
import type { CsvRequest, CsvResponse, Phase } from '../../content/csvWorker';
import type { Mapping, Validated } from '../../content/datasets';
import type { ImportOptions } from '../../content/csvPrepare';

export type Parsed = Extract<CsvResponse, { type: 'parsed' }>;

export type ImportState =
  | { status: 'idle' }
  | { status: 'loading'; name: string; phase: Phase; fraction: number }
  | { status: 'error'; name: string; error: LoadError }
  | { status: 'cancelled'; name: string }
  | {
      status: 'parsed';
      parsed: Parsed;
      mapping: Mapping;
      validated: Validated | null;
      missing: LoadError | null;
    };

export function useCsvImport() {
  const [state, setState] = useState<ImportState>({ status: 'idle' });
  const worker = useRef<Worker | null>(null);
  const id = useRef(0);
  const name = useRef('');

  const receive = useCallback((msg: CsvResponse) => {
    if (msg.id !== id.current) return;
    if (msg.type === 'parsed') {
      const req: CsvRequest = { type: 'map', id: msg.id, mapping: msg.mapping };
      worker.current?.postMessage(req);
    }
    setState((s) => {
      switch (msg.type) {
        case 'progress':
          // Redraw on whole percents only: a 50 MB read reports hundreds of chunks.
          if (
            s.status === 'loading' &&
            s.phase === msg.phase &&
            Math.floor(s.fraction * 100) === Math.floor(msg.fraction * 100)
          ) {
            return s;
          }
          if (s.status === 'parsed') return s;
          return {
            status: 'loading',
            name: name.current,
            phase: msg.phase,
            fraction: msg.fraction,
          };
        case 'error':
          return { status: 'error', name: name.current, error: msg.error };
        case 'parsed':
          return {
            status: 'parsed',
            parsed: msg,
            mapping: msg.mapping,
            validated: null,
            missing: null,
          };
        case 'validated':
          return s.status === 'parsed' ? { ...s, validated: msg.result, missing: msg.missing } : s;
      }
    });
  }, []);

  const ensureWorker = useCallback(() => {
    if (worker.current) return worker.current;
    const w = new Worker(new URL('../../content/csvWorker.ts', import.meta.url), {
      type: 'module',
    });
    w.onmessage = (e: MessageEvent<CsvResponse>) => receive(e.data);
    w.onerror = (e) => {
      setState({
        status: 'error',
        name: name.current,
        error: {
          kind: 'not-csv',
          message: `The import worker failed: ${e.message || 'unknown error'}`,
        },
      });
      worker.current?.terminate();
      worker.current = null;
    };
    worker.current = w;
    return w;
  }, [receive]);

  const start = useCallback(
    (req: CsvRequest & { name: string }) => {
      name.current = req.name;
      setState({ status: 'loading', name: req.name, phase: 'read', fraction: 0 });
      ensureWorker().postMessage(req);
    },
    [ensureWorker],
  );

  const loadFile = useCallback(
    (file: File) => start({ type: 'file', id: ++id.current, name: file.name, file }),
    [start],
  );
  const loadText = useCallback(
    (text: string) => start({ type: 'text', id: ++id.current, name: 'pasted text', text }),
    [start],
  );
  const setMapping = useCallback((mapping: Mapping) => {
    setState((s) => (s.status === 'parsed' ? { ...s, mapping, validated: null } : s));
    worker.current?.postMessage({ type: 'map', id: id.current, mapping } satisfies CsvRequest);
  }, []);
  const setOptions = useCallback((options: ImportOptions) => {
    worker.current?.postMessage({ type: 'prepare', id: id.current, options } satisfies CsvRequest);
  }, []);
  const cancel = useCallback(() => {
    worker.current?.terminate();
    worker.current = null;
    id.current++;
    setState({ status: 'cancelled', name: name.current });
  }, []);
  const reset = useCallback(() => setState({ status: 'idle' }), []);

  useEffect(() => () => worker.current?.terminate(), []);

  return { state, loadFile, loadText, setMapping, setOptions, cancel, reset };
}
