import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import { docs } from './vite-docs';

const root = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));

// The production page's Content-Security-Policy, as a <meta> tag in the built index.html.
// Only our own origin: scripts and workers from the site itself, WebAssembly compiled from the
// fetched .wasm ('wasm-unsafe-eval'), inline style attributes (React and D3 set them), images
// from data:/blob: URLs (the favicon, canvas strips). Not for the dev server: Vite injects
// inline scripts there.
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/** Writes `policy` as a CSP <meta> into the built page; the single-file build passes its own. */
export function csp(policy = CSP): Plugin {
  return {
    name: 'tlbscope-csp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: policy },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  root,
  // Relative asset URLs: the built site works from any sub-path of a static host.
  base: './',
  plugins: [react(), csp(), docs(repo)],
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
    include: ['web/src/**/*.test.ts', 'web/docs-site/**/*.test.ts', 'web/cli/**/*.test.mjs'],
    environment: 'node',
    // The CLI tests start Node processes that load the WASM build and run whole scenarios; on a
    // loaded 2-core machine one can take well over the 5 s default without anything being wrong.
    testTimeout: 60_000,
  },
});
