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
  if (state.check) {
    const { states, transitions, depth } = state.check;
    const n = (x: number) => x.toLocaleString('en-US');
    return (
      <div className="run-status" role="status" aria-live="polite" data-check-progress>
        <span>
          Checking every interleaving of {label}… {n(states)} states, {n(transitions)} transitions,
          depth {depth}
        </span>
        <progress aria-label={`Checking ${label}`} />
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    );
  }
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
