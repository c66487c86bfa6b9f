// The recordings shipped in content/recordings/: each reads without an unreadable line, says
// where it was recorded, and stays small enough to ship.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { parseRecording } from './parse';

const dir = resolve('content/recordings');
const traces = readdirSync(dir).filter((f) => f.endsWith('.trace'));

test('there is at least one shipped recording', () => {
  expect(traces.length).toBeGreaterThan(0);
});

test.each(traces)(
  '%s reads cleanly and is labelled with machine, kernel, command and date',
  (f) => {
    const path = resolve(dir, f);
    expect(statSync(path).size).toBeLessThan(2 * 1024 * 1024);
    const rec = parseRecording(readFileSync(path, 'utf8'), f);
    expect(rec.issueCount).toBe(0);
    expect(rec.summary.tlb_flush).toBeGreaterThan(0);
    const source = JSON.parse(readFileSync(`${path}.source.json`, 'utf8'));
    for (const k of ['title', 'date', 'machine', 'kernel', 'command', 'recorder', 'format']) {
      expect(typeof source[k], k).toBe('string');
      expect(source[k].length, k).toBeGreaterThan(0);
    }
  },
);
