// The bounds of an in-page check, in a file of its own so the page's words can name them
// without loading the WASM module that sim/check.ts wraps.

/** The bounds every in-page check runs under (the CLI's defaults: `tlbscope check`). */
export const CHECK_LIMITS = { maxStates: 1_000_000, maxSteps: 400 } as const;
