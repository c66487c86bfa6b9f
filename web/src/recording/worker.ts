/// <reference lib="webworker" />
// Parses a recording off the main thread: the file is read as a stream of decoded chunks and
// fed to the parser, with progress after each; cancelling is terminating the worker.
import { buffersOf, toPrebuilt } from '../model/prebuilt';
import { toTimelineModel } from '../model/timelineModel';
import { toTrace } from '../trace/trace';
import { RecordingError, RecordingParser } from './parse';
import type { ParseRequest, RecordingMessage } from './protocol';

function post(msg: RecordingMessage, transfer: Transferable[] = []) {
  (self as DedicatedWorkerGlobalScope).postMessage(msg, transfer);
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

self.onmessage = async (e: MessageEvent<ParseRequest>) => {
  const { name, input } = e.data;
  const total = typeof input === 'string' ? input.length : input.size;
  const parser = new RecordingParser(name);
  let lastPost = 0;
  try {
    for await (const [text, bytes] of chunks(input)) {
      parser.push(text);
      const now = performance.now();
      if (now - lastPost > 100) {
        lastPost = now;
        post({ type: 'progress', bytes, total, lines: parser.linesRead });
      }
    }
    const r = parser.finish();
    const recording = {
      name: r.name,
      format: r.format,
      lines: r.lines,
      cpus: r.cpus,
      columns: r.columns,
      tasks: r.tasks,
      unknown: r.unknown,
      issues: r.issues,
      issueCount: r.issueCount,
      summary: r.summary,
      startSeconds: r.startSeconds,
    };
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
};
