// Lint rules, including the layering the architecture depends on:
// only web/src/sim/ may import the WASM package; model/ and viz/ stay free of React;
// components/ never reach past sim/ into the WASM package.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
