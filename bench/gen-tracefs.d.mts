// Types of gen-tracefs.mjs for the TypeScript that imports it (tests/e2e).
export function tracefsChunks(lines: number, cpus: number): Generator<string>;
export function writeTracefs(out: string, lines: number, cpus: number): Promise<number>;
