/// <reference lib="webworker" />
// Parses a recording off the main thread: the file is read as a stream of decoded chunks and
// fed to the parser, with progress after each; cancelling is terminating the worker. A
// recording above the request's remoteAbove rows stays here (kept.ts): the page gets its
// summary and extent, then asks for windows as it asks the simulator's worker.
import { buffersOf, toPrebuilt } from '../model/prebuilt';
import { SLICE } from '../model/rowSource';
import { toTimelineModel } from '../model/timelineModel';
import { noColumns, toTrace } from '../trace/trace';
import { afterQueued } from '../workers/afterQueued';
import { cancelAnalysis, runAnalysis } from '../workers/analysisJob';
import type { AnalyzeCancel, AnalyzeRequest } from '../workers/protocol';
import { LatestQueue } from '../workers/windowServer';
import type { RecordingColumns } from './build';
import { KeptRecording } from './kept';
import { RecordingError, RecordingParser } from './parse';
import type { ParseRequest, RecordingMessage, RecordingQuery } from './protocol';
import { SketchCounter } from './sketch';

function post(msg: RecordingMessage, transfer: Transferable[] = []) {
  (self as DedicatedWorkerGlobalScope).postMessage(msg, transfer);
}

let kept: KeptRecording | null = null;

const queries = new LatestQueue(
  (req) => {
    try {
      if (kept) kept.server.answer(req, post);
      else post({ type: 'query-error', id: req.id, message: 'no recording kept to ask about' });
    } catch (err) {
      post({ type: 'query-error', id: req.id, message: String(err) });
    }
  },
  (id) => post({ type: 'stale', id }),
  afterQueued,
);

function emptyRecordingColumns(): RecordingColumns {
  return {
    ...noColumns(),
    reason: new Int8Array(0),
    pages: new Float64Array(0),
    line: new Int32Array(0),
  };
}

/** What the page is told of a parsed recording, its columns aside. */
function described(r: ReturnType<RecordingParser['finish']>) {
  return {
    name: r.name,
    format: r.format,
    lines: r.lines,
    cpus: r.cpus,
    tasks: r.tasks,
    unknown: r.unknown,
    issues: r.issues,
    issueCount: r.issueCount,
    summary: r.summary,
    startSeconds: r.startSeconds,
  };
}

const CHUNK = 1 << 20;

async function* chunks(input: Blob | string): AsyncGenerator<[string, number]> {
  if (typeof input === 'string') {
    for (let i = 0; i < input.length; i += CHUNK) {
      yield [input.slice(i, i + CHUNK), Math.min(input.length, i + CHUNK)];
    }
    return;
  }
  const reader = input.stream().pipeThrough(new TextDecoderStream()).getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    // Decoded characters approximate bytes well enough for a progress bar of ASCII text.
    bytes = Math.min(input.size, bytes + value.length);
    yield [value, bytes];
  }
}

self.onmessage = (
  e: MessageEvent<ParseRequest | RecordingQuery | AnalyzeRequest | AnalyzeCancel>,
) => {
  const req = e.data;
  if (req.type === 'parse') {
    void parse(req);
    return;
  }
  if (req.type === 'analyze') {
    if (kept) void runAnalysis(kept.server.src, req, post);
    else post({ type: 'analysis', id: req.id, analysis: null, error: 'no recording kept here' });
    return;
  }
  if (req.type === 'analyze-cancel') {
    cancelAnalysis(req.id);
    return;
  }
  if (req.type === 'recorded') {
    const r = kept ? kept.recorded(req.row) : 'no recording kept to ask about';
    if (typeof r === 'string') post({ type: 'query-error', id: req.id, message: r });
    else post({ type: 'recorded', id: req.id, ...r });
    return;
  }
  if (req.type === 'slice' && kept) {
    // The recording's own columns go with the trace's: the server knows only the latter.
    const first = Math.max(0, Math.min(kept.rows, Math.floor(req.first) || 0));
    const end = Math.min(
      kept.rows,
      first + Math.max(0, Math.min(SLICE, Math.floor(req.count) || 0)),
    );
    const { columns, extras } = kept.slice(first, end);
    post({ type: 'slice', id: req.id, first, columns, extras }, [
      ...Object.values(columns).map((c: Float64Array) => c.buffer),
      ...Object.values(extras).map((c: Float64Array) => c.buffer),
    ]);
    return;
  }
  queries.push(req);
};

async function parse(req: ParseRequest) {
  const { name, input } = req;
  const total = typeof input === 'string' ? input.length : input.size;
  const parser = new RecordingParser(name);
  const sketch = new SketchCounter();
  let counted = 0;
  let lastPost = 0;
  try {
    for await (const [text, bytes] of chunks(input)) {
      parser.push(text);
      const now = performance.now();
      if (now - lastPost > 100) {
        lastPost = now;
        const rows = parser.rowsSoFar;
        sketch.add(rows.time, rows.cpu, counted, rows.length);
        counted = rows.length;
        const s = sketch.snapshot();
        post({ type: 'progress', bytes, total, lines: parser.linesRead, sketch: s }, [
          s.counts.buffer,
        ]);
      }
    }
    const r = parser.finish();
    const rows = r.columns.time.length;
    if (rows > (req.remoteAbove ?? Infinity)) {
      // The columns are packed and indexed here, and the parser's copy dropped with `r`.
      kept = new KeptRecording(r.columns, r.cpus);
      post({
        type: 'done',
        recording: {
          ...described(r),
          columns: emptyRecordingColumns(),
          view: null,
          remote: { rows, end: kept.end },
          initiator: kept.initiator,
        },
      });
      return;
    }
    const recording = { ...described(r), columns: r.columns, flagged: r.flagged };
    // The timeline's model too: for a recording of a million rows it takes seconds, which
    // the page would otherwise spend on its main thread.
    let view = null;
    try {
      const trace = toTrace({ ...r.columns, cpus: r.cpus, strings: [] });
      view = toPrebuilt(toTimelineModel(trace, 'time'));
    } catch {
      view = null; // the page builds it then
    }
    const transfer = new Set([
      ...Object.values(r.columns).map((c) => (c as Float64Array).buffer as ArrayBuffer),
      ...buffersOf(view),
    ]);
    post({ type: 'done', recording: { ...recording, view } }, [...transfer]);
  } catch (err) {
    const message = err instanceof RecordingError ? err.message : `${name}: ${String(err)}`;
    post({ type: 'error', message });
  }
}
