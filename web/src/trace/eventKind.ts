// The event kinds are Rust's enum (sim-wasm/src/events.rs), exported by wasm-bindgen as a plain
// frozen object in the package's JavaScript glue. Importing that object needs no WASM instance,
// so the trace stays a leaf while the kinds keep one definition; this is the only file outside
// sim/ allowed to name the package (web/eslint.config.js).
export { EventKind } from '../../../sim-wasm/pkg/tlbscope_sim.js';
