// Progress of a run in the worker, with a way to stop it.
import type { RunState } from '../app/useRun';

export function RunStatus({
  label,
  state,
  onCancel,
}: {
  label: string;
  state: RunState;
  onCancel: () => void;
}) {
  if (state.status !== 'running') return null;
  return (
    <div className="run-status" role="status" aria-live="polite">
      <span>
        Simulating {label}… {state.events.toLocaleString('en-US')} events
      </span>
      <progress aria-label={`Simulating ${label}`} />
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
