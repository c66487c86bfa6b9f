// tlbscope check: every interleaving of a scenario (sim-wasm/src/check/), or a race's (R1–R18)
// scenario under its faulty and fixed settings. The search runs in the WASM build in budgets;
// this file times it and words the answer for a terminal or as JSON.
import { readScenarioArg } from './wasm.mjs';
import { out } from './terminal.mjs';

/**
 * Where the model's documentation explains a race or invariant id (the page links the same
 * anchors, web/src/app/docLinks.ts).
 * @param {string} id
 */
export const docPath = (id) => `docs/model.md#${id.toLowerCase()}`;

// The races `--race` does not answer, and why: each needs a faulty design to put back,
// and for these the simulator has none (docs/model.md describes them).
/** @type {Record<string, string>} */
const NOT_CHECKED = {
  R3: 'CPU hotplug is not modelled',
  R4: 'the simulator has no setting that brings it back',
  R5: 'the simulator has no setting that brings it back',
  R9: "a lazy CPU's catch-up on its way back to the mm is always the kernel's (x86-lazy-tlb shows it)",
  R10: 'the simulator has no setting that brings it back',
  R14: "arm64's per-CPU accesses are always preemption-protected (arm64-percpu-cpu-id shows the windows)",
  R17: 'arm64-asid-rollover shows both orders of the fast path and a rollover; neither is faulty',
  R18: 'paravirtual (KVM) flushes are not modelled',
};

/** Exit codes (README "Checking every interleaving"). */
export const EXIT = { holds: 0, violated: 1, bad_input: 2, bound_reached: 4 };

export class CheckInputError extends Error {
  name = 'CheckInputError';
}

const DEFAULT_STATES = 1000000;
const DEFAULT_STEPS = 400;

/** @param {string} arg */
function scenario(arg) {
  try {
    return readScenarioArg(arg);
  } catch (e) {
    throw new CheckInputError(e instanceof Error ? e.message : String(e));
  }
}

/**
 * One check, timed.
 * @param {any} wasm
 * @param {string} text
 * @param {string} file
 * @param {string[]} set
 * @param {{ maxStates?: number, maxSteps?: number, reduce?: string }} limits
 */
export function checkOnce(wasm, text, file, set, limits) {
  let checker;
  try {
    checker = new wasm.Checker(
      text,
      set,
      limits.maxStates ?? DEFAULT_STATES,
      limits.maxSteps ?? DEFAULT_STEPS,
    );
  } catch (e) {
    const err = /** @type {{ line?: number, path?: string, message?: string }} */ (e ?? {});
    const where = err.line ? `${file}:${err.line}` : file;
    const what = err.message ?? String(e);
    throw new CheckInputError(`${where}: ${err.path ? `${err.path}: ` : ''}${what}`);
  }
  if (!checker.setReduce(limits.reduce ?? 'all')) {
    checker.free();
    throw new CheckInputError(`--reduce ${limits.reduce}: expected none, por, sym or all`);
  }
  const t0 = performance.now();
  while (!checker.runFor(20000));
  const seconds = (performance.now() - t0) / 1000;
  const report = JSON.parse(checker.reportJson());
  checker.free();
  return { settings: set, seconds: Number(seconds.toFixed(3)), ...report };
}

/** @param {any} r */
function describe(r) {
  // The classes of interchangeable CPUs, as "2=3", when the symmetry merged them.
  const classes = r.reductions.includes('sym')
    ? ` (CPUs ${r.symmetric_cpus.map((/** @type {number[]} */ k) => k.join('=')).join(', ')})`
    : '';
  const counts = `${r.states} states, ${r.transitions} transitions, depth ${r.depth}, ${r.seconds} s, reductions: ${r.reductions}${classes}`;
  if (r.verdict === 'holds') return `holds in every interleaving (${counts})`;
  if (r.verdict === 'bound_reached') {
    const what = r.bound === 'steps' ? '--max-steps' : '--max-states';
    return `bound reached: ${r.bound} (${counts}); no violation up to the bound; raise ${what}`;
  }
  const cx = r.counterexample;
  const lines = [
    `VIOLATED: ${cx.invariant} in ${cx.steps.length} steps (${counts}); ${cx.invariant}: ${docPath(cx.invariant)}`,
  ];
  for (const s of cx.steps) {
    const race = s.race ? `race #${s.race}` : '';
    const over = s.overtook ? ` (ahead of ${s.overtook})` : '';
    lines.push(
      `  ${String(s.n).padStart(3)}. ${race.padEnd(8)} ${String(s.time_ns).padStart(8)} ns  CPU ${s.cpu}  ${s.label}${over}`,
    );
  }
  lines.push(`  ${cx.narration}`);
  return lines.join('\n');
}

/**
 * @param {any} wasm
 * @param {{ scenario?: string, race?: string, set: string[], format: string, maxStates?: number, maxSteps?: number, reduce?: string }} args
 * @returns {number} the exit code
 */
export function runCheck(wasm, args) {
  if (args.race === undefined) {
    const { text, file } = scenario(/** @type {string} */ (args.scenario));
    const r = checkOnce(wasm, text, file, args.set, args);
    out(args.format === 'json' ? `${JSON.stringify(r, null, 2)}\n` : `${describe(r)}\n`);
    return EXIT[/** @type {keyof typeof EXIT} */ (r.verdict)] ?? EXIT.bad_input;
  }
  /** @type {{ id: string, title: string, scenario: string, faulty: string[], fixed: string[] }[]} */
  const races = JSON.parse(wasm.racesJson());
  const race = races.find((r) => r.id.toLowerCase() === String(args.race).toLowerCase());
  if (!race) {
    const id = String(args.race).toUpperCase();
    const answers = races.map((r) => r.id).join(', ');
    throw new CheckInputError(
      id in NOT_CHECKED
        ? `--race ${args.race}: ${id} is not checked: ${NOT_CHECKED[id]}. The checker answers ${answers}`
        : `--race ${args.race}: the checker answers ${answers}`,
    );
  }
  const { text, file } = scenario(race.scenario);
  const runs = [
    {
      design: 'faulty',
      expected: 'violated',
      ...checkOnce(wasm, text, file, [...args.set, ...race.faulty], args),
    },
    ...race.fixed.map((fix) => ({
      design: 'fixed',
      expected: 'holds',
      ...checkOnce(wasm, text, file, [...args.set, fix], args),
    })),
  ];
  if (args.format === 'json') {
    out(
      `${JSON.stringify({ race: race.id, title: race.title, scenario: race.scenario, runs }, null, 2)}\n`,
    );
  } else {
    out(`${race.id}: ${race.title} (${race.scenario}; ${docPath(race.id)})\n`);
    for (const r of runs) {
      const set = r.settings.length ? r.settings.join(' ') : 'the scenario\u2019s own settings';
      const mark = r.verdict === r.expected ? 'as expected' : `EXPECTED ${r.expected}`;
      out(`\n${r.design} (${set}) [${mark}]:\n${describe(r)}\n`);
    }
  }
  if (runs.some((r) => r.verdict === 'bound_reached')) return EXIT.bound_reached;
  return runs.every((r) => r.verdict === r.expected) ? 0 : 1;
}
