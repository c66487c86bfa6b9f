// What a recording cannot be trusted for is reported with the line where it begins: time going
// back (per CPU, or a whole recording appended again), repeated headers, lost events, timestamps
// beyond a double's precision, over-long lines (clipped in every message, skipped unread).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { MAX_LINE, parseRecording, RecordingParser } from './parse';
import { formatRecording } from './report';
import { EXCERPT_CHARS } from './types';

const name = 'madvise-touch-kvm-2cpu.trace';
const text = readFileSync(resolve('content/recordings', name), 'utf8');
const lines = text.split('\n');
const clean = parseRecording(text, name);
const firstEvent = lines.findIndex((l) => !l.startsWith('#'));

describe('time going back', () => {
  test('a recording appended to itself 30 times is read once, each copy reported by line', () => {
    const body = text.endsWith('\n') ? text : `${text}\n`;
    const joined = body.repeat(30);
    const rec = parseRecording(joined, 'x30.trace');
    expect(rec.summary.shootdowns).toBe(clean.summary.shootdowns);
    expect(rec.summary.shootdown_rate_per_s).toBeCloseTo(clean.summary.shootdown_rate_per_s!, 6);
    const n = lines.length - (text.endsWith('\n') ? 1 : 0);
    const back = rec.issues.filter((i) => /time goes back/.test(i.message));
    // Each later copy's first event line, and each copy's header, is named.
    expect(back.map((i) => i.line)).toEqual(
      Array.from({ length: 29 }, (_, k) => (k + 1) * n + firstEvent + 1),
    );
    expect(back[0].message).toMatch(/dropped \(recordings joined\?\)/);
    const headers = rec.issues.filter((i) => /second trace header/.test(i.message));
    expect(headers.map((i) => i.line)).toEqual(
      Array.from({ length: 29 }, (_, k) => (k + 1) * n + 1),
    );
  });

  test('one event stamped 2 s early on its CPU is dropped and named, not a 2 s IPI delivery', () => {
    const i = lines.findIndex((l, k) => k > 100 && /call_function_single_entry:/.test(l));
    const moved = [...lines];
    moved[i] = moved[i].replace(/(\d+)\.(\d{6}):/, (_, s, f) => `${Number(s) - 2}.${f}:`);
    const rec = parseRecording(moved.join('\n'), 'back.trace');
    expect(rec.issues).toEqual([
      expect.objectContaining({
        line: i + 1,
        message: expect.stringMatching(
          /on CPU \d is 1999\.\d+ ms before .*line \d+: time goes back; the event is dropped/,
        ),
      }),
    ]);
    expect(rec.summary.ipi_delivery_ns.max).toBeLessThan(1e6);
  });
});

test('lost events, overwritten buffers and repeated headers are reported at their line', () => {
  const marked = [...lines];
  marked.splice(200, 0, 'CPU:1 [LOST 42 EVENTS]');
  marked.splice(100, 0, '##### CPU 0 buffer started ####');
  marked[2] = '# entries-in-buffer/entries-written: 4543/9000   #P:2';
  const rec = parseRecording(marked.join('\n'), 'lost.trace');
  expect(rec.issues.map((i) => [i.line, i.message])).toEqual([
    [3, expect.stringMatching(/overwritten: 4543 of the 9000 events/)],
    [101, expect.stringMatching(/CPU 0's buffer starts here/)],
    [202, expect.stringMatching(/CPU 1 lost 42 events/)],
  ]);
  expect(rec.summary.tlb_flush).toBe(clean.summary.tlb_flush);
});

test('timestamps with more digits than a double holds are named, not read as 0 ns apart', () => {
  const big = [...lines];
  const i = firstEvent + 10;
  big[i] = big[i].replace(/\d+\.(\d{6}):/, '98765432109876543.$1:');
  const rec = parseRecording(big.join('\n'), 'big.trace');
  expect(rec.issues).toEqual([
    expect.objectContaining({ line: i + 1, message: expect.stringMatching(/beyond 2\^53/) }),
  ]);
});

describe('over-long lines', () => {
  test('a 10 MB line is named with its number and shown clipped, the rest read', () => {
    const long = [...lines];
    const i = firstEvent + 5;
    long.splice(i, 0, `${long[i]} ${'x'.repeat(10e6)}`);
    const rec = parseRecording(long.join('\n'), 'long.trace');
    expect(rec.issues).toHaveLength(1);
    expect(rec.issues[0].line).toBe(i + 1);
    expect(rec.issues[0].message).toContain(`longer than ${MAX_LINE} characters`);
    expect(rec.issues[0].excerpt).toHaveLength(EXCERPT_CHARS);
    expect(rec.issues[0].excerpt.endsWith('…')).toBe(true);
    expect(rec.summary.tlb_flush).toBe(clean.summary.tlb_flush);
    const report = formatRecording(rec);
    expect(Math.max(...report.split('\n').map((l) => l.length))).toBeLessThan(400);
  });

  test('a 100 MB line fed in 1 MB chunks is skipped without holding it', () => {
    const p = new RecordingParser('huge.trace');
    p.push(lines.slice(0, firstEvent + 3).join('\n') + '\n');
    const mb = 'y'.repeat(1 << 20);
    for (let k = 0; k < 100; k++) p.push(mb);
    p.push(`\n${lines.slice(firstEvent + 3).join('\n')}`);
    const rec = p.finish();
    expect(rec.issues.map((i) => i.line)).toEqual([firstEvent + 4]);
    expect(rec.summary.tlb_flush).toBe(clean.summary.tlb_flush);
    expect(rec.lines).toBe(clean.lines + 1);
  });

  test('an over-long first line does not upset format detection', () => {
    const rec = parseRecording(`${'z'.repeat(MAX_LINE + 1)}\n${text}`, 'first.trace');
    expect(rec.format).toBe('tracefs');
    expect(rec.issues.map((i) => i.line)).toEqual([1]);
    expect(rec.summary.tlb_flush).toBe(clean.summary.tlb_flush);
  });
});

describe('chunking', () => {
  // The worker feeds a file in slices, which may be small and split lines anywhere.
  const long = `# ${'x'.repeat(MAX_LINE - 10)}`;
  const part = [...lines.slice(0, firstEvent + 300), long, ...lines.slice(firstEvent + 300, 900)];
  const whole = part.join('\n');

  test('text fed one character at a time reads as fed whole, each character looked at once', () => {
    const p = new RecordingParser(name);
    for (const c of whole) p.push(c);
    const rec = p.finish();
    expect(rec.summary).toEqual(parseRecording(whole, name).summary);
    expect(rec.lines).toBe(part.length);
    // Searching the carried start of a line again at every chunk looked at each character as
    // many times as its line had characters after it: 14.6 million looks for these 106,527.
    expect(p.charsScanned).toBeLessThanOrEqual(whole.length);
  });

  test('an over-long line fed in small chunks is named once, and what follows is read', () => {
    const over = [...part];
    over.splice(firstEvent + 10, 0, 'z'.repeat(3 * MAX_LINE));
    const joined = over.join('\n');
    const p = new RecordingParser(name);
    for (let k = 0; k < joined.length; k += 7) p.push(joined.slice(k, k + 7));
    const rec = p.finish();
    expect(rec.issues.map((i) => [i.line, i.message])).toEqual([
      [firstEvent + 11, expect.stringContaining(`longer than ${MAX_LINE}`)],
    ]);
    expect(rec.summary.tlb_flush).toBe(parseRecording(whole, name).summary.tlb_flush);
    expect(p.charsScanned).toBeLessThanOrEqual(joined.length);
  });
});
