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
  let result;
  try {
    sim.run();
    result = {
      overrides,
      seed,
      arch: typeof sim.arch === 'string' ? sim.arch : undefined,
      cpus: sim.cpus,
      summary: JSON.parse(sim.summaryJson()),
      budgetError: sim.budgetError,
      trace: keep ? keep(sim) : undefined,
    };
  } catch (e) {
    // Never free a trapped instance: that throws "attempted to take ownership of Rust value
    // while it was borrowed" and hides the trap.
    if (e instanceof WebAssembly.RuntimeError) throw new SimulatorTrap(e, file, overrides, seed);
    sim.free();
    throw e;
  }
  sim.free();
  if (result.budgetError) throw new BudgetStop(`${file}: ${result.budgetError}`, result);
  return result;
}

/** The run's budget stopped it early; `partial` is the run as far as it got. */
export class BudgetStop extends ScenarioFailure {
  name = 'BudgetStop';
  constructor(message, partial) {
    super(message);
    this.partial = partial;
  }
}

/** The WASM instance trapped: a bug in tlbscope, reported as what it is. */
export class SimulatorTrap extends Error {
  name = 'SimulatorTrap';
  constructor(trap, file, overrides, seed) {
    const how = [...overrides.map((o) => `--set ${o}`), `--seed ${seed}`].join(' ');
    super(
      `the simulator crashed (WebAssembly trap: ${trap.message}) running ${file} ${how}; ` +
        'this is a bug in tlbscope: please report it with this command line',
    );
    this.trap = trap;
  }
}

/** Every combination of the --vary lists, as override lists, in a stable order. */
export function expandSweep(vary) {
  return vary.reduce(
    (combos, { key, values }) => combos.flatMap((c) => values.map((v) => [...c, `${key}=${v}`])),
    [[]],
  );
}
