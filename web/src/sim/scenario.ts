// What a scenario says about itself (title, steps, settings in effect), read from a simulator
// that parsed it. The JSON getters are the simulator's; their shapes are declared here once.
import type { Simulator } from '../../../sim-wasm/pkg/tlbscope_sim.js';

// A narrated step, as the simulator parsed it: generated from sim-wasm/src/steps.rs.
export type { Step } from '../trace/shapes.generated';
import type { Step } from '../trace/shapes.generated';

/** What a scenario says about itself, parsed but not run. */
export interface ScenarioInfo {
  title: string;
  hook: string;
  description: string;
  arch: string;
  guide: number;
  steps: Step[];
  /** What the numbers in the title, summary and description are (see claims.ts). */
  claims: string[];
  /** Every setting in effect, in the `--set` vocabulary (file, preset defaults, overrides). */
  settings: Record<string, string>;
  /** Every cost parameter in effect, in ns, by its `costs.<name>`. */
  costs: Record<string, number>;
  /** Set when the file does not parse: the simulator's message with line and field. */
  error: string | null;
}

export function infoOf(sim: Simulator): ScenarioInfo {
  return {
    title: sim.title,
    hook: sim.summary,
    description: sim.description,
    arch: sim.arch,
    guide: sim.guide,
    steps: JSON.parse(sim.stepsJson()) as Step[],
    claims: JSON.parse(sim.claimsJson()) as string[],
    settings: JSON.parse(sim.settingsJson()) as Record<string, string>,
    costs: JSON.parse(sim.costsJson()) as Record<string, number>,
    error: null,
  };
}

/** The info of a scenario that does not parse: only its error. */
export function unparsedInfo(error: string): ScenarioInfo {
  return {
    title: '',
    hook: '',
    description: '',
    arch: '',
    guide: 0,
    steps: [],
    claims: [],
    settings: {},
    costs: {},
    error,
  };
}
