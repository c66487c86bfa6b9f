import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  // Relative asset URLs: the built site works from any sub-path of a static host.
  base: './',
  plugins: [react()],
  server: {
    // The scenarios live in content/ and the wasm in sim-wasm/pkg, both outside web/.
    fs: { allow: [repo] },
    port: 5173,
    host: '127.0.0.1',
  },
  preview: { port: 4173, host: '127.0.0.1', strictPort: true },
  build: {
    outDir: `${repo}/dist`,
    emptyOutDir: true,
    // Top-level await for the wasm init.
    target: 'es2022',
    // The app, and the example reveal.js deck that embeds it (talk-demo/, README "Embedding").
    rolldownOptions: {
      input: { main: `${root}index.html`, deck: `${root}talk-demo/index.html` },
    },
  },
  test: {
    root: repo,
    include: ['web/src/**/*.test.ts', 'web/cli/**/*.test.mjs'],
    environment: 'node',
  },
});
