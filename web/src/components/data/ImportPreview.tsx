// The dry run of an import: detected column types, the mapping to the schema, the first rows
// as inert text, and every problem located by row and column — before anything is added.
import { describeIssue, type Issue } from '../../content/csv';
import {
  EXPECTED_TYPE,
  MAX_MEASUREMENTS,
  SCHEMA,
  type Dataset,
  type Mapping,
} from '../../content/datasets';
import type { ImportState } from './useCsvImport';
import type { ImportOptions } from '../../content/csvPrepare';
import { TextImportOptions } from './TextImportOptions';
import { handEvents } from '../../content/eventHandoff';

const SHOWN_ROWS = 12;
const SHOWN_ISSUES = 40;

export function ImportPreview({
  state,
  onMapping,
  onOptions,
  onAdd,
  onDiscard,
}: {
  state: Extract<ImportState, { status: 'parsed' }>;
  onMapping: (m: Mapping) => void;
  onOptions: (o: ImportOptions) => void;
  onAdd: (d: Dataset) => void;
  onDiscard: () => void;
}) {
  const { parsed, mapping, validated, missing } = state;
  const schemaOf = (c: number) => SCHEMA.find((s) => mapping[s] === c);
  const flagged = new Set(
    (validated?.issues ?? [])
      .filter((i) => i.kind === 'formula' || i.kind === 'html')
      .map((i) => `${i.row}:${i.value}`),
  );
  const errors = validated?.issues.filter((i) => i.severity === 'error') ?? [];
  const warnings = validated?.issues.filter((i) => i.severity === 'warning') ?? [];
  return (
    <div className="import-preview" data-testid="import-preview">
      <p role="status">
        <code>{parsed.name}</code>: {parsed.records.toLocaleString('en-US')} data rows,{' '}
        {parsed.headers.length} columns, separated by{' '}
        {parsed.delimiter === '\t' ? 'tabs' : `“${parsed.delimiter}”`}.
        {validated &&
          ` ${validated.accepted.toLocaleString('en-US')} rows accepted, ${validated.excluded.toLocaleString('en-US')} excluded, ${validated.measurements.length.toLocaleString('en-US')} measurements.`}
      </p>
      {validated && validated.truncated > 0 && (
        <p role="alert" className="limit-note" data-testid="import-truncated">
          Only the first {MAX_MEASUREMENTS.toLocaleString('en-US')} measurements are kept (the
          measurement limit); {validated.truncated.toLocaleString('en-US')} more were left out.
          Split the file, or aggregate per-run rows before importing.
        </p>
      )}
      {parsed.events !== null && (
        <p role="status" className="events-offer" data-testid="events-offer">
          This is a per-event CSV (one row per flush or IPI, on a CPU at a time), not a table of
          measured numbers.{' '}
          <button
            type="button"
            onClick={() => {
              handEvents(parsed.events!, parsed.name);
              window.location.assign('./?view=explore');
            }}
          >
            Open it in the explorer&apos;s event overlay
          </button>
        </p>
      )}
      <TextImportOptions
        key={`${parsed.id}:${JSON.stringify(parsed.options)}`}
        prepared={parsed.prepared}
        options={parsed.options}
        onOptions={onOptions}
      />
      {missing && (
        <div role="alert" className="error-panel import-error" data-error-kind="missing-column">
          <h4>Missing column</h4>
          <p>{missing.message}</p>
        </div>
      )}
      <fieldset className="mapping">
        <legend>Columns of the schema ← columns of the file</legend>
        {SCHEMA.map((s) => (
          <label key={s}>
            {s}
            <select
              aria-label={`File column for ${s}`}
              value={mapping[s]}
              onChange={(e) => onMapping({ ...mapping, [s]: Number(e.target.value) })}
            >
              <option value={-1}>— none —</option>
              {parsed.headers.map((h, i) => (
                <option key={i} value={i}>
                  {h || `(column ${i + 1})`}
                </option>
              ))}
            </select>
          </label>
        ))}
      </fieldset>
      <div className="table-scroll">
        <table className="preview">
          <thead>
            <tr>
              <th scope="col">row</th>
              {parsed.headers.map((h, c) => {
                const t = parsed.types[c];
                const s = schemaOf(c);
                const clash = s && EXPECTED_TYPE[s] !== 'text' && t.type === 'text';
                return (
                  <th key={c} scope="col" data-type={t.type}>
                    {h}
                    <span className={`type${clash ? ' clash' : ''}`}>
                      {t.type}
                      {t.filled ? ` ${t.fitting}/${t.filled}` : ''}
                    </span>
                    <span className="maps-to">{s ? `→ ${s}` : 'not used'}</span>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {parsed.preview.slice(0, SHOWN_ROWS).map((cells, r) => (
              <tr key={r}>
                <td className="num">{parsed.previewRows[r]}</td>
                {cells.map((v, c) => (
                  <td
                    key={c}
                    className={flagged.has(`${parsed.previewRows[r]}:${v}`) ? 'flagged' : undefined}
                  >
                    {v}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <IssueList title="Errors (rows excluded)" issues={errors} className="issues errors" />
      <IssueList
        title="Warnings (kept as inert text)"
        issues={warnings}
        className="issues warnings"
      />
      <div className="import-actions">
        <button
          type="button"
          disabled={!validated || !validated.measurements.length || !!missing}
          onClick={() =>
            validated &&
            onAdd({
              file: parsed.name,
              measurements: validated.measurements,
              issues: validated.issues,
              imported: {
                options: parsed.options,
                notes: parsed.prepared.notes,
                mapping: Object.fromEntries(
                  SCHEMA.filter((s) => mapping[s] >= 0).map((s) => [
                    s,
                    parsed.headers[mapping[s]]!,
                  ]),
                ),
              },
            })
          }
        >
          Add {validated?.measurements.length ?? 0} measurements to the charts
        </button>
        <button type="button" onClick={onDiscard}>
          Discard
        </button>
      </div>
    </div>
  );
}

function IssueList({
  title,
  issues,
  className,
}: {
  title: string;
  issues: Issue[];
  className: string;
}) {
  if (!issues.length) return null;
  return (
    <div className={className}>
      <h4>
        {title}: {issues.length}
      </h4>
      <ul>
        {issues.slice(0, SHOWN_ISSUES).map((i, k) => (
          <li key={k} data-kind={i.kind}>
            {describeIssue(i)}
          </li>
        ))}
      </ul>
      {issues.length > SHOWN_ISSUES && <p>…and {issues.length - SHOWN_ISSUES} more.</p>}
    </div>
  );
}
