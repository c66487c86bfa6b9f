// Messages between the page and the simulator worker. Columns travel as transferable
// ArrayBuffers: moved, not copied, across the thread boundary.
import type { PrebuiltView } from '../model/prebuilt';
import type { Spacing } from '../model/spacing';
import type { ScenarioInfo } from '../sim/scenario';
import type { Columns, Summary } from '../trace/trace';

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
