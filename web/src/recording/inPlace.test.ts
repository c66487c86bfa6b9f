// The parser reads most tracefs lines where they lie in their chunk (parse.ts readInPlace). A
// line that arrives alone, joined to the carried start of a line, takes the copying path every
// line took before: feeding a text line by line reads it that way throughout, and is held here
// as the reference the in-place reading must equal, field for field, issue for issue.
import { readFileSync, readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { tracefsChunks } from '../../../bench/gen-tracefs.mjs';
import { RecordingParser, type Recording } from './parse';

const dir = new URL('../../../tests/fixtures/recordings/', import.meta.url);

/** The recording, or the error's message: bad input must fail the same way on both paths. */
function read(feed: (p: RecordingParser) => void): Recording | string {
  const p = new RecordingParser('x');
  try {
    feed(p);
    return p.finish();
  } catch (e) {
    return String(e);
  }
}

const inPlace = (text: string, chunk = 1 << 20) =>
  read((p) => {
    for (let i = 0; i < text.length; i += chunk) p.push(text.slice(i, i + chunk));
  });

const lineByLine = (text: string) =>
  read((p) => {
    const lines = text.split('\n');
    lines.forEach((l, i) => p.push(i < lines.length - 1 ? `${l}\n` : l));
  });

function same(text: string, chunk?: number) {
  const a = inPlace(text, chunk);
  const b = lineByLine(text);
  expect(a).toEqual(b);
  return a;
}

test('every fixture reads the same in place as line by line', () => {
  for (const f of readdirSync(dir).filter((f) => !f.endsWith('.json'))) {
    const r = same(readFileSync(new URL(f, dir), 'utf8'));
    expect(typeof r === 'object' ? r.columns.time.length : r, f).toBeGreaterThan(0);
  }
});

const generated = [...tracefsChunks(3300, 8)].join('');

test('the generated recording reads the same in place, in any chunking', () => {
  const r = same(generated);
  expect(typeof r === 'object' && r.summary.tlb_flush).toBeGreaterThan(800);
  same(generated, 4099);
  same(generated, 97);
});

test('lines the walk must leave to the pattern, or to the markers, read the same in place', () => {
  const lines = generated.split('\n');
  const odd = [
    // Commands that start as a marker does, or hold what the walk gives up on.
    '        cc1-2001    [001] d.h..  1000.000100: tlb_flush: pages:1 reason:remote shootdown (1)',
    'cpus=8',
    '  caf\u00e9-2002    [002] d.h..  1000.000101: tlb_flush: pages:1 reason:remote shootdown (1)',
    '  x [y]-2003    [002] d.h..  1000.000102: tlb_flush: pages:1 reason:remote shootdown (1)',
    '  bash-2004   ( 2004) [003] d..2.  1000.000103: tlb_flush: pages:2 reason:local shootdown (2)',
    '  bash-2004 [003] 1000.000104: tlb_flush: pages:3 reason:local shootdown (2)',
    '  bash-2004 [003] 1000.000105: tlb_flush: pages:3 reason:local shootdown (2) [x]',
    '  bash-2004 [003] d..2.  1000.000106: tlb_flush',
    '# a comment in the middle',
    '  bash-2004 [003] d..2.  999.000107: tlb_flush: pages:3 reason:local shootdown (2)',
    `  bash-2004 [003] d..2.  1000.000108: tlb_flush: pages:3 ${'x'.repeat(5000)}`,
    '',
    '   <idle>-0       [000] dNh1.  1000.000109: some_other_event: a=1',
  ];
  const mixed = [...lines.slice(0, 400)];
  odd.forEach((l, k) => mixed.splice(300 + k * 7, 0, l));
  mixed.push(...lines.slice(400));
  same(mixed.join('\n'));
  same(mixed.join('\n'), 513);
  // A chunk with a \r or a lost-events notice is read line by line: the rest are in place.
  same(mixed.join('\r\n'));
  same([...mixed.slice(0, 500), 'CPU:3 [LOST 12 EVENTS]', ...mixed.slice(500)].join('\n'));
  // Joined recordings: a second header, time going back.
  same(generated + generated);
});
