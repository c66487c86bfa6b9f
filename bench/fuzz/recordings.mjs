// Recording cases for the fuzzer: excerpts of the real recordings in tests/fixtures/recordings/
// (tracefs, trace_pipe, trace-cmd report, perf script), damaged the ways files in the wild are:
// cut anywhere, two recordings run together, huge lines, timestamps that are not numbers or run
// backwards, stray bytes and line endings, and fed to the parser in chunks that split lines.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = resolve(fileURLToPath(import.meta.url), '../../../tests/fixtures/recordings');
const FIXTURES = readdirSync(DIR)
  .filter((f) => !f.endsWith('.json'))
  .sort()
  .map((f) => ({ name: f, lines: readFileSync(resolve(DIR, f), 'utf8').split('\n') }));

const TIMES = ['nan', '-1.000001', '1e309', '99999999999999999999.999999', '0.', '.5', '', '1:2:3'];
const JUNK = ['\u0000', '\ud800', '\r', '\t', '[', ']', ':', '=', '\u001b[31m', '\u202e', '#', ' '];

/** Some lines of a fixture: its header now and then, then a run of its events. */
function excerpt(r) {
  const f = r.pick(FIXTURES);
  const head = f.lines.findIndex((l) => !l.startsWith('#') && !l.startsWith('cpus='));
  const n = r.int(1, 200);
  const at = r.int(0, Math.max(0, f.lines.length - n));
  const lines = r.chance(0.7) && head > 0 ? f.lines.slice(0, head) : [];
  return { name: f.name, lines: lines.concat(f.lines.slice(at, at + n)) };
}

const digit = (c) => c >= '0' && c <= '9';

/**
 * `line` with its first `digits.digits` replaced by `stamp`, as `line.replace(/\d+\.\d+/, stamp)`
 * but in one pass: that pattern retries at every digit of a run that has no `.` after it, so a
 * line an earlier damage had grown by 125,000 `9`s took 13 s to damage again (case 4293 of
 * seed 1, reported as a 16.9 s case: its time went into making it, not into the parser).
 */
export function restamp(line, stamp) {
  const at = line.search(/\d\.\d/);
  if (at < 0) return line;
  let from = at;
  while (from > 0 && digit(line[from - 1])) from--;
  let to = at + 2;
  while (to < line.length && digit(line[to])) to++;
  return line.slice(0, from) + stamp + line.slice(to);
}

/** One damage to the lines, in place. */
function damage(r, lines) {
  const i = r.int(0, Math.max(0, lines.length - 1));
  const line = lines[i] ?? '';
  switch (r.int(0, 8)) {
    case 0: // cut the line anywhere
      lines[i] = line.slice(0, r.int(0, line.length));
      break;
    case 1: // a timestamp that is not one, or runs backwards
      lines[i] = restamp(line, r.chance(0.5) ? r.pick(TIMES) : String(r.int(0, 100)));
      break;
    case 2: // a huge line
      lines[i] = line + r.pick(['x', ' ', '9', '=', '[000] ']).repeat(r.int(1000, 200_000));
      break;
    case 3: // stray bytes
      lines[i] =
        line.slice(0, r.int(0, line.length)) + r.pick(JUNK) + line.slice(r.int(0, line.length));
      break;
    case 4: // lines dropped or repeated
      if (r.chance(0.5)) lines.splice(i, r.int(1, 20));
      else lines.splice(i, 0, ...Array(r.int(1, 50)).fill(line));
      break;
    case 5: // a CPU number out of range
      lines[i] = line.replace(/\[\d{3}\]/, `[${r.pick(['999', '-01', '4096', 'abc', '65536'])}]`);
      break;
    case 6: // Windows line endings
      lines[i] = `${line}\r`;
      break;
    case 7: // a field's value blown up
      lines[i] = line.replace(/=\S+/, `=${r.pick(['-1', '18446744073709551616', 'nan', ''])}`);
      break;
    default: // shuffled: timestamps out of order
      if (lines.length > 1) {
        const j = r.int(0, lines.length - 1);
        [lines[i], lines[j]] = [lines[j], lines[i]];
      }
  }
}

/** Case text: one excerpt or two run together, damaged; and the chunk sizes it is fed in. */
export function recordingCase(r) {
  const a = excerpt(r);
  const lines = r.chance(0.15) ? a.lines.concat(excerpt(r).lines) : a.lines;
  for (let k = r.int(0, 5); k > 0; k--) damage(r, lines);
  let text = lines.join('\n');
  if (r.chance(0.1)) text = text.slice(0, r.int(0, text.length));
  const chunk = r.chance(0.5) ? text.length + 1 : r.int(1, 4096);
  return {
    name: r.chance(0.9) ? a.name : r.pick(['', 'x\n.trace', '\u001b]0;t\u0007']),
    text,
    chunk,
  };
}
