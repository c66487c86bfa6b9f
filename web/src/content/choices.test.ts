import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { revealChoice } from './choices';

beforeAll(() => initSimulatorForNode());

const ids = readdirSync(resolve('content/scenarios'))
  .filter((f) => f.endsWith('.toml'))
  .map((f) => f.replace(/\.toml$/, ''));

describe('predict-then-reveal choices', () => {
  it('the run decides every question that offers choices, with one answer', () => {
    let asked = 0;
    for (const id of ids) {
      const text = readScenario(id);
      for (const [i, step] of runScenario(text).info.steps.entries()) {
        if (!step.choices.length) continue;
        const A = runScenario(text, { overrides: step.set });
        const B = step.compare ? runScenario(text, { overrides: step.compare }) : undefined;
        const r = revealChoice(step, { A, B });
        expect(r.problem, `${id} step ${i + 1}`).toBeNull();
        expect(r.answer, `${id} step ${i + 1}`).not.toBeNull();
        asked++;
      }
    }
    expect(asked).toBeGreaterThanOrEqual(15);
  });

  it("answers the munmap story's question from the acks: the last one ends the wait", () => {
    const text = readScenario('x86-munmap-shootdown');
    const run = runScenario(text);
    const step = run.info.steps.find((s) => s.choices.length > 0 && s.pick !== 'holds');
    expect(step).toBeDefined();
    const r = revealChoice(step!, { A: run });
    const times = r.options.map((o) => o.value as number);
    expect(r.options[r.answer!].value).toBe(Math.max(...times));
    // Flipped to "min", the same options give the first ack instead: the run decides, not text.
    const first = revealChoice({ ...step!, pick: 'min' }, { A: run });
    expect(first.options[first.answer!].value).toBe(Math.min(...times));
    expect(first.answer).not.toBe(r.answer);
  });

  it('says so when the run cannot decide (a tie or a measure with no value)', () => {
    const run = runScenario(readScenario('x86-munmap-shootdown'));
    const step = run.info.steps[0];
    const tie = revealChoice(
      { ...step, choices: ['A = cpus', 'B = cpus'], pick: null },
      { A: run },
    );
    expect(tie.answer).toBeNull();
    expect(tie.problem).toContain('tie');
    const none = revealChoice(
      { ...step, choices: ['A = cpus', 'B = B.ipis'], pick: 'min' },
      { A: run },
    );
    expect(none.answer).toBeNull();
    expect(none.problem).toContain('no B run');
  });

  const stepAsking = (id: string, words: string) => {
    const text = readScenario(id);
    const step = runScenario(text).info.steps.find((s) => s.question?.includes(words));
    expect(step, `${id}: "${words}"`).toBeDefined();
    return { text, step: step! };
  };
  const pickedUnder = (id: string, words: string, set: string[]) => {
    const { text, step } = stepAsking(id, words);
    const r = revealChoice(step, { A: runScenario(text, { overrides: set }) });
    expect(r.problem).toBeNull();
    return r.options[r.answer!].label;
  };

  it('answers a yes/no question from the run it is asked of: the verdict follows the design', () => {
    const q = 'What does CPU 2 flush when it finally takes the IPI?';
    // R1: the per-CPU descriptor overwritten by T2, so CPU 2 never flushes A's page ...
    expect(pickedUnder('x86-flush-info-story', q, ['preempt=preemptible_wait'])).toBe(
      'Nothing of mm A',
    );
    // ... while the same question asked of the stack descriptor gets the other answer.
    expect(
      pickedUnder('x86-flush-info-story', q, ['flush_info=stack', 'preempt=preemptible_wait']),
    ).toBe("A's page, as T1 asked");
  });

  it('answers "how many" from the counts: PCID keeps A\'s entries, no PCID loses them all', () => {
    const q = "How many of A's 64 touches miss the TLB?";
    expect(pickedUnder('x86-pcid-pingpong', q, [])).toBe('None');
    expect(pickedUnder('x86-pcid-pingpong', q, ['pcid=off'])).toBe('All 64');
  });

  it('compares A with B when a condition names B. (the 2026 design does not end the flush sooner)', () => {
    const { text, step } = stepAsking('x86-flush-info-story', 'finish any sooner');
    const A = runScenario(text, { overrides: step.set });
    const B = runScenario(text, { overrides: step.compare! });
    const r = revealChoice(step, { A, B });
    expect(r.options[r.answer!].label).toBe('At the same time');
    // Swapping the sides keeps the verdict: the two runs end T1's flush at one instant.
    expect(revealChoice(step, { A: B, B: A }).answer).toBe(r.answer);
  });

  it('says which condition is wrong, or that no option or several hold', () => {
    const run = runScenario(readScenario('x86-munmap-shootdown'));
    const step = { choices: [] as string[], pick: 'holds' };
    const bad = revealChoice(
      { ...step, choices: ['Yes = ipis ~ 3', 'No = ipis == 0'] },
      { A: run },
    );
    expect(bad.answer).toBeNull();
    expect(bad.problem).toContain('"ipis ~ 3"');
    const none = revealChoice(
      { ...step, choices: ['Yes = ipis > 1000', 'No = ipis == 0'] },
      { A: run },
    );
    expect(none.problem).toContain('no option holds');
    const both = revealChoice(
      { ...step, choices: ['Yes = ipis > 0', 'Also = cpus > 1'] },
      { A: run },
    );
    expect(both.problem).toContain('Yes, Also all hold');
    const unit = revealChoice(
      {
        ...step,
        choices: ['Short = dur(IpiWait, cpu=0) < 1 µs', 'Long = dur(IpiWait, cpu=0) >= 1 µs'],
      },
      { A: run },
    );
    expect(unit.options[unit.answer!].label).toBe(
      (unit.options[0].value as number) < 1000 ? 'Short' : 'Long',
    );
  });
});
