// Why a dropped file did not reopen a view (app/useSvgDrop.ts), until dismissed.
export function DropNotice({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <div role="alert" className="error-panel drop-notice">
      <p>{message}</p>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
