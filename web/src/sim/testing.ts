// Node-only: initialise the same WASM build synchronously, for Vitest tests that need a real
// trace (no hand-made fixtures where the simulator can run). Paths resolve from the repository
// root, which is Vitest's root (import.meta.url is not a file URL under jsdom).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { initSync } from '../../../sim-wasm/pkg/tlbscope_sim.js';
import type { Trace } from '../trace/trace';
import { runScenario } from './run';

let done = false;

export function initSimulatorForNode(): void {
  if (done) return;
  initSync({ module: readFileSync(resolve('sim-wasm/pkg/tlbscope_sim_bg.wasm')) });
  done = true;
}

export function readScenario(id: string): string {
  return readFileSync(resolve(`content/scenarios/${id}.toml`), 'utf8');
}

/**
 * The A/B pair the kept-run comparison tests share: the munmap shootdown on 8 CPUs with 40
 * flushes, and the same with a preemptible wait, whose flushes differ from A's.
 */
export const AB_SCENARIO = 'x86-munmap-shootdown';
export const AB_SET = ['cpus=8', 'flushes=40'];
export const AB_SET_B = [...AB_SET, 'preempt=preemptible_wait'];

/** A and B of that pair, run in Node with the site's own WASM build. */
export function runAbPair(): { a: Trace; b: Trace } {
  initSimulatorForNode();
  const text = readScenario(AB_SCENARIO);
  return {
    a: runScenario(text, { overrides: AB_SET }).trace,
    b: runScenario(text, { overrides: AB_SET_B }).trace,
  };
}
