// Kept imports listed by name without drawing them: a page that opens on a large kept import
// draws nothing of it until asked, so a dataset that once froze the page can still be removed.
import type { Dataset } from '../../content/datasets';

/** Kept numbers above which the Data view opens with its kept imports listed, not drawn. */
export const LIST_ONLY_ABOVE = 5_000;

/** Whether the Data view should open with `kept` listed only. */
export function listOnlyOnOpen(kept: readonly Dataset[]): boolean {
  return kept.reduce((n, d) => n + d.measurements.length, 0) > LIST_ONLY_ABOVE;
}

export function KeptList({
  datasets,
  onRemove,
  onDraw,
}: {
  datasets: readonly Dataset[];
  onRemove: (d: Dataset) => void;
  onDraw: () => void;
}) {
  const total = datasets.reduce((n, d) => n + d.measurements.length, 0);
  return (
    <section className="kept-list" aria-labelledby="kept-list-h" data-testid="kept-list">
      <h3 id="kept-list-h">Kept imports, listed only</h3>
      <p role="status">
        Your kept imports hold {total.toLocaleString('en-US')} numbers (over{' '}
        {LIST_ONLY_ABOVE.toLocaleString('en-US')}), so this page lists them without drawing their
        charts and tables. Remove what you no longer need, or draw them.
      </p>
      <ul>
        {datasets.map((d) => (
          <li key={d.file} data-file={d.file}>
            <code>{d.file}</code> — {d.measurements.length.toLocaleString('en-US')} numbers{' '}
            <button type="button" aria-label={`Remove ${d.file}`} onClick={() => onRemove(d)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={onDraw}>
        Draw the kept imports
      </button>
    </section>
  );
}
