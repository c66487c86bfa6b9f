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
    expect(asked).toBeGreaterThanOrEqual(3);
  });

  it("answers the munmap story's question from the acks: the last one ends the wait", () => {
    const text = readScenario('x86-munmap-shootdown');
    const run = runScenario(text);
    const step = run.info.steps.find((s) => s.choices.length > 0);
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
});
