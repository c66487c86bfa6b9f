// `tlbscope import <recording>` and `--format perfetto`: the CLI side of the web app's recording
// importer and Perfetto export (the same TypeScript modules, loaded through tsLoader.mjs).
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { basename } from 'node:path';
import { once } from 'node:events';
import { traceOf } from '../src/sim/run';
import { runOnce } from './run.mjs';
import { webModules } from './webModules.mjs';
import { err, out, quote, stdoutStream } from './terminal.mjs';

/** @import { SimulatorApi } from '../src/sim/run' */

export class RecordingFailure extends Error {}

/**
 * Writes chunks to stdout, waiting when the pipe is full (exports can be hundreds of MB).
 * `tlbscope import x --format perfetto | head` closes the pipe early: that is not an error.
 */
async function writeAll(/** @type {Iterable<string>} */ chunks) {
  stdoutStream.on('error', (/** @type {NodeJS.ErrnoException} */ e) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  for (const c of chunks) {
    if (!out(c)) await once(stdoutStream, 'drain');
  }
}

export async function readRecording(/** @type {string} */ path) {
  if (!existsSync(path)) throw new RecordingFailure(`no such recording file: ${quote(path)}`);
  const m = await webModules();
  const parser = new m.RecordingParser(basename(path));
  try {
    // Streamed: recordings of hundreds of MB are read without holding the text. Read by the
    // calling thread: a stream's reads run on libuv's pool, and on a busy machine the parser
    // sat idle between chunks waiting for that thread to be scheduled (a quarter of a 2 M-line
    // import's wall time at load 4).
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(1 << 20);
      const decoder = new StringDecoder('utf8');
      for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0;) {
        parser.push(decoder.write(buffer.subarray(0, n)));
      }
      const tail = decoder.end();
      if (tail) parser.push(tail);
    } finally {
      closeSync(fd);
    }
    return { m, rec: parser.finish() };
  } catch (e) {
    if (e instanceof m.RecordingError) throw new RecordingFailure(e.message);
    throw e;
  }
}

/**
 * @param {string} path
 * @param {string} format
 */
export async function importRecording(path, format) {
  const { m, rec } = await readRecording(path);
  if (format === 'json') {
    const { name, summary, issueCount, issues, unknown, cpus, startSeconds, tasks } = rec;
    const report = {
      name,
      summary,
      unreadable_lines: issueCount,
      issues,
      unknown,
      cpus,
      startSeconds,
      tasks,
    };
    out(`${JSON.stringify(report, null, 2)}\n`);
  } else if (format === 'perfetto') {
    const trace = m.toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] });
    await writeAll(
      m.perfettoChunks(trace, {
        title: rec.name,
        source: `recorded (${rec.summary.format}, ${rec.name})`,
        extras: { ...rec.columns, tasks: rec.tasks },
      }),
    );
  } else {
    out(m.formatRecording(rec));
  }
  // The text summary lists them itself.
  if (format !== 'text') warnIssues(rec);
  return 0;
}

/**
 * The lines a recording's reader could not use, on stderr, each with its number: what a result
 * read from the rest does not cover (a second recording joined on, time going back).
 * @param {{ issueCount: number, issues: { line: number, message: string }[], name: string }} rec
 */
export function warnIssues(rec) {
  if (rec.issueCount === 0) return;
  const first = rec.issues.map((i) => `  line ${i.line}: ${i.message}`).join('\n');
  err(`tlbscope: ${rec.issueCount} unreadable line(s) in ${rec.name}:\n${first}\n`);
}

/**
 * @param {SimulatorApi} wasm
 * @param {{ id: string, text: string, file: string }} scenario
 * @param {string[]} overrides
 * @param {number} seed
 */
export async function runPerfetto(wasm, { id, text, file }, overrides, seed) {
  const m = await webModules();
  const run = runOnce(wasm, text, file, overrides, seed, traceOf);
  await writeAll(
    m.perfettoChunks(/** @type {import('../src/trace/trace').Trace} */ (run.trace), {
      title: id,
      source: `predicted by the tlbscope model (${[`seed=${seed}`, ...overrides].join(' ')})`,
    }),
  );
  return 0;
}
