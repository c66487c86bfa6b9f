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

// The HTTP headers a static host must send with the built site, written at build time as
// dist/_headers (the format Cloudflare Pages and Netlify read; .github/workflows/site.yml
// deploys to Cloudflare Pages). The CSP is the built page's <meta> policy sent as a header
// too, so it holds from the first byte and for every file. Vite names every file under assets/
// by a hash of its content, so those may be cached for a year and never revalidated; the pages
// themselves must be revalidated on every visit, or a deploy would leave readers on old asset
// names. Rules are kept disjoint: hosts join a header that two matching rules set.

/** The `_headers` file for a site whose pages carry `csp`. */
function siteHeaders(csp: string): string {
  const page = ['Cache-Control: no-cache'];
  const rules: [string, string[]][] = [
    [
      '/*',
      [
        `Content-Security-Policy: ${csp}`,
        'X-Content-Type-Options: nosniff',
        'Referrer-Policy: no-referrer',
      ],
    ],
    ['/assets/*', ['Cache-Control: public, max-age=31536000, immutable']],
    ['/', page],
    ['/index.html', page],
    ['/talk-demo/*', page],
  ];
  return rules
    .map(([path, headers]) => `${path}\n${headers.map((h) => `  ${h}\n`).join('')}`)
    .join('');
}

/**
 * Writes `policy` as a CSP <meta> into the built page; the single-file build passes its own.
 * With `headers`, also the static host's `_headers` file (the same policy, and caching).
 */
export function csp(policy = CSP, { headers = false } = {}): Plugin {
  return {
    name: 'tlbscope-csp',
    apply: 'build',
    generateBundle() {
      if (headers)
        this.emitFile({ type: 'asset', fileName: '_headers', source: siteHeaders(policy) });
    },
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
  plugins: [react(), csp(CSP, { headers: true }), docs(repo)],
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
