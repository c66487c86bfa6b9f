// A link made with another version of the simulator model: the page runs today's model, so
// the numbers may differ from what the link's author saw; this says so and what changed for
// the view the link opens, rather than showing other numbers silently.
import type { ModelNotice as Notice } from '../../app/modelVersion';

interface Props {
  notice: Notice | null;
  onDismiss: () => void;
}

export function ModelNotice({ notice, onDismiss }: Props) {
  if (!notice) return null;
  const { from, to, newer, changes, elsewhere } = notice;
  return (
    <div role="status" aria-label="Model version" className="link-notice model-notice">
      <p>
        <strong>
          This link was made with model version {from}; this site runs version {to}.
        </strong>{' '}
        {newer
          ? 'The link comes from a newer tlbscope than this one: what it shows may differ here.'
          : changes.length
            ? 'What it shows here may differ from what its author saw:'
            : 'Nothing that changed since moves this view; the numbers are the same.'}
      </p>
      {changes.length > 0 && (
        <ul>
          {changes.map((c) => (
            <li key={c.version}>
              Version {c.version}: {c.changed}
            </li>
          ))}
        </ul>
      )}
      {!newer && elsewhere > 0 && (
        <p>
          {elsewhere === 1 ? 'One other change' : `${elsewhere} other changes`} moved other views
          only.
        </p>
      )}
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
