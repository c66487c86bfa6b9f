// The text-import step of the preview: the first rows as the separator splits them, and the
// choices a spreadsheet's text import offers (header row, separator, decimal mark, values fixed
// for the whole file), each shown as detected and open to change.
import { useState } from 'react';
import {
  FIXABLE,
  type DecimalMark,
  type Fixable,
  type ImportOptions,
  type Prepared,
  type Separator,
} from '../../content/csvPrepare';

const FORMAT_WORDS: Record<Prepared['format'], string> = {
  table: 'a table',
  'perf-stat': '`perf stat -x,` output',
  'will-it-scale': 'will-it-scale output',
};

export function TextImportOptions({
  prepared,
  options,
  onOptions,
}: {
  prepared: Omit<Prepared, 'text'>;
  options: ImportOptions;
  onOptions: (o: ImportOptions) => void;
}) {
  const [fixed, setFixed] = useState<Partial<Record<Fixable, string>>>(options.fixed);
  const width = Math.max(1, ...prepared.raw.map((r) => r.cells.length));
  return (
    <fieldset className="text-import" data-testid="text-import" data-format={prepared.format}>
      <legend>Text import: read as {FORMAT_WORDS[prepared.format]}</legend>
      <div className="text-import-choices">
        <label>
          separator{' '}
          <select
            aria-label="Separator"
            value={prepared.separator}
            onChange={(e) => onOptions({ ...options, separator: e.target.value as Separator })}
          >
            <option value=",">comma ,</option>
            <option value=";">semicolon ;</option>
            <option value={'\t'}>tab</option>
          </select>
        </label>
        <label>
          decimal mark{' '}
          <select
            aria-label="Decimal mark"
            value={prepared.decimal}
            onChange={(e) => onOptions({ ...options, decimal: e.target.value as DecimalMark })}
          >
            <option value=".">point 0.412</option>
            <option value=",">comma 0,412</option>
          </select>
        </label>
        {prepared.format !== 'perf-stat' && (
          <label>
            header row{' '}
            <select
              aria-label="Header row"
              value={prepared.headerRow}
              onChange={(e) => onOptions({ ...options, headerRow: Number(e.target.value) })}
            >
              {prepared.raw.map((r) => (
                <option key={r.row} value={r.row}>
                  row {r.row}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <form
        className="text-import-fixed"
        onSubmit={(e) => {
          e.preventDefault();
          onOptions({ ...options, fixed });
        }}
      >
        <span>Same value for every row:</span>
        {FIXABLE.map((f) => (
          <label key={f}>
            {f}{' '}
            <input
              aria-label={`Fixed ${f}`}
              value={fixed[f] ?? ''}
              size={12}
              onChange={(e) => setFixed({ ...fixed, [f]: e.target.value })}
            />
          </label>
        ))}
        <button type="submit">Apply</button>
      </form>
      <div className="table-scroll">
        <table className="raw-rows" aria-label="The first rows as read">
          <tbody>
            {prepared.raw.map((r) => (
              <tr
                key={r.row}
                data-role={
                  r.row === prepared.headerRow
                    ? 'header'
                    : r.row === prepared.unitsRow
                      ? 'units'
                      : prepared.skipped.includes(r.row)
                        ? 'skipped'
                        : 'data'
                }
              >
                <th scope="row">{r.row}</th>
                {Array.from({ length: width }, (_, c) => (
                  <td key={c}>{r.cells[c] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {prepared.notes.length > 0 && (
        <ul className="text-import-notes" data-testid="text-import-notes">
          {prepared.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
