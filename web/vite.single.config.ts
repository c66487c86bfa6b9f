// `npm run build:single`: the whole site as one HTML file (dist-single/tlbscope.html) that runs
// from file:// with no network, the speaker's fallback when a venue's network fails. JS and CSS
// are inlined by vite-plugin-singlefile; the WASM by inlining every asset as a data: URL
// (assetsInlineLimit, set by the plugin), which the simulator's init fetches like any URL; the
// Web Workers by building them as inline (blob) workers, since a page opened from a file may
// not start a worker from another file.
import { fileURLToPath } from 'node:url';
import { mergeConfig, type Plugin, type UserConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import base, { csp } from './vite.config';

const root = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));

const WORKER =
  /new Worker\(\s*new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)\s*(?:,\s*\{[^}]*\}\s*)?\)/g;

/**
 * Rewrites `new Worker(new URL('./x.ts', import.meta.url), …)` (how the app starts its
 * workers, which the normal build emits as files) into Vite's `./x.ts?worker&inline`, whose
 * code travels inside the bundle.
 */
export function inlineWorkers(): Plugin {
  return {
    name: 'tlbscope:inline-workers',
    enforce: 'pre',
    transform(code, id) {
      if (!/\.[cm]?[jt]sx?$/.test(id) || !code.includes('new Worker(')) return null;
      const imports: string[] = [];
      const out = code.replace(WORKER, (_all, _quote, path: string) => {
        const name = `__tlbscopeInlineWorker${imports.length}`;
        imports.push(`import ${name} from ${JSON.stringify(`${path}?worker&inline`)};`);
        return `new ${name}()`;
      });
      return imports.length ? { code: `${imports.join('\n')}\n${out}`, map: null } : null;
    },
  };
}

/** The one file keeps a name that says what it is. */
function renameHtml(to: string): Plugin {
  return {
    name: 'tlbscope:single-file-name',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html) html.fileName = to;
    },
  };
}

// The site's policy allows only scripts from its own origin, which a page whose every script is
// inline cannot meet. The one file gets a policy of its own that says what it is for: inline
// code, WebAssembly and workers from data:/blob: URLs, and no network at all.
const OFFLINE_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline' 'wasm-unsafe-eval' data: blob:",
  'worker-src data: blob:',
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'connect-src data: blob:',
  'font-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const single: UserConfig = {
  plugins: [inlineWorkers(), viteSingleFile(), renameHtml('tlbscope.html'), csp(OFFLINE_CSP)],
  // Classic workers: Chromium refuses a module worker from a blob: URL on a file:// page.
  worker: { format: 'iife', plugins: () => [inlineWorkers()] },
  build: {
    outDir: `${repo}/dist-single`,
    emptyOutDir: true,
  },
};

const merged = mergeConfig(
  {
    ...base,
    // The offline file is the app alone: its own policy, and no docs pages beside it.
    plugins: base.plugins?.filter(
      (p) => !(p && 'name' in p && ['tlbscope-csp', 'tlbscope-docs'].includes(p.name)),
    ),
  },
  single,
);
// One page only: whatever other pages the site build serves, this file is the app.
merged.build.rolldownOptions = { ...merged.build.rolldownOptions, input: `${root}index.html` };
delete merged.build.rollupOptions;
export default merged;
