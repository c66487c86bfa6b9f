// Reads a recording in chunks (a worker feeds it a file slice by slice; the CLI and tests feed
// it whole text): splits lines, detects the format from the first ones, parses each line and
// hands events to the builder. Nothing that parsed is lost to a bad line; every unreadable line
// is named by number (the first MAX_ISSUES of them are kept with their text).
import { RecordingBuilder, type Built } from './build';
import { DETECT_LINES, detectFormat, PARSERS, type LineParser } from './detect';
import { summarise, type RecordingSummary } from './summary';
import { EventKind } from '../trace/trace';
import { isPlain, parseTracefsLine } from './tracefs';
import { scanTracefsLine } from './tracefsScan';
import { excerpt, type LineIssue, type RawEvent, type RecordingFormat } from './types';

export const MAX_ISSUES = 100;

/**
 * Longer lines are not trace events: they are reported and the rest of them skipped unread.
 * The events read here print in under 300 characters, except ipi_send_cpumask, whose mask grows
 * with the machine: perf's byte array of a 1,024-CPU mask, or the list of every other CPU of a
 * 1,024-CPU machine, is about 2,000. The line readers' work is linear in a line's length, so
 * the cap bounds what one line may hold in memory, not the time it takes.
 */
export const MAX_LINE = 4096;

/** Latency tracers whose output is sections bounded by the tracer itself. */
const SECTION_TRACERS: Record<string, EventKind> = {
  irqsoff: EventKind.IrqsOff,
  preemptoff: EventKind.PreemptOff,
  preemptirqsoff: EventKind.IrqsOff,
};

