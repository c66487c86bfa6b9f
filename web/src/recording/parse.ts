// Reads a recording in chunks (a worker feeds it a file slice by slice; the CLI and tests feed
// it whole text): splits lines, detects the format from the first ones, parses each line and
// hands events to the builder. Nothing that parsed is lost to a bad line; every unreadable line
// is named by number (the first MAX_ISSUES of them are kept with their text).
import { RecordingBuilder, type Built } from './build';
import { DETECT_LINES, detectFormat, PARSERS, type LineParser } from './detect';
import { summarise, type RecordingSummary } from './summary';
import { excerpt, type LineIssue, type RecordingFormat } from './types';

export const MAX_ISSUES = 100;
/**
 * Longest line read as an event. Real lines are a few hundred characters, and a line pattern
 * may take time growing with the square of a line's length (a line padded with 24,000 spaces
 * took 16 s to detect), so a longer line is an issue without being matched.
 */
export const MAX_LINE = 4096;

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
  private head: string[] = [];
  private parser: LineParser | null = null;
  private format: RecordingFormat | null = null;
  private lineNo = 0;
  private issueCount = 0;
  private readonly builder = new RecordingBuilder();
  private readonly issues: LineIssue[] = [];

  constructor(
    readonly name: string,
    private readonly forced?: RecordingFormat,
  ) {}

  /** Feeds the next piece of text (any split; a line may straddle chunks). */
  push(chunk: string): void {
    const parts = (this.carry + chunk).split('\n');
    this.carry = parts.pop() ?? '';
    for (const p of parts) this.accept(p.endsWith('\r') ? p.slice(0, -1) : p);
  }

  /** Lines read so far. */
  get linesRead(): number {
    return this.lineNo;
  }

  finish(): Recording {
    if (this.carry) {
      const last = this.carry;
      this.carry = '';
      this.accept(last, true);
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

  private accept(text: string, last = false) {
    this.lineNo++;
    if (text.length > MAX_LINE) {
      this.problem(
        this.lineNo,
        `a line of ${text.length} characters, longer than the ${MAX_LINE} an event line may have`,
        text.slice(0, 200),
      );
      return;
    }
    if (!this.parser) {
      this.head.push(text);
      if (this.head.length >= DETECT_LINES) this.detect();
      return;
    }
    this.parseLine(text, this.lineNo, last);
  }

  private detect() {
    const d = this.forced ? { format: this.forced } : detectFormat(this.head.join('\n'));
    if ('error' in d) throw new RecordingError(`${this.name}: ${d.error}`);
    this.format = d.format;
    this.parser = PARSERS[d.format];
    const first = this.lineNo - this.head.length + 1;
    const head = this.head;
    this.head = [];
    head.forEach((t, i) => this.parseLine(t, first + i, false));
  }

  private parseLine(text: string, line: number, last: boolean) {
    const r = (this.parser as LineParser)(text, line);
    if (r === 'skip') return;
    if ('problem' in r) {
      const message = last
        ? `${r.problem}; the last line has no newline (file cut short?)`
        : r.problem;
      this.problem(line, message, text);
      return;
    }
    this.builder.add(r);
  }

  private problem(line: number, message: string, text: string) {
    this.issueCount++;
    if (this.issues.length < MAX_ISSUES)
      this.issues.push({ line, message, excerpt: excerpt(text) });
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
