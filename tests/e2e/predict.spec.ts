// Predict, then reveal: the reader commits to one option, by keyboard as well as by pointer,
// and only then sees the run's answer, which is the one the run's own numbers decide.
import { revealChoice } from '../../web/src/content/choices';
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { expect, test } from './fixtures';

initSimulatorForNode();

test('a question with choices is answered by the run after the reader picks', async ({ sim }) => {
  const text = readScenario('x86-munmap-shootdown');
  const run = runScenario(text);
  const index = run.info.steps.findIndex((s) => s.choices.length > 0 && s.pick !== 'holds');
  const step = run.info.steps[index];
  const { options, answer } = revealChoice(step, { A: runScenario(text, { overrides: step.set }) });
  expect(answer).not.toBeNull();
  const wrong = options.findIndex((_, i) => i !== answer);

  await sim.open({ scenario: 'x86-munmap-shootdown', step: index + 1 });
  const group = sim.page.getByRole('group', { name: step.question ?? '' });
  await expect(group).toBeVisible();
  await expect(sim.page.locator('.narration details')).toHaveCount(0);
  await expect(group.getByRole('button')).toHaveCount(options.length);
  // Nothing is revealed before the reader commits.
  await expect(group.locator('.reveal')).toHaveCount(0);

  // By keyboard: focus the wrong option and press Enter.
  await group.getByRole('button', { name: options[wrong].label }).focus();
  await sim.page.keyboard.press('Enter');
  await expect(group.locator('.reveal')).toContainText('Not this time.');
  await expect(group.locator('[data-answer]')).toHaveText(options[answer!].label);
  await expect(group.getByRole('button', { name: options[wrong].label })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // The pick is final for this visit; the step's own words say why.
  await expect(group.getByRole('button', { name: options[answer!].label })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await group.getByRole('button', { name: options[answer!].label }).focus();
  await sim.page.keyboard.press('Enter');
  await expect(group.locator('.reveal')).toContainText('Not this time.');
  await expect(group.locator('.reveal')).toContainText('slowest target');

  // Back on the step, a fresh question; the right pick says so.
  await sim.page.reload();
  await sim.waitForIdle();
  await sim.page
    .getByRole('group', { name: step.question ?? '' })
    .getByRole('button', { name: options[answer!].label })
    .click();
  await expect(sim.page.locator('.predict .reveal')).toContainText('Right.');
  expect(sim.consoleErrors).toEqual([]);
});

test('a yes/no question is a choice too: the run says which condition holds, and shows its count', async ({
  sim,
}) => {
  const text = readScenario('x86-lazy-tlb');
  const run = runScenario(text);
  const index = run.info.steps.findIndex((s) => s.question?.includes('Does it get an IPI?'));
  const step = run.info.steps[index];
  expect(step.pick).toBe('holds');
  const reveal = revealChoice(step, { A: runScenario(text, { overrides: step.set }) });
  expect(reveal.answer).not.toBeNull();
  const right = reveal.options[reveal.answer!];

  await sim.open({ scenario: 'x86-lazy-tlb', step: index + 1 });
  const group = sim.page.getByRole('group', { name: step.question ?? '' });
  await expect(group.getByRole('button')).toHaveCount(reveal.options.length);
  await group.getByRole('button', { name: right.label, exact: true }).click();
  await expect(group.locator('.reveal')).toContainText('Right.');
  await expect(group.locator('[data-answer]')).toHaveText(right.label);
  // The count that decided it is on the page, once, as the run measured it.
  const measured = group.locator('.reveal .measured code');
  await expect(measured).toHaveCount(1);
  await expect(measured).toHaveText(right.measure);
  await expect(group.locator('.reveal .measured')).toContainText(`= ${right.value}`);
  expect(sim.consoleErrors).toEqual([]);
});
