// Which format a recording is in, from its first lines: headers decide when present
// (`# tracer:`, `latency trace`, `cpus=N`), otherwise the line parser that reads the most of
// the first event lines. Binary input (trace.dat, perf.data) is refused with what to run.
import { parsePerfLine } from './perfScript';
import { parseTraceCmdLine } from './traceCmd';
import { parseLatencyLine, parseTracefsLine } from './tracefs';
import { excerpt, type LineResult, type RecordingFormat } from './types';

/** `plain`: the line is tracefs.ts isPlain (undefined: not known). */
export type LineParser = (text: string, line: number, plain?: boolean) => LineResult;

export const PARSERS: Record<RecordingFormat, LineParser> = {
  tracefs: parseTracefsLine,
  'tracefs-latency': parseLatencyLine,
  'trace-cmd': parseTraceCmdLine,
  perf: parsePerfLine,
};

export type Detection = { format: RecordingFormat } | { error: string };

/** How many leading lines detection looks at. */
export const DETECT_LINES = 200;

export function detectFormat(head: string): Detection {
  const bin = binaryReason(head);
  if (bin) return { error: bin };
  const lines = head.split(/\r?\n/).slice(0, DETECT_LINES);
  if (lines.some((l) => /^# .*latency trace v/.test(l))) return { format: 'tracefs-latency' };
  if (lines.some((l) => /^# tracer: /.test(l))) return { format: 'tracefs' };
  if (/^cpus=\d+\s*$/.test(lines[0] ?? '')) return { format: 'trace-cmd' };
  const events = lines.filter((l) => l.trim() && !l.startsWith('#'));
  if (events.length === 0) return { error: 'the recording is empty (no event lines)' };
  let best: RecordingFormat | null = null;
  let bestCount = 0;
  // tracefs first: on a tie (trace-cmd lines without an instance prefix read the same) the
  // tracefs reader is the one that also knows the flags column.
  for (const f of ['tracefs', 'perf', 'tracefs-latency', 'trace-cmd'] as RecordingFormat[]) {
    let n = 0;
    events.forEach((l, i) => {
      const r = PARSERS[f](l, i + 1);
      if (typeof r === 'object' && 'name' in r) n++;
    });
    if (n > bestCount) {
      best = f;
      bestCount = n;
    }
  }
  if (best && bestCount * 2 >= Math.min(events.length, 20)) return { format: best };
  const first = excerpt(events[0]);
  return {
    error:
      `not a trace this importer reads: none of tracefs, trace-cmd report or perf script ` +
      `matches the first lines (line ${lines.indexOf(events[0]) + 1}: "${first}")`,
  };
}

/** Why the text is binary, or null: NULs or mostly unprintable bytes in its first kilobytes. */
export function binaryReason(head: string): string | null {
  const sample = head.slice(0, 4096);
  if (sample.startsWith('\x17\x08\x44tracing')) {
    return 'this is a binary trace-cmd trace.dat: run `trace-cmd report -i trace.dat > trace.txt` and import the text';
  }
  if (sample.startsWith('PERFILE2')) {
    return 'this is a binary perf.data: run `perf script --ns -i perf.data > perf.txt` and import the text';
  }
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0) return 'the file is binary (it contains NUL bytes), not trace text';
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 0xfffd) bad++;
  }
  return bad > sample.length / 10
    ? 'the file is binary (mostly unprintable bytes), not trace text'
    : null;
}
