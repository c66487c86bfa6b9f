// Predict-then-reveal as a choice: a step's `choices` are `"<label> = <measure>"`, the measure
// in the claims grammar (claims.ts), and the run decides which is right: the one whose measure
// is largest (`pick = "max"`, the default) or smallest. The words of the answer say why; the
// verdict itself is never written down, so it cannot drift from what the model does.
import { measureOf, type ClaimRun } from './claims';

export interface ChoiceOption {
  label: string;
  measure: string;
  /** The measure's value in the run, or why it has none. */
  value: number | string;
}

export interface Reveal {
  options: ChoiceOption[];
  /** Index of the option the run picks; null when the run cannot decide (see problem). */
  answer: number | null;
  problem: string | null;
}

/** The two fields of a step (sim/scenario.ts `Step`) a choice reads. */
export interface StepChoices {
  choices: readonly string[];
  pick: string | null;
}

export function revealChoice(step: StepChoices, runs: { A: ClaimRun; B?: ClaimRun }): Reveal {
  const options = step.choices.map((c) => {
    const at = c.indexOf(' = ');
    const [label, measure] = [c.slice(0, at).trim(), c.slice(at + 3).trim()];
    return { label, measure, value: measureOf(measure, runs) };
  });
  const bad = options.find((o) => typeof o.value === 'string');
  if (bad) return { options, answer: null, problem: String(bad.value) };
  const values = options.map((o) => o.value as number);
  const best = step.pick === 'min' ? Math.min(...values) : Math.max(...values);
  const winners = values.flatMap((v, i) => (v === best ? [i] : []));
  if (winners.length !== 1) {
    const tied = winners.map((i) => options[i].label).join(', ');
    return { options, answer: null, problem: `the run does not decide: ${tied} tie` };
  }
  return { options, answer: winners[0], problem: null };
}

/** Whether a measure reads a time (so its value is shown in ns units). */
export function isTimeMeasure(measure: string): boolean {
  return /^(B\.)?(time|dur|end)\(|_ns\b/.test(measure);
}