type Stamp = [sec: number, nsec: number];
const before = (a: Stamp, b: Stamp) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
const secondsOf = (t: Stamp) => `${t[0]}.${String(t[1]).padStart(9, '0')}`;
const gap = (a: Stamp, b: Stamp) => {
  const ns = (a[0] - b[0]) * 1e9 + (a[1] - b[1]);
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(3)} ms` : `${(ns / 1e3).toFixed(3)} µs`;
};

/** A run of events whose timestamps went back, dropped until they pass the latest again. */
interface Backwards {
  issue: LineIssue;
  dropped: number;
  last: number;
}

export interface Recording extends Built {
  name: string;
  format: RecordingFormat;
  lines: number;
  /** Every unreadable line (only the first MAX_ISSUES are in `issues`). */
  issueCount: number;
  summary: RecordingSummary;
}

export class RecordingError extends Error {}

export class RecordingParser {
  private carry = '';
  private scanned = 0;
  private head: string[] = [];
  private parser: LineParser | null = null;
  private format: RecordingFormat | null = null;
  private lineNo = 0;
  private issueCount = 0;
  private readonly builder = new RecordingBuilder();
  private readonly issues: LineIssue[] = [];
  /** Inside an over-long line: its rest is skipped up to the next newline. */
  private skipping = false;
  private latest: Stamp | null = null;
  private readonly latestOnCpu = new Map<number, [Stamp, number]>();
  private back: Backwards | null = null;
  private tracer: string | null = null;
  private headers = 0;
  private events = 0;

  constructor(
    readonly name: string,
    private readonly forced?: RecordingFormat,
  ) {}

  /** Feeds the next piece of text (any split; a line may straddle chunks). */
  push(chunk: string): void {
    let text = chunk;
    if (this.skipping) {
      const nl = text.indexOf('\n');
      this.scanned += nl < 0 ? text.length : nl + 1;
      if (nl < 0) return;
      this.skipping = false;
      text = text.slice(nl + 1);
    }
    // Only the new text is searched for line ends: the carried start of a line is joined to
    // its end once, when that end arrives. Searching carry + chunk again at every chunk made a
    // long line fed in small chunks cost its length times the number of chunks.
    const nl = text.indexOf('\n');
    this.scanned += nl < 0 ? text.length : nl + 1;
    if (nl < 0) {
      this.hold(text);
      return;
    }
    this.line(this.carry + text.slice(0, nl), false);
    this.carry = '';
    this.scanned += text.length - nl - 1;
    // One search of the chunk spares each of its lines the marker patterns and the readers'
    // own checks when it holds none of what those look for.
    const plain = isPlain(text);
    let from = nl + 1;
    for (let end = text.indexOf('\n', from); end >= 0; end = text.indexOf('\n', from)) {
      if (!plain || !this.readInPlace(text, from, end)) this.line(text.slice(from, end), plain);
      from = end + 1;
    }
    this.hold(text.slice(from));
  }

  /**
   * A tracefs event line of a plain chunk read where it lies (tracefsScan.ts), as parseLine
   * would read it, without copying it out; false when it needs parseLine (a marker, a line the
   * walk gives up on, another format, the head not yet detected), which then reads it whole.
   */
  private readInPlace(text: string, from: number, end: number): boolean {
    const c0 = text.charCodeAt(from);
    if (this.parser !== parseTracefsLine || end - from > MAX_LINE || c0 === 35 || c0 === 99)
      return false;
    const e = scanTracefsLine(text, this.lineNo + 1, from, end);
    if (!e) return false;
    this.lineNo++;
    if (this.inOrder(e)) {
      this.events++;
      this.builder.add(e);
    }
    return true;
  }

  /**
   * Characters examined to find line ends, however the text was chunked: at most the text's
   * length (tests hold the splitting to linear work with it).
   */
  get charsScanned(): number {
    return this.scanned;
  }

  /** `plain`: the line's chunk isPlain (false: the line itself is looked at). */
  private line(p: string, plain: boolean) {
    if (p.length > MAX_LINE) return this.overlong(p);
    const text = p.endsWith('\r') ? p.slice(0, -1) : p;
    this.accept(text, false, plain || isPlain(text));
  }

  /** Keeps the start of a line until its end arrives; one with no end in sight is dropped. */
  private hold(text: string) {
    this.carry += text;
    // A 100 MB line would otherwise be held whole: past MAX_LINE it is named and skipped.
    if (this.carry.length > MAX_LINE) {
      this.overlong(this.carry);
      this.carry = '';
      this.skipping = true;
    }
  }

  private overlong(text: string) {
    this.lineNo++;
    // Detection numbers the head's lines by position: an empty one stands in (and is skipped).
    if (!this.parser) this.head.push('');
    this.note(
      this.lineNo,
      `line longer than ${MAX_LINE} characters, not a trace event; the rest of it is skipped`,
      text,
    );
  }

  private note(line: number, message: string, text: string): LineIssue {
    this.issueCount++;
    const issue = { line, message, excerpt: excerpt(text) };
    if (this.issues.length < MAX_ISSUES) this.issues.push(issue);
    return issue;
  }

  /** Lines read so far. */
  get linesRead(): number {
    return this.lineNo;
  }

  /** The rows built so far (their times and CPUs), for a sketch of the recording as it reads. */
  get rowsSoFar(): RecordingBuilder['rowsSoFar'] {
    return this.builder.rowsSoFar;
  }

  finish(): Recording {
    this.endBackwards();
    if (this.carry) {
      const last = this.carry;
      this.carry = '';
      this.accept(last, true, isPlain(last));
    }
    if (!this.parser) this.detect();
    const built = this.builder.finish();
    const issues = [...this.issues, ...built.issues].sort((a, b) => a.line - b.line);
    const issueCount = this.issueCount + built.issues.length;
    const format = this.format as RecordingFormat;
    const rec = {
      ...built,
      name: this.name,
      format,
      lines: this.lineNo,
      issues: issues.slice(0, MAX_ISSUES),
      issueCount,
      summary: summarise(built, format, this.lineNo, issueCount),
    };
    if (built.counts.events === 0) {
      throw new RecordingError(nothingReadable(rec));
    }
    return rec;
  }

  private accept(text: string, last: boolean, plain: boolean) {
    this.lineNo++;
    if (!this.parser) {
      this.head.push(text);
      if (this.head.length >= DETECT_LINES) this.detect();
      return;
    }
    this.parseLine(text, this.lineNo, last, plain);
  }

  private detect() {
    const d = this.forced ? { format: this.forced } : detectFormat(this.head.join('\n'));
    if ('error' in d) throw new RecordingError(`${this.name}: ${d.error}`);
    this.format = d.format;
    this.parser = PARSERS[d.format];
    const first = this.lineNo - this.head.length + 1;
    const head = this.head;
    this.head = [];
    head.forEach((t, i) => this.parseLine(t, first + i, false, isPlain(t)));
  }

  private parseLine(text: string, line: number, last: boolean, plain: boolean) {
    // Every marker starts with `#` or `cpus=`, or tells of LOST events (not plain).
    const c0 = text.charCodeAt(0);
    if ((!plain || c0 === 35 /* # */ || c0 === 99) /* c */ && this.marker(text, line)) return;
    const r = (this.parser as LineParser)(text, line, plain);
    if (r === 'skip') return;
    if ('problem' in r) {
      // A latency tracer's section is function-trace lines: its header already gave the span.
      if (this.tracer && /^function tracer/.test(r.problem)) return;
      const message = last
        ? `${r.problem}; the last line has no newline (file cut short?)`
        : r.problem;
      this.note(line, message, text);
      return;
    }
    if (this.inOrder(r)) {
      this.events++;
      this.builder.add(r);
    }
  }

  /**
   * Lines that say something about the recording rather than an event: headers (a second one
   * means recordings joined), lost-event and buffer-start notices (events missing), a latency
   * tracer's section. True when the line is consumed.
   */
  private marker(text: string, line: number): boolean {
    const tracer = /^# tracer: (\S+)/.exec(text);
    if (tracer || (/^cpus=\d+\s*$/.test(text) && line > 1)) {
      if (++this.headers > 1 || (this.events > 0 && !tracer))
        this.note(line, 'a second trace header: several recordings joined into one file?', text);
      if (tracer && tracer[1] in SECTION_TRACERS) this.tracer = tracer[1];
      return true;
    }
    if (/^cpus=\d+\s*$/.test(text)) {
      this.headers++;
      return true;
    }
    const entries = /^# entries-in-buffer\/entries-written: (\d+)\/(\d+)/.exec(text);
    if (entries && Number(entries[1]) < Number(entries[2])) {
      this.note(
        line,
        `the ring buffer was overwritten: ${entries[1]} of the ${entries[2]} events written are in the recording (the oldest were lost)`,
        text,
      );
      return true;
    }
    const started = /^#+ CPU (\d+) buffer started/.exec(text);
    if (started) {
      this.note(
        line,
        `CPU ${started[1]}'s buffer starts here: its earlier events were overwritten (ring buffer overrun)`,
        text,
      );
      return true;
    }
    if (/\bLOST\b.*\bEVENTS\b|\bLOST \d+ events\b/.test(text) && !/^\s*#/.test(text)) {
      const n = /LOST (\d+)/i.exec(text);
      const cpu = /CPU:?\s*(\d+)/.exec(text);
      this.note(
        line,
        `${cpu ? `CPU ${cpu[1]} ` : ''}lost ${n ? `${n[1]} ` : ''}events here (ring buffer overrun): what follows misses them`,
        text,
      );
      return true;
    }
    const latency = /^# latency: (\d+) us, #\d+\/\d+, CPU#(\d+)/.exec(text);
    if (latency && this.tracer) {
      this.builder.section({
        kind: SECTION_TRACERS[this.tracer],
        cpu: Number(latency[2]),
        // A latency tracer's timestamps count from its section's start.
        sec: 0,
        nsec: 0,
        durNs: Number(latency[1]) * 1000,
        line,
      });
      return true;
    }
    return false;
  }

  /**
   * Drops events whose timestamp goes back (on their CPU, or across CPUs: the formats print
   * events in time order), reporting where each backwards run begins: a recording concatenated
   * with itself was read as one ten times as dense, and a step back as a 2 s IPI delivery.
   */
  private inOrder(e: RawEvent): boolean {
    const latest = this.latest;
    if (latest && (e.sec < latest[0] || (e.sec === latest[0] && e.nsec < latest[1]))) {
      const t: Stamp = [e.sec, e.nsec];
      const mine = this.latestOnCpu.get(e.cpu);
      if (this.back) {
        this.back.dropped++;
        this.back.last = e.line;
        return false;
      }
      const cpuBack = mine && before(t, mine[0]);
      const ref = cpuBack ? mine : null;
      const message = cpuBack
        ? `timestamp ${secondsOf(t)} on CPU ${e.cpu} is ${gap(ref![0], t)} before that CPU's event at line ${ref![1]}`
        : `timestamp ${secondsOf(t)} is ${gap(latest, t)} before the latest one read (${secondsOf(latest)})`;
      this.back = {
        issue: this.note(e.line, `${message}: time goes back`, `${e.comm} [${e.cpu}] ${e.name}`),
        dropped: 1,
        last: e.line,
      };
      return false;
    }
    this.endBackwards();
    // Updated in place: two arrays a line were a large import's most frequent allocation.
    if (latest) {
      latest[0] = e.sec;
      latest[1] = e.nsec;
    } else this.latest = [e.sec, e.nsec];
    const mine = this.latestOnCpu.get(e.cpu);
    if (mine) {
      mine[0][0] = e.sec;
      mine[0][1] = e.nsec;
      mine[1] = e.line;
    } else this.latestOnCpu.set(e.cpu, [[e.sec, e.nsec], e.line]);
    return true;
  }

  private endBackwards() {
    const b = this.back;
    if (!b) return;
    this.back = null;
    b.issue.message +=
      b.last > b.issue.line
        ? `; the ${b.dropped} events of lines ${b.issue.line}–${b.last} are dropped (recordings joined?)`
        : '; the event is dropped';
  }
}

function nothingReadable(rec: Recording): string {
  const unknown = Object.entries(rec.unknown);
  if (unknown.length > 0) {
    const names = unknown
      .slice(0, 5)
      .map(([k, n]) => `${k} (${n})`)
      .join(', ');
    return `${rec.name}: ${rec.lines} lines of ${rec.format} text, but none of the events this importer reads (tlb_flush, ipi_send_*, csd_*, call_function*, sched_switch); found ${names}`;
  }
  const first = rec.issues[0];
  return first
    ? `${rec.name}: nothing could be read; line ${first.line}: ${first.message}`
    : `${rec.name}: the recording has no events`;
}

/** Parses a whole text at once (CLI, tests). Throws RecordingError when nothing is readable. */
export function parseRecording(text: string, name: string, format?: RecordingFormat): Recording {
  const p = new RecordingParser(name, format);
  p.push(text);
  return p.finish();
}
