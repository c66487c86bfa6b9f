// What an old or broken link asked for that the page could not show, named one by one, above
// the nearest valid view the page opened instead.
interface Props {
  ignored: readonly string[];
  onDismiss: () => void;
}

export function LinkNotice({ ignored, onDismiss }: Props) {
  if (!ignored.length) return null;
  return (
    <div role="alert" className="link-notice">
      <p>
        <strong>Parts of this link were ignored.</strong> The page shows the nearest view it could:
      </p>
      <ul>
        {ignored.map((w) => (
          <li key={w}>
            <code>{w}</code>
          </li>
        ))}
      </ul>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
