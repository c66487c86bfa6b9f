// Messages between the page and the simulator worker. Columns travel as transferable
// ArrayBuffers: moved, not copied, across the thread boundary.
import type { PrebuiltView } from '../model/prebuilt';
import type { Spacing } from '../model/spacing';
import type { Summary } from './trace';

export interface RunRequest {
  type: 'run';
  id: number;
  text: string;
  overrides: string[];
  seed: number;
  /** Check this step (0-based) of the scenario against the finished run. */
  checkStep?: number;
  /** Build the timeline's model after the run and send it as a 'view' message. */
  view: boolean;
}

/** Parse scenarios without running them (titles, hooks, steps for the landing page). */
export interface DescribeRequest {
  type: 'describe';
  id: number;
  texts: string[];
}

/** The timeline's model of run `run` (the worker's last) in `spacing`, as a 'view' message. */
export interface ViewRequest {
  type: 'view';
  id: number;
  run: number;
  spacing: Spacing;
}

/** The machine's state at `t` of the worker's last finished run (see snapshot.rs). */
export interface SnapshotRequest {
  type: 'snapshot';
  id: number;
  t: number;
}

/** A narrated step of a guided scenario, as the simulator parsed it. */
export interface Step {
  title: string;
  text: string;
  window: [number, number] | null;
  highlight: string[];
  /** Highlight only on these CPUs; with `expand`, the CPUs shown as lanes (others folded). */
  cpus: number[];
  /** More CPUs the step talks about: shown as lanes, not highlighted. */
  expand: number[];
  /** Latency-lens intervals the step points at (model/lens.ts: LensKind). */
  lens: string[];
  set: string[];
  compare: string[] | null;
  question: string | null;
  answer: string | null;
  /** The question's options, `"<label> = <measure>"` (content/choices.ts). */
  choices: string[];
  /** `max` | `min` (null: max): which option's measure the run says is right. */
  pick: string | null;
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

export interface Columns {
  time: Float64Array;
  dur: Float64Array;
  cpu: Uint16Array;
  kind: Uint8Array;
  mm: Uint16Array;
  asid: Uint16Array;
  gen: Uint32Array;
  addr: Float64Array;
  arg: Float64Array;
  parent: Int32Array;
}

export type WorkerMessage =
  | { type: 'progress'; id: number; events: number; nowNs: number }
  | {
      type: 'done';
      id: number;
      title: string;
      description: string;
      cpus: number;
      summary: Summary;
      columns: Columns;
      strings: string[];
      info: ScenarioInfo;
      /** The step check's problem, '' when the step fits, null when none was asked. */
      stepProblem: string | null;
      /** Set when the run's budget stopped it early: the trace is the partial run. */
      budgetError: string | null;
    }
  /** After 'done': the timeline's model of the run, built in the worker (null if it failed). */
  | { type: 'view'; id: number; view: PrebuiltView | null; error?: string }
  | { type: 'described'; id: number; infos: ScenarioInfo[] }
  | { type: 'snapshot'; id: number; json: string }
  | {
      type: 'error';
      id: number;
      path: string;
      line: number;
      message: string;
      scenario: boolean;
      /** The WASM instance trapped: the worker must be replaced. */
      trap?: boolean;
    };
