// tracefs.ts's default-line pattern read by index instead: the pattern cost half of a large
// import's time (10 M lines took 25 s), and an event line of the usual shape can be read in one
// walk over its columns. The walk gives up (null) wherever the pattern's answer could differ from
// the obvious one: then the pattern reads the line, so every line reads as it always has
// (tracefsScan.test.ts holds the two to the same answers). The pattern is
//   ^(.+)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+(?:([^\s[\]]{4,6})\s+)?(\d+\.\d+):\s+([\w.-]+):\s?(.*)$
// With one `[` in the line the `[cpu]` column is at it, and each part of the pattern has one way
// to match around it: walking back from it gives the pid (and tgid) and the command, walking on
// gives the flags, timestamp, event name and body.
import { KNOWN_EVENT_NAMES, type RawEvent } from './types';

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

/** `t.slice(start, end).trim()`, without the untrimmed copy when its ends are ASCII. */
function command(t: string, start: number, end: number): string {
  let from = start;
  let to = end;
  while (from < to && blank(t.charCodeAt(from))) from++;
  while (to > from && blank(t.charCodeAt(to - 1))) to--;
  if (t.charCodeAt(from) >= 128 || t.charCodeAt(to - 1) >= 128) return t.slice(start, end).trim();
  return t.slice(from, to);
}

/**
 * The names the builder gives meaning to, by length and first character: a line's name is
 * compared in place with these and, when it is one, given as this string, so that no name is
 * copied out of its line and the builder's lookups hash no new string. Other names are sliced.
 */
const NAME_KEYS = 64 * 128;
const NAMES: (string[] | undefined)[] = new Array(NAME_KEYS);
for (const name of KNOWN_EVENT_NAMES) {
  const key = name.length * 128 + name.charCodeAt(0);
  (NAMES[key] ??= []).push(name);
}

function eventName(t: string, from: number, to: number): string {
  const key = (to - from) * 128 + t.charCodeAt(from);
  const candidates = key < NAME_KEYS ? NAMES[key] : undefined;
  if (candidates)
    for (let k = 0; k < candidates.length; k++)
      if (t.startsWith(candidates[k], from)) return candidates[k];
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

/** `(\d+\.\d+):\s+([\w.-]+):\s?(.*)$` from `p` to `n`: its start, NO_MATCH, or GIVE_UP. */
function matchRest(t: string, p: number, n: number): number {
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
 * The line before's head (command, pid, tgid and `[cpu]` columns, up to the `]`) and what was
 * read from it: a task's events come in runs, and a line that starts as the one before has the
 * same first columns, read without a walk or a copy of its command.
 */
const last = { head: '', bracket: 0, comm: '', pid: 0, cpu: 0, flags: '' };

/**
 * Reads the columns before and in `[cpu]` (its `[` at `b`, the line ending at `n`) into `last`: the index after its
 * `]`, or -1 when the pattern must decide.
 */
function readHead(t: string, start: number, b: number, n: number): number {
  // Back from `[`: blanks, then the tgid column or the pid.
  let i = b - 1;
  if (!blank(t.charCodeAt(i))) return -1;
  while (i > start && blank(t.charCodeAt(i))) i--;
  if (t.charCodeAt(i) === CLOSE) {
    const close = i--;
    while (i > start && (t.charCodeAt(i) === DASH || digit(t.charCodeAt(i)))) i--;
    if (i === close - 1) return -1;
    while (i > start && blank(t.charCodeAt(i))) i--;
    if (t.charCodeAt(i) !== OPEN) return -1;
    const gap = --i;
    while (i > start && blank(t.charCodeAt(i))) i--;
    if (i === gap) return -1;
  }
  // A character past ASCII here may be a blank the pattern's \s+ takes: it decides.
  const pidEnd = i + 1;
  while (i > start && digit(t.charCodeAt(i))) i--;
  if (i === pidEnd - 1 || i < start + 1 || t.charCodeAt(i) !== DASH) return -1;
  const dash = i;
  // On from `[`: the CPU, blanks, then the flags column or the timestamp.
  i = b + 1;
  while (i < n && digit(t.charCodeAt(i))) i++;
  if (i === b + 1 || i >= n || t.charCodeAt(i) !== BRACKET_CLOSE) return -1;
  const cpuEnd = i++;
  last.head = t.slice(start, cpuEnd + 1);
  last.bracket = b - start;
  last.comm = command(t, start, dash);
  last.pid = digits(t, dash + 1, pidEnd);
  last.cpu = digits(t, b + 1, cpuEnd);
  return i;
}

/**
 * The event of a default-format tracefs line, or null when the pattern must decide. The caller
 * has made sure the line holds no \r, \u2028 or \u2029 (which the pattern's `.` does not match)
 * and is not a comment or a lost-events notice (tracefs.ts isPlain). The line is `t` from
 * `start` up to `n`: the parser passes a chunk and a line's place in it, so that a line read
 * here is never copied out as a string of its own.
 */
export function scanTracefsLine(t: string, line: number, start = 0, n = t.length): RawEvent | null {
  const h = last;
  let b: number;
  let i: number;
  if (h.head !== '' && n - start > h.head.length && t.startsWith(h.head, start)) {
    // The head of the line before: its first `[` is at the same place, its walk the same.
    b = start + h.bracket;
    i = start + h.head.length;
  } else {
    b = t.indexOf('[', start);
    if (b < 0 || b >= n || b - start < 4) return null;
    i = readHead(t, start, b, n);
    if (i < 0) return null;
  }
  const second = t.indexOf('[', b + 1);
  if (second >= 0 && second < n) return null;
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
    at = matchRest(t, i, n);
    if (at === GIVE_UP) return null;
    if (at >= 0) {
      // Flags repeat from line to line: the string of the line before, when they are the same.
      if (len !== last.flags.length || !t.startsWith(last.flags, token))
        last.flags = t.slice(token, tokenEnd);
      flags = last.flags;
    }
  }
  if (at < 0) at = matchRest(t, token, n);
  if (at < 0) return null;
  // Past 15 whole digits or 9 decimals the timestamp is refused: the pattern's path says why.
  const fracLen = rest.tsEnd - rest.tsDot - 1;
  if (rest.tsDot - at > 15 || fracLen > 9) return null;
  let nsec = digits(t, rest.tsDot + 1, rest.tsEnd);
  for (let k = fracLen; k < 9; k++) nsec *= 10;
  return {
    line,
    comm: h.comm,
    pid: h.pid,
    cpu: h.cpu,
    sec: digits(t, at, rest.tsDot),
    nsec,
    flags,
    name: eventName(t, rest.name, rest.nameEnd),
    body: t.slice(rest.body, n),
  };
}
