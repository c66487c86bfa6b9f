// One dataset as a table: every number with its machine, source, runs and stddev, and the
// source's provenance (mail, author, date, conditions) from sources.json.
import { sources, type Dataset } from '../../content/datasets';
import { MODEL_SOURCE } from '../../model/overlay';
import { download } from '../../app/download';
import { datasetToCsv } from '../../content/csvExport';
import { cliFlags } from '../../content/cliFlags';

/** Rows drawn per dataset: a 20,000-row import would take seconds to render in full. */
export const SHOWN_MEASUREMENTS = 200;

/** Where an imported dataset stands: saving, committed to this browser, or not kept at all. */
export type Kept = 'saving' | 'kept' | 'this visit';

const KEPT_WORDS: Record<Kept, string> = {
  saving: '(imported; saving it in this browser…)',
  kept: '(imported; kept in this browser until you remove it)',
  'this visit': '(imported; kept for this visit only)',
};

export function DatasetTable({
  dataset,
  kept = 'kept',
  onRemove,
}: {
  dataset: Dataset;
  kept?: Kept;
  onRemove?: () => void;
}) {
  const ms = dataset.measurements;
  const shown = ms.length > SHOWN_MEASUREMENTS ? ms.slice(0, SHOWN_MEASUREMENTS) : ms;
  const sourceIds = [...new Set(ms.map((m) => m.source))];
  const kind = ms[0]?.origin.kind ?? 'shipped';
  return (
    <details
      className="dataset"
      open={kind === 'imported'}
      data-file={dataset.file}
      data-kept={kind === 'imported' ? kept : undefined}
    >
      <summary>
        <code>{dataset.file}</code> — {ms.length} numbers{' '}
        {kind === 'imported' ? KEPT_WORDS[kept] : '(shipped with tlbscope)'}
        {onRemove && (
          <button type="button" onClick={onRemove}>
            Remove
          </button>
        )}
        {kind === 'imported' && (
          <button
            type="button"
            aria-label={`Export ${dataset.file} as CSV`}
            onClick={() =>
              download(
                new Blob([datasetToCsv(dataset)], { type: 'text/csv;charset=utf-8' }),
                dataset.file.replace(/(\.csv)?$/i, '-export.csv'),
              )
            }
          >
            Export CSV
          </button>
        )}
      </summary>
      {dataset.imported && (
        <p className="import-recipe" data-testid="import-recipe">
          How the file was read: {dataset.imported.notes.join(' ')}{' '}
          {Object.keys(dataset.imported.mapping).length > 0 && (
            <>
              Columns:{' '}
              {Object.entries(dataset.imported.mapping)
                .map(([col, header]) => `${col} ← “${header}”`)
                .join(', ')}
              .
            </>
          )}
          {cliFlags(dataset.imported) && (
            <>
              {' '}
              The CLI reads the file the same way with{' '}
              <code data-testid="cli-map">{cliFlags(dataset.imported)}</code>.
            </>
          )}
        </p>
      )}
      {sourceIds.map((id) => {
        const s = sources[id];
        if (id === MODEL_SOURCE) {
          return (
            <p key={id}>
              Source {id}: model output from the tlbscope CLI — predicted, not measured.
            </p>
          );
        }
        if (!s) {
          return (
            <p key={id}>
              Source <code>{id}</code>: not described in sources.json
              {kind === 'imported' ? ' — as written in the imported file' : ''}.
            </p>
          );
        }
        return (
          <dl key={id} className="provenance">
            <dt>Source</dt>
            <dd>
              <code>{id}</code> (
              {s.kind === 'patch-mail' ? 'transcribed from a mail' : 'measured with bench/kit'}):{' '}
              {s.title}
            </dd>
            <dt>Author, date</dt>
            <dd>
              {s.author ?? 'not stated'}, {s.date ?? 'date not stated'}
              {s.mail ? `, ${s.mail}` : ''}
            </dd>
            <dt>Machine</dt>
            <dd>{s.machine ?? 'not stated'}</dd>
            <dt>Runs</dt>
            <dd>{s.runs ?? 'not stated'}</dd>
            {s.conditions && (
              <>
                <dt>Conditions</dt>
                <dd>{s.conditions}</dd>
              </>
            )}
          </dl>
        );
      })}
      <table>
        <thead>
          <tr>
            {[
              'benchmark',
              'variant',
              'metric',
              'value',
              'stddev',
              'runs',
              'machine',
              'cpus',
              'source',
              'rows',
            ].map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((m, i) => (
            <tr key={i}>
              <td>{m.benchmark}</td>
              <td>
                <code>{m.variant}</code>
              </td>
              <td>{m.metric}</td>
              <td className="num">
                {m.value} {m.unit}
              </td>
              <td className="num">{m.stddev ?? 'not stated'}</td>
              <td className="num">
                {m.runs ?? 'not stated'}
                {m.aggregated ? ' (per-run rows)' : ''}
              </td>
              <td>{m.machine}</td>
              <td className="num">{m.cpus ?? '—'}</td>
              <td>{m.source}</td>
              <td className="num">
                {m.rows.join(m.aggregated && m.rows.length === 2 ? '–' : ', ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length < ms.length && (
        <p className="limit-note">
          The table shows the first {SHOWN_MEASUREMENTS.toLocaleString('en-US')} of{' '}
          {ms.length.toLocaleString('en-US')} numbers; the charts use all of them.
        </p>
      )}
    </details>
  );
}
