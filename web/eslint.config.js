// Lint rules, including the layering the architecture depends on:
// only web/src/sim/ may import the WASM package; model/ and viz/ stay free of React;
// every folder of web/src imports only the folders below it in LAYERS, and no two files
// import each other in a loop (eslint-plugin-import-x).
import js from '@eslint/js';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The web app's folders, lowest first: each may import itself and the folders before it, never
 * one after it. App.tsx and main.tsx (web/src's root) sit on top and may import any of them.
 */
export const LAYERS = [
  'trace', // the trace's columns and event kinds: a leaf
  'content', // scenarios, datasets, claims: text and tables shipped with the site
  'sim', // the WASM build: running it and translating its errors
  'model', // pure view models of a trace
  'workers', // Web Workers joining sim/ and model/ off the main thread, and their clients
  'recording', // kernel recordings read into the trace's columns
  'export', // Perfetto JSON of a run or a recording
  'viz', // D3 rendering, no React
  'app', // React hooks and page state (URL, settings, window)
  'components', // React components
];

/** Layer pairs that are allowed across the order, each with why. */
const EXCEPT = {
  // The CSV importer accepts the settings vocabulary as `variant` keys; settings.ts imports
  // nothing, so this adds no loop.
  'content<app': ['./settings.ts'],
  // The link-text worker unpacks a link's src= with the page's own bounds and checks;
  // unpackSource.ts imports only pure files of app/ (no React), none of which import workers/.
  'workers<app': ['./unpackSource.ts'],
};

const upward = LAYERS.flatMap((low, i) =>
  LAYERS.slice(i + 1).map((high) => ({
    target: `./web/src/${low}`,
    from: `./web/src/${high}`,
    except: EXCEPT[`${low}<${high}`],
    message: `${low}/ is below ${high}/ (web/eslint.config.js LAYERS): move the code down or invert the dependency.`,
  })),
);
const fromRoot = LAYERS.map((layer) => ({
  target: `./web/src/${layer}`,
  from: './web/src/*.{ts,tsx}',
  message: 'web/src/App.tsx and main.tsx are the top: nothing imports them.',
}));

const wasmPkg = {
  group: ['**/sim-wasm/pkg/**', '**/sim-wasm/pkg'],
  message: 'Only web/src/sim/ may import the WASM package.',
};
const react = {
  group: ['react', 'react-dom', 'react/*', 'react-dom/*'],
  message: 'model/ and viz/ are pure: no React.',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-single/**',
      '**/node_modules/**',
      'sim-wasm/**',
      'test-results/**',
      'web/cli/tlbscope.bundle.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [wasmPkg] }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import-x/extensions': ['.ts', '.tsx', '.mjs', '.js'],
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { maxDepth: Infinity }],
      'import-x/no-restricted-paths': ['error', { zones: [...upward, ...fromRoot] }],
    },
  },
  {
    // The CLI runs in Node without a DOM: it may share the layers up to export/, never the
    // workers, the rendering or the page.
    files: ['web/cli/**/*.mjs'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.mjs', '.js', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: ['workers', 'viz', 'app', 'components'].map((layer) => ({
            target: './web/cli',
            from: `./web/src/${layer}`,
            message: `the CLI shares web/src/ up to export/, not ${layer}/ (web/eslint.config.js)`,
          })),
        },
      ],
    },
  },
  {
    // A test may run the real simulator whatever layer it tests (no test is imported by the app).
    files: ['web/src/**/*.test.{ts,tsx,mjs}'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    files: ['web/src/model/**', 'web/src/viz/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [wasmPkg, react] }] },
  },
  {
    // trace/eventKind.ts re-exports Rust's EventKind object from the package's JS glue (no
    // WASM instance needed), so the trace leaf and the kinds have one definition.
    files: ['web/src/sim/**', 'web/src/trace/eventKind.ts', 'web/cli/**', 'tests/**', 'bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['web/cli/**', 'tests/**', 'bench/**', '**/*.config.{ts,js}'],
    languageOptions: { globals: globals.node },
  },
);
