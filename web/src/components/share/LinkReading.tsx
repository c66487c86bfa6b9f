// Shown while the own scenario a link carries unpacks in its worker (app/useLinkSource.ts):
// the rest of the page is already there and answers, only the run waits for the text.
export function LinkReading({ name }: { name: string }) {
  return (
    <div className="run-status" role="status" aria-live="polite" data-link-reading>
      <span>
        Reading the scenario in the link… <code>{name}</code>
      </span>
      <progress aria-label="Reading the scenario in the link" />
    </div>
  );
}
