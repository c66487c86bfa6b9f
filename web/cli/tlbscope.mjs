#!/usr/bin/env node
// tlbscope command line (see main.mjs). The CLI shares the web app's TypeScript modules (the
// simulator's run path, the recording importer, the Perfetto export). In a clone their loader
// hooks must be registered before any module that imports them is resolved, hence this two-step
// start; an installed package has no TypeScript sources and runs the bundle `prepack` built
// (web/scripts/pack-cli.mjs), as a clone does with TLBSCOPE_BUNDLE=1 once the bundle is built.
import { existsSync } from 'node:fs';
import { register } from 'node:module';

const sources = new URL('../src/sim/run.ts', import.meta.url);
if (!existsSync(sources) || process.env.TLBSCOPE_BUNDLE === '1') {
  // A computed specifier: the type checker must not follow it into the generated bundle.
  const bundle = new URL('./tlbscope.bundle.mjs', import.meta.url).href;
  await import(bundle);
} else {
  register('./tsLoader.mjs', import.meta.url);
  await import('./main.mjs');
}
