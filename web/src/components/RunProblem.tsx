// Why a run is not showing (the simulator's error with the file, a crash, a cancel), or why
// it shows only part of the run (its budget stopped it).
import type { RunState } from '../app/useRun';

export function RunProblem({
  label,
  state,
  file,
}: {
  label: string;
  state: RunState;
  file: string;
}) {
  if (state.status === 'error') {
    return (
      <div role="alert" className="error-panel">
        <h2>{state.crashed ? `Run ${label} crashed` : `Run ${label} could not start`}</h2>
        <pre>
          {file}: {state.message}
        </pre>
      </div>
    );
  }
  if (state.status === 'done' && state.result.budgetError) {
    return (
      <div role="alert" className="error-panel budget-stop">
        <h2>Run {label} stopped early: the timeline shows the part that ran</h2>
        <pre>
          {file}: {state.result.budgetError}
        </pre>
      </div>
    );
  }
  if (state.status === 'cancelled') {
    return (
      <p className="status" role="status">
        Run {label} was cancelled. Change a setting or the seed to run again.
      </p>
    );
  }
  return null;
}
