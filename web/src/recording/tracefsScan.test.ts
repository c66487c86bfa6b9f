// The index reader (tracefsScan.ts) must read every line it reads exactly as the pattern does:
// on the recordings in tests/fixtures, on the benchmark generator's lines, and on lines made of
// the characters each part of the pattern turns on (blanks of every kind, brackets, dashes,
// digits, line separators), where a walk that guessed instead of giving up would differ.
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { tracefsChunks } from '../../../bench/gen-tracefs.mjs';
import { isPlain, parseTracefsLine, readByPattern } from './tracefs';
import { scanTracefsLine } from './tracefsScan';

const dir = 'tests/fixtures/recordings';

/** Lines the index reader read, after checking each against the pattern's reading. */
function agree(lines: string[]): number {
  let read = 0;
  lines.forEach((l, i) => {
    if (!isPlain(l) || l.startsWith('#')) return;
    const e = scanTracefsLine(l, i + 1);
    if (!e) return;
    read++;
    expect({ line: l, read: e }).toEqual({ line: l, read: readByPattern(l, i + 1) });
  });
  return read;
}

test('the fixtures read the same by index as by pattern', () => {
  for (const f of readdirSync(dir).filter((f) => !f.endsWith('.json'))) {
    const lines = readFileSync(resolve(dir, f), 'utf8').split(/\r?\n/);
    const read = agree(lines);
    if (f.endsWith('.trace') && !f.includes('latency')) expect(read, f).toBeGreaterThan(10);
  }
});

test('the generated recording is read by index, line for line as the pattern reads it', () => {
  const text = [...tracefsChunks(2200, 8)].join('');
  const events = text.split('\n').filter((l) => l && !l.startsWith('#'));
  expect(events.length).toBeGreaterThanOrEqual(2200);
  expect(agree(events)).toBe(events.length);
});

test('the optional columns (tgid, flags) and their absence read the same', () => {
  const lines = [
    '  bash-19410   [000] d..2.  1341.012592: tlb_flush: pages:1 reason:local MM shootdown (3)',
    // Lines that start as the one before but read differently from there.
    '  bash-19410   [000] d..2.   1341.5: e: a longer run of blanks',
    '  bash-19410   [000] d..2.  \u00a01341.5: e: a blank past ASCII',
    '  bash-19410   [000] d..2.  1341.5: e: a second [',
    '  bash-19410   [000] d..2.  1341.5: e: x-1 [2] ..... 3.5: f: a second line in the body',
    '  bash-19410   [000] d..2.  1341.5: e: the same head again',
    '  bash-19410   [000] d..2.  1341.5:e: no blank after the timestamp',
    '  bash-19410   [000] d..2.  1341.1234567890: e: ten decimals',
    '  bash-19410   ( 19410) [000] d..2.  1341.012592: tlb_flush: pages:1 reason:x (3)',
    '  bash-19410   (-------) [000] d..2.  1341.012592: tlb_flush: x',
    '  bash-19410 [000] 1341.012592: tlb_flush: pages:1',
    '  bash-19410 [000] 1.23: 1341.012592: tlb_flush: pages:1',
    '  bash-19410 [000] 1.23: ev:  body',
    '  bash-19410 [000] d..2 1.23: ev:\tbody',
    '  bash-19410 [000] d]2. 1.23: ev: body',
    '  ba-sh-1-2 [003] d..2. 1.5: ev: x-1 ] y',
    '  ba sh-12 [003] ....... 1.5: ev: ',
    '  bash-12 [003] .... 1.5: ev:',
    '  bash-12 [003] .... 1.5:ev: x',
    '-1 [3] .... 1.5: ev: x',
    'a-1 [3] .... 1.5: e.v-1: x',
    'a-1 [3] .... 1234567890123456.5: e: x',
    'a-1 [3] .... 1.1234567891: e: x',
    'a-12345678901234567890 [3] .... 1.1: e: x',
    'a-1 [3]\t....\t1.1:\te:\tx',
  ];
  expect(agree(lines)).toBeGreaterThan(12);
});

test('lines made of the characters the pattern turns on read the same (seeded)', () => {
  let seed = 35;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const parts = [
    'bash',
    '-',
    '12',
    ' ',
    '\t',
    '[',
    ']',
    '(',
    ')',
    '3',
    '.',
    ':',
    'd..2.',
    'ev',
    'x',
    '\u00a0',
    '\u2028',
    '\ufeff',
    '\u3000',
    '1.5',
    '-1',
    '  ',
    '=',
    'é',
  ];
  const good = '  bash-12 [003] d..2. 1.5: ev: body';
  const lines: string[] = [];
  for (let k = 0; k < 20000; k++) {
    // A good line with a few parts put in, taken out or replaced keeps close to the walk's paths.
    let l = good;
    for (let j = 1 + rand(3); j > 0; j--) {
      const at = rand(l.length + 1);
      const cut = rand(3);
      l = l.slice(0, at) + (rand(3) ? parts[rand(parts.length)] : '') + l.slice(at + cut);
    }
    lines.push(l);
  }
  const read = agree(lines);
  expect(read).toBeGreaterThan(2000);
  // The reader's verdict is the one the import uses.
  lines.slice(0, 2000).forEach((l, i) => {
    expect(parseTracefsLine(l, i + 1)).toEqual(readByPattern(l, i + 1));
  });
});
