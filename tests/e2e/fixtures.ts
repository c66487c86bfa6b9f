import { test as base } from '@playwright/test';
import { SimPage } from './sim-page';

export const test = base.extend<{ sim: SimPage }>({
  sim: async ({ page }, use) => {
    const sim = new SimPage(page);
    await use(sim);
  },
});

export { expect } from '@playwright/test';
