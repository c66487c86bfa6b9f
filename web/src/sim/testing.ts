// Node-only: initialise the same WASM build synchronously, for Vitest tests that need a real
// trace (no hand-made fixtures where the simulator can run). Paths resolve from the repository
// root, which is Vitest's root (import.meta.url is not a file URL under jsdom).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { initSync } from '../../../sim-wasm/pkg/tlbscope_sim.js';

let done = false;

export function initSimulatorForNode(): void {
  if (done) return;
  initSync({ module: readFileSync(resolve('sim-wasm/pkg/tlbscope_sim_bg.wasm')) });
  done = true;
}

export function readScenario(id: string): string {
  return readFileSync(resolve(`content/scenarios/${id}.toml`), 'utf8');
}
