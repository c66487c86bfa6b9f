// @ts-check
// `npm run docs`: rewrites the generated parts of docs/ (the CLI reference, docs/model.md's cost
// table); web/scripts/docsGen.test.mjs fails when they are stale.
import console from 'node:console';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadWasm } from '../cli/wasm.mjs';
import { CLI_PATH, MODEL_PATH, renderCli, renderCosts, withBlock } from './docsGen.mjs';
import { exitIfHelp } from './scriptHelp.mjs';

exitIfHelp(import.meta.url);

writeFileSync(CLI_PATH, await renderCli());
const vocab = JSON.parse((await loadWasm()).vocabularyJson());
writeFileSync(MODEL_PATH, withBlock(readFileSync(MODEL_PATH, 'utf8'), await renderCosts(vocab)));
console.log(`wrote ${CLI_PATH} and ${MODEL_PATH}'s cost table`);
