// Loads the same --target web WASM build the site uses, synchronously, in Node.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = resolve(repo, 'sim-wasm/pkg');
export const SCENARIO_DIR = resolve(repo, 'content/scenarios');

let instances = 0;
/** @type {{ memory?: WebAssembly.Memory } | null} */
let lastExports = null;

/**
 * The simulator module, initialised. `fresh`: a new module instance with its own WASM memory
 * (the fuzzer's way to go on after a trap, which leaves an instance unusable).
 */
/** @returns {Promise<typeof import('../../sim-wasm/pkg/tlbscope_sim.js')>} */
export function loadWasm({ fresh = false } = {}) {
  const wasmFile = resolve(pkg, 'tlbscope_sim_bg.wasm');
  if (!existsSync(wasmFile)) {
    throw new Error(
      `the simulator is not built (${wasmFile} is missing): run \`npm run wasm\` first`,
    );
  }
  const url = pathToFileURL(resolve(pkg, 'tlbscope_sim.js')).href;
  return import(fresh ? `${url}?instance=${++instances}` : url).then((m) => {
    lastExports = m.initSync({ module: readFileSync(wasmFile) });
    return m;
  });
}

/** Bytes of linear memory of the instance loaded last (it grows and never shrinks). */
export function wasmMemoryBytes() {
  return lastExports?.memory?.buffer.byteLength ?? 0;
}

export function scenarioIds() {
  return readdirSync(SCENARIO_DIR)
    .filter((f) => f.endsWith('.toml'))
    .map((f) => f.slice(0, -'.toml'.length))
    .sort();
}

/**
 * A scenario given as a path or as an id from content/scenarios/.
 * @param {string} arg
 */
export function readScenarioArg(arg) {
  const asId = resolve(SCENARIO_DIR, `${arg}.toml`);
  const file = existsSync(arg) ? resolve(arg) : existsSync(asId) ? asId : undefined;
  if (!file) {
    throw new Error(
      `no scenario file or id \`${arg}\`; \`tlbscope list\` shows the ids in ${SCENARIO_DIR}`,
    );
  }
  return { id: basename(file).replace(/\.toml$/, ''), file, text: readFileSync(file, 'utf8') };
}
