import { expect, test } from 'vitest';
import type { FlushBreakdown, FlushPart } from './flushBreakdown';
import { flushBrackets } from './flushBrackets';

const flush = (path: FlushPart[]): FlushBreakdown => ({
  row: 4,
  cpu: 0,
  start: 1000,
  latency: path.reduce((s, p) => s + (p.ns ?? 0), 0),
  pages: 1,
  targets: [],
  local: null,
  last: 0,
  path,
});

test("a flush's parts lie end to end from its start, each on its CPU", () => {
  const b = flush([
    { name: 'entry', ns: 100, cpu: 0 },
    { name: 'sends', ns: 300, cpu: 3 },
    { name: 'delivery', ns: 900, cpu: 3 },
    { name: 'handler', ns: 200, cpu: 3 },
    { name: 'return', ns: 50, cpu: 0 },
  ]);
  const got = flushBrackets(b).map((iv) => [iv.label, iv.cpu, iv.start, iv.end, iv.level]);
  // The sends are the initiator's, up to the last target's; the parts tile the flush exactly.
  expect(got).toEqual([
    ['entry', 0, 1000, 1100, 0],
    ["sends, up to CPU 3's", 0, 1100, 1400, 0],
    ['delivery → CPU 3', 3, 1400, 2300, 0],
    ['handler on CPU 3', 3, 2300, 2500, 0],
    ['return', 0, 2500, 2550, 0],
  ]);
  expect(got.at(-1)?.[3]).toBe(b.start + b.latency);
});

test('brackets skip empty parts, stop at the first the trace cannot tell, and go below the lens', () => {
  const b = flush([
    { name: 'entry', ns: 100, cpu: 0 },
    { name: 'sends', ns: 0, cpu: 0 },
    { name: 'local', ns: null, cpu: 0 },
    { name: 'delivery', ns: null, cpu: 0 },
  ]);
  const lens = [
    { kind: 'nonpreempt_wait' as const, cpu: 0, start: 0, end: 5000, row: 1, level: 1 },
  ];
  expect(flushBrackets(b, lens).map((iv) => [iv.label, iv.level])).toEqual([['entry', 2]]);
});
