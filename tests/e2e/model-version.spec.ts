// Links carry the simulator model's version (`model=`): every link the page makes says which
// model drew it, and a link of another version opens with a notice of what changed for its view
// instead of showing today's numbers silently.
import { MODEL_CHANGES, MODEL_VERSION } from '../../web/src/app/modelVersion';
import { expect, test } from './fixtures';

const changeOf = (v: number) => MODEL_CHANGES.find((c) => c.version === v)?.changed ?? '';

test('a link of this model version opens with no notice, and every link says the version', async ({
  sim,
}) => {
  await sim.page.goto(`./?model=${MODEL_VERSION}&scenario=x86-munmap-shootdown&seed=3`);
  await sim.waitForIdle();
  await expect(sim.page.locator('.timeline')).toHaveCount(1);
  await expect(sim.page.getByRole('status', { name: 'Model version' })).toHaveCount(0);
  // A new place (another seed) is a new entry whose address holds the version too.
  await sim.page.goto('./?scenario=x86-munmap-shootdown');
  await sim.waitForIdle();
  await expect(sim.page).toHaveURL(new RegExp(`[?&]model=${MODEL_VERSION}(&|$)`));
  await expect(sim.page.getByRole('status', { name: 'Model version' })).toHaveCount(0);
  // The header's links too; the bare landing page (the Guide) opens today's tour either way.
  const views = sim.page.getByRole('navigation', { name: 'Views' });
  for (const name of ['Explorer', 'Measured data']) {
    await expect(views.getByRole('link', { name })).toHaveAttribute(
      'href',
      new RegExp(`^\\?model=${MODEL_VERSION}&`),
    );
  }
  expect(sim.consoleErrors).toEqual([]);
});

test('a link of an older model names what changed for its view since, and can be dismissed', async ({
  sim,
}) => {
  const from = MODEL_VERSION - 1;
  await sim.page.goto(`./?model=${from}&scenario=x86-munmap-shootdown`);
  await sim.waitForIdle();
  const notice = sim.page.getByRole('status', { name: 'Model version' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(
    `This link was made with model version ${from}; this site runs version ${MODEL_VERSION}.`,
  );
  await expect(notice).toContainText(`Version ${MODEL_VERSION}: ${changeOf(MODEL_VERSION)}`);
  // The page draws today's model, and its own address is now of today's model.
  await expect(sim.page.locator('.timeline')).toHaveCount(1);
  await expect(sim.page).toHaveURL(new RegExp(`[?&]model=${MODEL_VERSION}(&|$)`));
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});

test('a guided step of model 2 lists only the changes that move the guide', async ({ sim }) => {
  await sim.page.goto('./?model=2&scenario=x86-munmap-shootdown&step=2');
  await sim.waitForIdle();
  const notice = sim.page.getByRole('status', { name: 'Model version' });
  await expect(notice).toContainText(`Version 4: ${changeOf(4)}`);
  // Version 3 moved the will-it-scale scenarios only: counted, not listed.
  await expect(notice).not.toContainText(changeOf(3));
  await expect(notice).toContainText('One other change moved other views only.');
});
