// The only way tests talk to the app: open a scenario, wait until the run and its rendering
// are done, and read what the user sees.
import { expect, type Locator, type Page } from '@playwright/test';

export class SimPage {
  readonly consoleErrors: string[] = [];

  constructor(readonly page: Page) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => this.consoleErrors.push(e.message));
  }

  async open(params: { scenario?: string; seed?: number; set?: string[] } = {}): Promise<void> {
    const q = new URLSearchParams();
    if (params.scenario) q.set('scenario', params.scenario);
    if (params.seed !== undefined) q.set('seed', String(params.seed));
    for (const s of params.set ?? []) q.append('set', s);
    await this.page.goto(q.size ? `./?${q}` : './');
    await this.waitForIdle();
  }

  async waitForIdle(): Promise<void> {
    await expect(this.page.locator('.app')).toHaveAttribute('data-state', 'idle', {
      timeout: 15_000,
    });
  }

  marks(kind: string): Locator {
    return this.page.locator(`.timeline svg [data-kind="${kind}"]`);
  }

  lanes(): Locator {
    return this.page.locator('.timeline svg g.lane');
  }
}
