// What a scenario says about itself (title, steps, settings in effect), read from a simulator
// that parsed it. The JSON getters are the simulator's; their shapes are declared here once.
import type { Simulator } from '../../../sim-wasm/pkg/tlbscope_sim.js';

/** A narrated step of a guided scenario, as the simulator parsed it. */
export interface Step {
  title: string;
  text: string;
  window: [number, number] | null;
  highlight: string[];
  cpus: number[];
  set: string[];
  compare: string[] | null;
  question: string | null;
  answer: string | null;
  dataset: string | null;
  /** A kernel recording (content/recordings/<id>.trace) to show beside the step. */
  recording: string | null;
  /** What each number in the step's text is (`"<as written> = <measure>"`; see claims.ts). */
  claims: string[];
  /** Line of the step's [[steps]] header in the file. */
  line: number;
}

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
