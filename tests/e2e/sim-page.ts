// The only way tests talk to the app: open a scenario, wait until the run and its rendering
// are done, and read what the user sees.
import { expect, test, type Locator, type Page } from '@playwright/test';

export class SimPage {
  readonly consoleErrors: string[] = [];

  constructor(readonly page: Page) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => this.consoleErrors.push(e.message));
  }

  async open(
    params: { scenario?: string; step?: number; seed?: number; set?: string[] } = {},
  ): Promise<void> {
    const q = new URLSearchParams();
    // The explorer opens on a scenario; the bare URL is the landing page (see openHome).
    q.set('scenario', params.scenario ?? 'x86-munmap-shootdown');
    if (params.step !== undefined) q.set('step', String(params.step));
    if (params.seed !== undefined) q.set('seed', String(params.seed));
    for (const s of params.set ?? []) q.append('set', s);
    await this.page.goto(`./?${q}`);
    await this.waitForIdle();
  }

  /** Opens the landing page and waits until the scenario list is there. */
  async openHome(): Promise<void> {
    await this.page.goto('./');
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

  // --- Data view (?view=data) ---

  /** Opens the Data view and waits until the model's predictions are drawn. */
  async openData(): Promise<void> {
    // Idle once every shipped measurement has its prediction: the thread sweeps up to 55
    // threads take several seconds of the simulator worker, more with other tests beside, so a
    // test that opens the view (some do twice) gets the time for it.
    test.info().setTimeout(Math.max(test.info().timeout, 120_000));
    await this.page.goto('./?view=data');
    await expect(this.page.locator('.data-view')).toHaveAttribute('data-state', 'idle', {
      timeout: 60_000,
    });
    // Then the bands, two more runs for each prediction: the charts are redrawn as they come,
    // so a test that measures a mark waits for them.
    test.info().setTimeout(test.info().timeout + 120_000);
    await expect(this.page.locator('.data-view')).toHaveAttribute('data-bands', 'done', {
      timeout: 120_000,
    });
  }

  /** The Data view's chart of one (benchmark, metric) pair. */
  chart(benchmark: string, metric: string): Locator {
    return this.page.locator(
      `.overlay-chart[data-benchmark="${benchmark}"][data-metric="${metric}"]`,
    );
  }

  /** Opens a kernel recording (a path) with the explorer's recording input, and waits until it is loaded. */
  async loadRecording(path: string): Promise<void> {
    await this.page.setInputFiles('#recording-input', path);
    await expect(this.page.getByTestId('recording-loaded')).toBeVisible();
  }

  /** Picks a file (a path, or bytes with a name) with the import panel's file picker. */
  async importCsv(file: string | { name: string; buffer: Buffer }): Promise<void> {
    const input = this.page.getByLabel('Choose a CSV file');
    await input.setInputFiles(
      typeof file === 'string'
        ? file
        : { name: file.name, mimeType: 'text/csv', buffer: file.buffer },
    );
  }

  /** Drops a file on the import panel's drop zone, as a user dragging it from the desktop. */
  async dropCsv(name: string, text: string): Promise<void> {
    const dt = await this.page.evaluateHandle(
      ([n, t]) => {
        const d = new DataTransfer();
        d.items.add(new File([t], n, { type: 'text/csv' }));
        return d;
      },
      [name, text] as const,
    );
    const zone = this.page.getByTestId('dropzone');
    await zone.dispatchEvent('dragover', { dataTransfer: dt });
    await zone.dispatchEvent('drop', { dataTransfer: dt });
  }

  async pasteCsv(text: string): Promise<void> {
    await this.page.getByLabel('…or paste CSV text').fill(text);
    await this.page.getByRole('button', { name: 'Check pasted text' }).click();
  }

  /** The import's refusal: its kind (too-big, not-csv, encoding, missing-column, empty). */
  importError(): Locator {
    return this.page.locator('.import-error');
  }

  importPreview(): Locator {
    return this.page.getByTestId('import-preview');
  }
}
