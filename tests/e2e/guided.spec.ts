// Every guided scenario, every step: the page shows the step and emphasises the marks the step
// names. The list of steps comes from the scenario files themselves (parsed by the same WASM
// build in Node), so a new file or step adds coverage without new test code.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Simulator } from '../../sim-wasm/pkg/tlbscope_sim.js';
import { highlightRows } from '../../web/src/model/guide';
import { extentOf } from '../../web/src/model/events';
import type { Step } from '../../web/src/sim/scenario';
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode } from '../../web/src/sim/testing';
import { EventKind } from '../../web/src/trace/trace';
import { expect, test } from './fixtures';

initSimulatorForNode();
const dir = resolve('content/scenarios');
const guided = readdirSync(dir)
  .filter((f) => f.endsWith('.toml'))
  .map((f) => {
    const text = readFileSync(resolve(dir, f), 'utf8');
    const sim = new Simulator(text, [], 1);
    const info = {
      id: f.replace(/\.toml$/, ''),
      text,
      guide: sim.guide,
      steps: JSON.parse(sim.stepsJson()) as Step[],
    };
    sim.free();
    return info;
  })
  .filter((s) => s.steps.length > 0)
  .sort((a, b) => a.guide - b.guide);

test('the scenario files hold a guided tour', () => {
  expect(guided.length).toBeGreaterThan(0);
});

for (const scenario of guided) {
  test(`${scenario.id}: every step shows its narration and highlights its marks`, async ({
    sim,
  }) => {
    test.setTimeout(30_000 + scenario.steps.length * 15_000);
    for (const [i, step] of scenario.steps.entries()) {
      await sim.open({ scenario: scenario.id, step: i + 1 });
      await expect(sim.page.locator('[data-step-title]')).toHaveText(step.title);
      await expect(sim.page.locator('.narration [role="alert"]')).toHaveCount(0);
      if (step.compare) await expect(sim.page.locator('.timeline')).toHaveCount(2);
      if (step.highlight.length) {
        const { trace } = runScenario(scenario.text, { overrides: step.set });
        const rows = highlightRows(
          trace,
          step,
          step.window ? [step.window[0], step.window[1]] : extentOf(trace),
        );
        for (const name of step.highlight) {
          const row = rows.find((r) => trace.kind[r] === EventKind[name as keyof typeof EventKind]);
          expect(row, `${scenario.id} step ${i + 1}: a ${name} row to highlight`).toBeDefined();
          await expect(
            sim.page.locator(`.timeline rect.highlight-outline[data-row="${row}"]`).first(),
          ).toBeAttached();
        }
      }
    }
    expect(sim.consoleErrors).toEqual([]);
  });
}

test('the landing page lists the guided tour in order, each with a preview', async ({ sim }) => {
  await sim.openHome();
  const cards = sim.page.locator('.cards .card');
  await expect(cards).toHaveCount(guided.length);
  for (const [i, s] of guided.entries()) {
    await expect(cards.nth(i)).toHaveAttribute('data-scenario', s.id);
  }
  await expect(cards.first().locator('svg.preview rect.span').first()).toBeAttached({
    timeout: 15_000,
  });
  await cards.first().getByRole('link').click();
  await sim.waitForIdle();
  await expect(sim.page).toHaveURL(new RegExp(`scenario=${guided[0].id}&step=1`));
  await expect(sim.page.locator('[data-step-title]')).toHaveText(guided[0].steps[0].title);
});

test('arrow keys walk the steps and the last one leads to the free sandbox', async ({ sim }) => {
  const s = guided[0];
  await sim.open({ scenario: s.id, step: s.steps.length });
  await sim.page.keyboard.press('ArrowLeft');
  await sim.waitForIdle();
  await expect(sim.page.locator('[data-step-title]')).toHaveText(
    s.steps[s.steps.length - 2]?.title ?? s.steps[0].title,
  );
  await sim.page.keyboard.press('ArrowRight');
  await sim.waitForIdle();
  await expect(sim.page.locator('[data-step-title]')).toHaveText(s.steps[s.steps.length - 1].title);
  await sim.page.keyboard.press('ArrowRight');
  await sim.waitForIdle();
  await expect(sim.page.locator('.narration')).toHaveCount(0);
  await expect(sim.page.getByRole('button', { name: /Start the guided steps/ })).toBeVisible();
});

test('a scenario file with an error is reported with the file, line and field', async ({ sim }) => {
  await sim.open();
  await sim.page.setInputFiles(
    '#scenario-file-input',
    resolve('tests/fixtures/broken-scenario.toml'),
  );
  await sim.waitForIdle();
  await expect(sim.page.getByRole('alert')).toContainText(
    'broken-scenario.toml: line 6: flushs: unknown field `flushs`',
  );
  await expect(sim.page.locator('header h1')).toHaveText('tlbscope');
});

test('a step pointing past the end of its run is reported with the line and field', async ({
  sim,
}) => {
  await sim.open();
  await sim.page.setInputFiles(
    '#scenario-file-input',
    resolve('tests/fixtures/step-past-end.toml'),
  );
  await sim.waitForIdle();
  await sim.page.getByRole('button', { name: /Start the guided steps/ }).click();
  await sim.waitForIdle();
  await expect(sim.page.locator('.narration [role="alert"]')).toContainText(
    'step-past-end.toml: line 7: steps[0].window: ends at 900000000 ns, after the run ends at',
  );
});

test('the help says what ← / → do: walk the steps in guided mode, pan on the timeline', async ({
  sim,
}) => {
  const s = guided[0];
  await sim.open({ scenario: s.id, step: 1 });
  await sim.page.keyboard.press('?');
  const help = sim.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(
    help.getByRole('row', { name: /^← \/ → previous \/ next guided step/ }),
  ).toBeVisible();
  await expect(help.getByRole('row', { name: /on the timeline pan left \/ right/ })).toBeVisible();
  await sim.page.keyboard.press('Escape');
  // And they do: → walks to step 2; on the focused timeline → pans and stays on the step.
  await sim.page.keyboard.press('ArrowRight');
  await sim.waitForIdle();
  await expect(sim.page.locator('.step-count')).toHaveText(`Step 2 of ${s.steps.length}`);
  const before = new URL(sim.page.url()).searchParams.get('step');
  await sim.page.locator('.timeline').first().focus();
  await sim.page.keyboard.press('ArrowRight');
  await expect(sim.page.locator('.step-count')).toHaveText(`Step 2 of ${s.steps.length}`);
  expect(new URL(sim.page.url()).searchParams.get('step')).toBe(before);
  // Outside guided mode the arrows only pan, and the help says just that.
  await sim.open({ scenario: s.id });
  await sim.page.keyboard.press('?');
  await expect(help.getByRole('row', { name: /guided step \(after/ })).toHaveCount(0);
  await expect(help.getByRole('row', { name: /^A \/ D or ← \/ → pan/ })).toBeVisible();
});
