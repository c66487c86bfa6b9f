import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind } from '../trace/trace';
import { asidLabels, namesAsids } from './asidLabels';
import { highlightRows } from './guide';

beforeAll(() => initSimulatorForNode());

const step = (text: string) => ({ title: '', text, question: null });

describe('namesAsids', () => {
  it('is true for words that follow ASID or slot numbers, not for a mere mention', () => {
    expect(namesAsids(step('Follow the `asid` of each `SwitchMm`'))).toBe(true);
    expect(namesAsids(step('the first seven processes get ASIDs 1 to 7'))).toBe(true);
    expect(namesAsids(step('the newcomers get slots 3, 4, 5'))).toBe(true);
    expect(namesAsids(step('the generation its PCID slot records (1)'))).toBe(false);
    expect(namesAsids(step('one IPI per target'))).toBe(false);
  });
});

describe('asidLabels', () => {
  it("labels the PCID story's highlighted switches with the slots its words list", () => {
    const run = runScenario(readScenario('x86-pcid-pingpong'));
    const s = run.info.steps[3];
    expect(namesAsids(s)).toBe(true);
    const rows = highlightRows(run.trace, s, s.window ?? [0, Infinity]);
    const labels = asidLabels(run.trace, rows);
    expect(labels.length).toBeGreaterThan(0);
    for (const l of labels) expect(run.trace.kind[l.row]).toBe(EventKind.SwitchMm);
    const slots = new Set(labels.map((l) => l.text));
    for (const n of [0, 1, 3, 4, 5]) expect(slots).toContain(`asid ${n}`);
  });
});
