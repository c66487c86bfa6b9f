// tracefs text: `cat /sys/kernel/tracing/trace` (with its `#` header), `trace_pipe` (no header),
// and the same with `options/latency-format` set. Default lines look like
//   madvise_touch-19410   [000] d..2.  1341.012592: tlb_flush: pages:1 reason:local MM shootdown (3)
// (the flags column is absent with `noirq-info`; a `(tgid)` column appears with `record-tgid`);
// latency-format lines like
//   madvise_-19410     0d..2. 35363us : tlb_flush: pages:1 reason:local MM shootdown (3)
import { scanTracefsLine } from './tracefsScan';
import { stamped, type LineResult } from './types';

/**
 * Whether no line of `text` needs the patterns rather than the index reader (tracefsScan.ts): no
 * line end the patterns' `.` refuses, no lost-events notice. Tested once per chunk by the parser,
 * by four searches: one pattern for the four took as long as reading the lines' columns.
 */
export function isPlain(text: string): boolean {
  return (
    text.indexOf('LOST') < 0 &&
    text.indexOf('\r') < 0 &&
    text.indexOf('\u2028') < 0 &&
    text.indexOf('\u2029') < 0
  );
}

// No two neighbouring parts of a pattern may match the same run of blanks (as `^\s*(.+)` and
// `\s*[!+]?\s*` did): the engine then tries every way of sharing the run among them, and a
// 4,096-character line of blanks took seconds to refuse. The command is trimmed instead.
const DEFAULT =
  /^(.+)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+(?:([^\s[\]]{4,6})\s+)?(\d+\.\d+):\s+([\w.-]+):\s?(.*)$/;
const LATENCY =
  /^(.+)-(\d+)\s+(\d+)([^\s\d]\S{4})\s+(\d+)us\s*(?:[!+#*@$>]\s*)?:\s+([\w.-]+):\s?(.*)$/;

/** Lines tracefs writes between events: buffer starts, lost-event notices. */
function special(text: string): LineResult | null {
  if (/^\s*$/.test(text) || text.startsWith('#')) return 'skip';
  const lost = /CPU:?\s*(\d+)\s*\[LOST (\d+) EVENTS\]/.exec(text);
  if (lost) return { problem: `CPU ${lost[1]} lost ${lost[2]} events (ring buffer overrun)` };
  return null;
}

/** `plain`: the line isPlain (undefined: not known, it is looked at here). */
export function parseTracefsLine(text: string, line: number, plain?: boolean): LineResult {
  if ((plain ?? isPlain(text)) && text.charCodeAt(0) !== 35 /* # */) {
    const e = scanTracefsLine(text, line);
    if (e) return e;
  }
  return readByPattern(text, line);
}

/** The pattern's reading of a line: what the index reader gives up to, and must agree with. */
export function readByPattern(text: string, line: number): LineResult {
  const s = special(text);
  if (s) return s;
  const m = DEFAULT.exec(text);
  if (!m) return { problem: notAnEvent(text) };
  return stamped(m[5], {
    line,
    sec: 0,
    nsec: 0,
    comm: m[1].trim(),
    pid: Number(m[2]),
    cpu: Number(m[3]),
    flags: m[4] ?? null,
    name: m[6],
    body: m[7],
  });
}

export function parseLatencyLine(text: string, line: number): LineResult {
  const s = special(text);
  if (s) return s;
  const m = LATENCY.exec(text);
  if (!m) return { problem: notAnEvent(text) };
  const us = Number(m[5]);
  if (!Number.isSafeInteger(us * 1000))
    return {
      problem: `timestamp ${m[5].length > 20 ? `${m[5].slice(0, 20)}…` : m[5]}us is beyond 2^53 ns: a double cannot hold it exactly, every duration would read as 0 ns`,
    };
  return {
    line,
    comm: m[1].trim(),
    pid: Number(m[2]),
    cpu: Number(m[3]),
    sec: Math.floor(us / 1e6),
    nsec: (us % 1e6) * 1000,
    flags: m[4],
    name: m[6],
    body: m[7],
  };
}

/** Why a line is not an event line, as specifically as the line allows. */
export function notAnEvent(text: string): string {
  if (/\s<-\S/.test(text))
    return 'function tracer output, not a trace event (no "name:" after the timestamp)';
  if (/\[\d+\]\s+(?:\S+\s+)?\d+\.\d+:?\s*$/.test(text))
    return 'line ends after the timestamp (truncated?)';
  if (/\[\d+\]/.test(text))
    return 'has a [cpu] column but not "timestamp: event: fields" after it (truncated or another format?)';
  return 'not an event line';
}
