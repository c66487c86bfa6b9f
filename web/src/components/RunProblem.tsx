// Why a run is not showing (the simulator's error with the file, a crash, a cancel), or why
// it shows only part of the run (its budget stopped it). A cancelled or refused run leaves the
// previous picture on the page; this says so and offers the way on: run again, or open the
// link with its refused setting clamped or left out.
import type { RunState } from '../app/useRun';
import { repairOverrides } from '../app/refused';

export function RunProblem({
  label,
  state,
  file,
  overrides = [],
  onOverrides,
  onAgain,
}: {
  label: string;
  state: RunState;
  file: string;
  /** The settings the refused run was asked with. */
  overrides?: readonly string[];
  onOverrides?: (overrides: string[]) => void;
  onAgain?: () => void;
}) {
  const kept =
    (state.status === 'error' || state.status === 'cancelled') && state.previous ? (
      <p data-kept-run>The timeline below is still the previous run of {label}.</p>
    ) : null;
  if (state.status === 'error') {
    const repair = state.crashed ? null : repairOverrides(overrides, state.message);
    return (
      <div role="alert" className="error-panel">
        <h2>{state.crashed ? `Run ${label} crashed` : `Run ${label} could not start`}</h2>
        <pre>
          {file}: {state.message}
        </pre>
        {kept}
        {repair && onOverrides && (
          <p>
            <button type="button" onClick={() => onOverrides(repair.overrides)}>
              Open without the refused settings
            </button>{' '}
            <span className="muted">({repair.said})</span>
          </p>
        )}
        {state.crashed && onAgain && (
          <p>
            <button type="button" onClick={onAgain}>
              Run again
            </button>
          </p>
        )}
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
      <div className="status run-cancelled" role="status">
        <p>
          Run {label} was cancelled.{' '}
          {onAgain && (
            <button type="button" onClick={onAgain}>
              Run again
            </button>
          )}
        </p>
        {kept}
      </div>
    );
  }
  return null;
}
