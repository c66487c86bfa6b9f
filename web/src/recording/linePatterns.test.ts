// Lines that look nearly like events must cost no more than ordinary ones: every line of a
// file goes through one of the line readers, and a reader whose work grows faster than a line's
// length lets a file of such lines hold the import for minutes.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { MAX_LINE, parseRecording } from './parse';
import type { RecordingFormat } from './types';

const fixture = (f: string) => readFileSync(resolve('tests/fixtures/recordings', f), 'utf8');

// Lines of MAX_LINE characters that the earlier patterns refused only after trying every way
// to share their run of blanks among neighbouring parts: each perf script and trace-cmd line
// took 30–50 s (cubic in the run), each tracefs line 50–80 ms (its square), on this machine.
const CASES: [RecordingFormat, string, string, number][] = [
  ['perf', 'perf-script.txt', `${' '.repeat(MAX_LINE - 1)}x`, 10],
  ['trace-cmd', 'trace-cmd-report.txt', `x:y:${' '.repeat(MAX_LINE - 8)}] 1 `, 10],
  ['tracefs', 'tracefs.trace', `${'\t'.repeat(MAX_LINE - 1)}[`, 2000],
  ['tracefs-latency', 'tracefs-latency.trace', `${'\t'.repeat(MAX_LINE - 1)}[`, 2000],
];

test.each(CASES)(
  '%s: near-miss lines of the longest length are refused at once',
  (f, file, bad, n) => {
    const text = fixture(file).replace(/\n?$/, '\n');
    const clean = parseRecording(text, file, f);
    const start = text.split('\n').length;
    const rec = parseRecording(text + `${bad}\n`.repeat(n), file, f);
    expect(bad).toHaveLength(MAX_LINE);
    expect(rec.summary.tlb_flush).toBe(clean.summary.tlb_flush);
    expect(rec.issueCount).toBe(clean.issueCount + n);
    expect(rec.issues.find((i) => i.line >= start)).toMatchObject({
      line: start,
      message: expect.stringMatching(/not an event line|\[cpu\] column/),
    });
  },
);
