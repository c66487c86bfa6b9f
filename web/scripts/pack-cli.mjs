// Bundles the CLI (web/cli/main.mjs and the web app's TypeScript it imports) into one JavaScript
// file, so that the npm package runs on Node alone: no TypeScript compiler, no loader hooks, no
// node_modules. Run by `prepack`; tlbscope.mjs runs the bundle when the TypeScript sources are
// absent (an installed package) or TLBSCOPE_BUNDLE=1 asks for it.
//
// The bundle sits beside main.mjs because wasm.mjs and calibrate.mjs find the simulator build
// and content/ relative to their own URL (two levels up); rolldown keeps import.meta.url as the
// bundle's, so the same relative paths hold.
import { existsSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { rolldown } from 'rolldown';
import { exitIfHelp } from './scriptHelp.mjs';

exitIfHelp(import.meta.url);

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BUNDLE = resolve(repo, 'web/cli/tlbscope.bundle.mjs');

export async function packCli() {
  const wasm = resolve(repo, 'sim-wasm/pkg/tlbscope_sim_bg.wasm');
  if (!existsSync(wasm)) {
    throw new Error(`the simulator is not built (${wasm} is missing): run \`npm run wasm\` first`);
  }
  // wasm-pack writes a `*` .gitignore into its output, which npm pack obeys even for paths that
  // `files` names: the package would ship without the simulator. The repository's own
  // .gitignore still keeps sim-wasm/pkg/ out of git.
  rmSync(resolve(repo, 'sim-wasm/pkg/.gitignore'), { force: true });
  const build = await rolldown({
    input: resolve(repo, 'web/cli/main.mjs'),
    platform: 'node',
    // The WASM glue is loaded by a computed URL (a fresh instance per fuzz restart), so it stays
    // a file of the package; everything else the CLI imports is inlined.
    external: [/^node:/],
    logLevel: 'warn',
  });
  await build.write({
    file: BUNDLE,
    format: 'esm',
    codeSplitting: false,
    banner: '// Built by web/scripts/pack-cli.mjs from web/cli and web/src; do not edit.',
  });
  await build.close();
  return BUNDLE;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = await packCli();
  process.stderr.write(`pack-cli: wrote ${file}\n`);
}
