// @ts-check
// `npm run vocab`: writes the simulator's settings vocabulary (its `vocabularyJson()` binding,
// from sim-wasm/src/scenario/vocabulary/) into web/src/sim/vocabulary.generated.ts and the
// settings reference of content/README.md. `--check` writes nothing and exits 1 if either is
// out of date. Needs the WASM build (`npm run wasm`).
import console from 'node:console';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import process from 'node:process';
import { loadWasm } from '../cli/wasm.mjs';
import {
  MODULE_PATH,
  README_PATH,
  renderModule,
  renderReference,
  withReference,
} from './vocabRender.mjs';
import { exitIfHelp } from './scriptHelp.mjs';

exitIfHelp(import.meta.url);

const check = process.argv.includes('--check');
const sim = await loadWasm();
const vocab = JSON.parse(sim.vocabularyJson());
const outputs = [
  [MODULE_PATH, await renderModule(vocab)],
  [
    README_PATH,
    withReference(readFileSync(resolve(README_PATH), 'utf8'), await renderReference(vocab)),
  ],
];
let stale = 0;
for (const [path, text] of outputs) {
  const file = resolve(path);
  let old = '';
  try {
    old = readFileSync(file, 'utf8');
  } catch {
    // a missing file is out of date
  }
  if (old === text) continue;
  stale++;
  if (check) console.error(`${path} is out of date: run \`npm run vocab\``);
  else {
    writeFileSync(file, text);
    console.log(`wrote ${path}`);
  }
}
if (check && stale > 0) process.exit(1);
