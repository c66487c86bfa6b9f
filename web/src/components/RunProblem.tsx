// Why a run is not showing: the simulator's error with the file, or that it was cancelled.
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
        <h2>Run {label} could not start</h2>
        <pre>
          {file}: {state.message}
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
