// Predict-then-reveal as a choice: a step's `choices` are `"<label> = <measure>"`, the measure
// in the claims grammar (claims.ts), and the run decides which is right: the one whose measure
// is largest (`pick = "max"`, the default) or smallest, or, with `pick = "holds"`, the one whose
// condition the run meets (`"Yes = count(IpiSent, cpu=1) > 0"`, `"2 to 5 µs = dur(IpiWait) >=
// 2 µs and dur(IpiWait) < 5 µs"`), which is how yes/no and "how many" questions become choices.
// The words of the answer say why; the verdict itself is never written down, so it cannot drift
// from what the model does.
import { measureOf, quantityOf, type ClaimRun } from './claims';

export interface ChoiceOption {
  label: string;
  /** The measure whose value is shown (with `holds`, the first condition's measure). */
  measure: string;
  /** The measure's value in the run, or why it has none. */
  value: number | string;
}

export interface Reveal {
  options: ChoiceOption[];
  /** Index of the option the run picks; null when the run cannot decide (see problem). */
  answer: number | null;
  problem: string | null;
  /** How the answer was chosen: the largest/smallest value, or the condition that holds. */
  by: 'value' | 'condition';
}

/** The two fields of a step (sim/scenario.ts `Step`) a choice reads. */
export interface StepChoices {
  choices: readonly string[];
  pick: string | null;
}

type Runs = { A: ClaimRun; B?: ClaimRun };

const OPS: Record<string, (a: number, b: number) => boolean> = {
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b,
  '<=': (a, b) => a <= b,
  '>=': (a, b) => a >= b,
  '<': (a, b) => a < b,
  '>': (a, b) => a > b,
};
const CONDITION = /^(.*?\S)\s*(==|!=|<=|>=|<|>)\s*(\S.*)$/;

interface Condition {
  measure: string;
  value: number | string;
  holds: boolean;
}

/** `"<measure> <op> <number>[ and …]"`: each part's value and whether it holds, or an error. */
function conditionsOf(text: string, runs: Runs): Condition[] | string {
  const out: Condition[] = [];
  for (const part of text.split(/\s+and\s+/)) {
    const m = CONDITION.exec(part.trim());
    if (!m) return `"${part}": expected "<measure> <op> <number or measure>" (op: == != < <= > >=)`;
    const [, measure, op, said] = m;
    // The right side is a number as prose writes it ("5 µs", "0") or another measure
    // (`B.end(IpiWait, cpu=0)`), so "is B faster" needs no number written down.
    const q = /^[\d,.]+\s?(ns|µs|us|ms)?$/.test(said.trim()) ? quantityOf(said) : null;
    const other = q ? q.value : measureOf(said, runs);
    if (typeof other === 'string') return other;
    const value = measureOf(measure, runs);
    if (typeof value === 'string') return value;
    out.push({ measure, value, holds: OPS[op](value, other) });
  }
  return out;
}

function split(c: string): [string, string] {
  const at = c.indexOf(' = ');
  return [c.slice(0, at).trim(), c.slice(at + 3).trim()];
}

function revealHolds(step: StepChoices, runs: Runs): Reveal {
  const options: ChoiceOption[] = [];
  const holding: number[] = [];
  let problem: string | null = null;
  for (const [i, c] of step.choices.entries()) {
    const [label, text] = split(c);
    const conds = conditionsOf(text, runs);
    if (typeof conds === 'string') {
      options.push({ label, measure: text, value: conds });
      problem ??= conds;
      continue;
    }
    options.push({ label, measure: conds[0].measure, value: conds[0].value });
    if (conds.every((k) => k.holds)) holding.push(i);
  }
  if (problem) return { options, answer: null, problem, by: 'condition' };
  if (holding.length !== 1) {
    const which = holding.map((i) => options[i].label).join(', ');
    return {
      by: 'condition',
      options,
      answer: null,
      problem: holding.length
        ? `the run does not decide: ${which} all hold`
        : 'the run does not decide: no option holds',
    };
  }
  return { options, answer: holding[0], problem: null, by: 'condition' };
}

export function revealChoice(step: StepChoices, runs: Runs): Reveal {
  if (step.pick === 'holds') return revealHolds(step, runs);
  const options = step.choices.map((c) => {
    const [label, measure] = split(c);
    return { label, measure, value: measureOf(measure, runs) };
  });
  const bad = options.find((o) => typeof o.value === 'string');
  if (bad) return { options, answer: null, problem: String(bad.value), by: 'value' };
  const values = options.map((o) => o.value as number);
  const best = step.pick === 'min' ? Math.min(...values) : Math.max(...values);
  const winners = values.flatMap((v, i) => (v === best ? [i] : []));
  if (winners.length !== 1) {
    const tied = winners.map((i) => options[i].label).join(', ');
    return { options, answer: null, problem: `the run does not decide: ${tied} tie`, by: 'value' };
  }
  return { options, answer: winners[0], problem: null, by: 'value' };
}

/** Whether a measure reads a time (so its value is shown in ns units). */
export function isTimeMeasure(measure: string): boolean {
  return /^(B\.)?(time|dur|end)\(|_ns\b/.test(measure);
}
