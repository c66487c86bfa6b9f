// The CPUs a guided step's words name ("CPU 7", "CPUs 1-3", "CPUs 1 to 5", "CPU 1 and 2",
// "CPU 6 and CPU 0"), so that its frame never folds a lane the reader is told to look at. Pure.
import type { Step } from '../sim/scenario';

// "CPU" or "CPUs", a number, then any run of ", N", "and N", "or N", "to N", "-N", "–N"
// (each optionally repeating "CPU"). A connective without a number after it ("switches CPU 1
// to its idle task") ends the list.
const LIST =
  /\bCPUs?\s+(\d+)((?:\s*(?:,|,?\s+and|,?\s+or|\s+to|\s+through|\s*[-–])\s*(?:CPUs?\s+)?\d+)*)/g;
const ITEM = /(,|and|or|to|through|[-–])\s*(?:CPUs?\s+)?(\d+)/g;
/** A range wider than this is a misreading (a year, a count), not a list of lanes. */
const MAX_RANGE = 4096;

/** The CPU numbers `text` names, ascending and distinct. */
export function namedCpus(text: string): number[] {
  const out = new Set<number>();
  for (const m of text.matchAll(LIST)) {
    let prev = Number(m[1]);
    out.add(prev);
    for (const it of (m[2] ?? '').matchAll(ITEM)) {
      const n = Number(it[2]);
      const range = it[1] === 'to' || it[1] === 'through' || it[1] === '-' || it[1] === '–';
      if (range && n > prev && n - prev <= MAX_RANGE) for (let c = prev + 1; c < n; c++) out.add(c);
      out.add(n);
      prev = n;
    }
  }
  return [...out].sort((a, b) => a - b);
}

/** The CPUs a step's title, narration, question and answer name. */
export function stepNamedCpus(
  step: Pick<Step, 'title' | 'text' | 'question' | 'answer'>,
): number[] {
  return namedCpus([step.title, step.text, step.question ?? '', step.answer ?? ''].join('\n'));
}
