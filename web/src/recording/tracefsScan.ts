// tracefs.ts's default-line pattern read by index instead: the pattern cost half of a large
// import's time (10 M lines took 25 s), and an event line of the usual shape can be read in one
// walk over its columns. The walk gives up (null) wherever the pattern's answer could differ from
// the obvious one: then the pattern reads the line, so every line reads as it always has
// (tracefsScan.test.ts holds the two to the same answers). The pattern is
//   ^(.+)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+(?:([^\s[\]]{4,6})\s+)?(\d+\.\d+):\s+([\w.-]+):\s?(.*)$
// With one `[` in the line the `[cpu]` column is at it, and each part of the pattern has one way
// to match around it: walking back from it gives the pid (and tgid) and the command, walking on
// gives the flags, timestamp, event name and body.
import type { RawEvent } from './types';

const TAB = 9;
const SPACE = 32;
const DASH = 45;
const DOT = 46;
const COLON = 58;
const OPEN = 40;
const CLOSE = 41;
const BRACKET_CLOSE = 93;

/** `\s` on ASCII; a character past ASCII may be a blank too: the caller gives up on it. */
const blank = (c: number) => c === SPACE || (c >= TAB && c <= 13);
const digit = (c: number) => c >= 48 && c <= 57;
const word = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || digit(c) || c === 95 || c === DOT || c === DASH;

/** Digits `from`…`to` − 1 as Number() reads them (past 15 digits a double rounds: Number does). */
function digits(t: string, from: number, to: number): number {
  if (to - from > 15) return Number(t.slice(from, to));
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + t.charCodeAt(i) - 48;
  return v;
}

/** `t.slice(0, end).trim()`, without the untrimmed copy when its ends are ASCII. */
function command(t: string, end: number): string {
  let from = 0;
  let to = end;
  while (from < to && blank(t.charCodeAt(from))) from++;
  while (to > from && blank(t.charCodeAt(to - 1))) to--;
  if (t.charCodeAt(from) >= 128 || t.charCodeAt(to - 1) >= 128) return t.slice(0, end).trim();
  return t.slice(from, to);
}

const GIVE_UP = -2;
const NO_MATCH = -1;

/** Where the rest after the flags begins to match: timestamp, name and body found, or not. */
interface Rest {
  tsDot: number;
  name: number;
  tsEnd: number;
  nameEnd: number;
  body: number;
}
const rest: Rest = { tsDot: 0, name: 0, tsEnd: 0, nameEnd: 0, body: 0 };

/** `(\d+\.\d+):\s+([\w.-]+):\s?(.*)$` from `p`: its start, NO_MATCH, or GIVE_UP. */
function matchRest(t: string, p: number): number {
  const n = t.length;
  let i = p;
  while (i < n && digit(t.charCodeAt(i))) i++;
  if (i === p || i >= n || t.charCodeAt(i) !== DOT) return NO_MATCH;
  rest.tsDot = i++;
  const frac = i;
  while (i < n && digit(t.charCodeAt(i))) i++;
  if (i === frac || i >= n || t.charCodeAt(i) !== COLON) return NO_MATCH;
  rest.tsEnd = i++;
  const gap = i;
  let c = 0;
  while (i < n && blank((c = t.charCodeAt(i)))) i++;
  if (i < n && c >= 128) return GIVE_UP;
  if (i === gap) return NO_MATCH;
  const name = (rest.name = i);
  while (i < n && word(t.charCodeAt(i))) i++;
  if (i === name || i >= n || t.charCodeAt(i) !== COLON) return NO_MATCH;
  rest.nameEnd = i++;
  if (i < n) {
    c = t.charCodeAt(i);
    if (c >= 128) return GIVE_UP;
    if (blank(c)) i++;
  }
  rest.body = i;
  return p;
}

/**
 * The event of a default-format tracefs line, or null when the pattern must decide. The caller
 * has made sure the line holds no \r, \u2028 or \u2029 (which the pattern's `.` does not match)
 * and is not a comment or a lost-events notice (tracefs.ts isPlain).
 */
export function scanTracefsLine(t: string, line: number): RawEvent | null {
  const n = t.length;
  const b = t.indexOf('[');
  if (b < 4 || t.indexOf('[', b + 1) >= 0) return null;
  // Back from `[`: blanks, then the tgid column or the pid.
  let i = b - 1;
  if (!blank(t.charCodeAt(i))) return null;
  while (i > 0 && blank(t.charCodeAt(i))) i--;
  if (t.charCodeAt(i) === CLOSE) {
    const close = i--;
    while (i > 0 && (t.charCodeAt(i) === DASH || digit(t.charCodeAt(i)))) i--;
    if (i === close - 1) return null;
    while (i > 0 && blank(t.charCodeAt(i))) i--;
    if (t.charCodeAt(i) !== OPEN) return null;
    const gap = --i;
    while (i > 0 && blank(t.charCodeAt(i))) i--;
    if (i === gap) return null;
  }
  // A character past ASCII here may be a blank the pattern's \s+ takes: it decides.
  const pidEnd = i + 1;
  while (i > 0 && digit(t.charCodeAt(i))) i--;
  if (i === pidEnd - 1 || i < 1 || t.charCodeAt(i) !== DASH) return null;
  const dash = i;
  // On from `[`: the CPU, blanks, then the flags column or the timestamp.
  i = b + 1;
  while (i < n && digit(t.charCodeAt(i))) i++;
  if (i === b + 1 || i >= n || t.charCodeAt(i) !== BRACKET_CLOSE) return null;
  const cpuEnd = i++;
  const gap = i;
  let c = 0;
  while (i < n && blank((c = t.charCodeAt(i)))) i++;
  if (i === gap || i >= n || c >= 128) return null;
  const token = i;
  // The flags' class leaves out `]`: a token holding one is not the flags.
  let bracket = false;
  while (i < n && !blank((c = t.charCodeAt(i)))) {
    if (c >= 128) return null;
    if (c === BRACKET_CLOSE) bracket = true;
    i++;
  }
  const tokenEnd = i;
  let flags: string | null = null;
  let at: number = NO_MATCH;
  const len = tokenEnd - token;
  if (len >= 4 && len <= 6 && !bracket && i < n) {
    while (i < n && blank((c = t.charCodeAt(i)))) i++;
    if (i < n && c >= 128) return null;
    at = matchRest(t, i);
    if (at === GIVE_UP) return null;
    if (at >= 0) flags = t.slice(token, tokenEnd);
  }
  if (at < 0) at = matchRest(t, token);
  if (at < 0) return null;
  // Past 15 whole digits or 9 decimals the timestamp is refused: the pattern's path says why.
  const fracLen = rest.tsEnd - rest.tsDot - 1;
  if (rest.tsDot - at > 15 || fracLen > 9) return null;
  let nsec = digits(t, rest.tsDot + 1, rest.tsEnd);
  for (let k = fracLen; k < 9; k++) nsec *= 10;
  return {
    line,
    comm: command(t, dash),
    pid: digits(t, dash + 1, pidEnd),
    cpu: digits(t, b + 1, cpuEnd),
    sec: digits(t, at, rest.tsDot),
    nsec,
    flags,
    name: t.slice(rest.name, rest.nameEnd),
    body: t.slice(rest.body),
  };
}
