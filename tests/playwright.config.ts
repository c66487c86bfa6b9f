import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

// The production build, served under a sub-path to prove the site works from any prefix.
export const BASE_PATH = '/tlbscope/demo/';
// Overridable so that two checkouts on one machine can run their end-to-end tests at once
// without one reusing the other's server (and so testing the wrong build).
const PORT = Number(process.env.E2E_PORT ?? 4173);
/** The development server `npm start` runs, checked by dev-server.spec.ts. */
export const DEV_PORT = Number(process.env.E2E_DEV_PORT ?? 5174);

export default defineConfig({
  testDir: 'e2e',
  outputDir: '../test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}${BASE_PATH}`,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      // Playwright's own browser download cannot reach its host here; Debian's Chromium can run.
      executablePath: chromiumPath,
      args: [...chromiumArgs],
    },
  },
  webServer: [
    {
      command: `npx vite preview -c web/vite.config.ts --port ${PORT} --strictPort --base ${BASE_PATH}`,
      cwd: '..',
      url: `http://127.0.0.1:${PORT}${BASE_PATH}`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    {
      // What `npm start` serves: the dev server (React StrictMode, unbundled modules).
      command: `npx vite -c web/vite.config.ts --port ${DEV_PORT} --strictPort`,
      cwd: '..',
      url: `http://127.0.0.1:${DEV_PORT}/`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
  ],
});
