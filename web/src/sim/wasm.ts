// The one place the browser build loads the simulator's WASM. Everything else asks for
// `loadSimulator()` and gets the initialised module.
import init from '../../../sim-wasm/pkg/tlbscope_sim.js';
import wasmUrl from '../../../sim-wasm/pkg/tlbscope_sim_bg.wasm?url';

let ready: Promise<void> | undefined;
let memory: WebAssembly.Memory | null = null;

export function loadSimulator(): Promise<void> {
  ready ??= init({ module_or_path: wasmUrl }).then((out) => {
    memory = out.memory;
  });
  return ready;
}

/** Bytes of the instance's linear memory: it only grows, so this is the high-water mark. */
export function wasmMemoryBytes(): number {
  return memory?.buffer.byteLength ?? 0;
}
