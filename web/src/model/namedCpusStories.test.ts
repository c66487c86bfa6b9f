// Every step of every guided story, framed as the page frames it (the step's own settings,
// its highlighted rows and lens intervals): no CPU its words name may be folded away.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { extentOf } from './events';
import { highlightRows, stepFrame } from './guide';
import { lensIntervals } from './lens';
import { stepNamedCpus } from './namedCpus';

beforeAll(() => initSimulatorForNode());

const stories = readdirSync(resolve('content/scenarios'))
  .filter((f) => f.endsWith('.toml'))
  .map((f) => f.replace(/\.toml$/, ''))
  .sort()
  .filter((id) => /^\s*\[\[steps\]\]/m.test(readScenario(id)));

describe('a step never folds a CPU it names', () => {
  it('finds the guided stories', () => expect(stories.length).toBeGreaterThanOrEqual(10));

  it.each(stories)('%s', (id) => {
    const toml = readScenario(id);
    const { steps } = runScenario(toml, { overrides: ['max_events=1'] }).info;
    let namedSomewhere = 0;
    steps.forEach((step, i) => {
      const named = stepNamedCpus(step);
      if (named.length === 0) return;
      const { trace, info } = runScenario(toml, { overrides: step.set });
      const extent = extentOf(trace);
      const rows = highlightRows(trace, step, step.window ?? extent);
      const lens = step.lens.length
        ? lensIntervals(trace, step.lens, info.costs.context_switch_ns ?? 0)
        : [];
      const frame = stepFrame(trace, step, rows, extent, lens);
      for (const cpu of named.filter((c) => c < trace.cpus)) {
        namedSomewhere++;
        // An empty list is the whole machine: nothing folded.
        if (frame.cpus.length > 0)
          expect(frame.cpus, `${id} step ${i + 1} names CPU ${cpu}`).toContain(cpu);
      }
    });
    expect(namedSomewhere, `${id}: no step names a CPU of its run`).toBeGreaterThan(0);
  });
});
