// One simulator run for the CLI, and the expansion of sweep lists into runs.
export class ScenarioFailure extends Error {
  name = 'ScenarioFailure';
}

/** `keep(sim)`, if given, is called on the finished simulator and its result returned as `trace`. */
export function runOnce(wasm, text, file, overrides, seed, keep) {
  let sim;
  try {
    sim = new wasm.Simulator(text, overrides, seed);
  } catch (e) {
    const where = [file, e?.line ? String(e.line) : ''].filter(Boolean).join(':');
    const what =
      e && typeof e === 'object' && 'message' in e
        ? `${e.path ? `${e.path}: ` : ''}${e.message}`
        : String(e);
    throw new ScenarioFailure(`${where}: ${what}`);
  }
  try {
    sim.run();
    const summary = JSON.parse(sim.summaryJson());
    return {
      overrides,
      seed,
      arch: typeof sim.arch === 'string' ? sim.arch : undefined,
      cpus: sim.cpus,
      summary,
      trace: keep ? keep(sim) : undefined,
    };
  } finally {
    sim.free();
  }
}

/** Every combination of the --vary lists, as override lists, in a stable order. */
export function expandSweep(vary) {
  return vary.reduce(
    (combos, { key, values }) => combos.flatMap((c) => values.map((v) => [...c, `${key}=${v}`])),
    [[]],
  );
}
