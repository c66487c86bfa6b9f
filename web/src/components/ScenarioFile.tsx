// Run your own scenario file: pick a .toml from disk. It stays in the browser; errors name
// the file, line and field, just as for the bundled scenarios.
import { useState } from 'react';
import { TOO_LARGE_TO_SHARE } from '../app/linkSource';
import { ownScenarioProblem } from '../app/ownScenario';

interface Props {
  name: string | null;
  onLoad: (file: { name: string; text: string } | null) => void;
  /** The own scenario's text is left out of links (too large for one). */
  unshareable?: boolean;
}

export function ScenarioFile({ name, onLoad, unshareable = false }: Props) {
  const [refused, setRefused] = useState('');
  return (
    <div className="scenario-file">
      <label htmlFor="scenario-file-input">Your own scenario file (.toml)</label>
      <input
        id="scenario-file-input"
        type="file"
        accept=".toml,text/plain"
        onChange={async (e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (!f) return;
          const text = await f.text();
          const problem = ownScenarioProblem(text);
          setRefused(problem ? `${f.name} was not run: ${problem}.` : '');
          if (!problem) onLoad({ name: f.name, text });
        }}
      />
      {name && (
        <p className="muted">
          Running <code>{name}</code>{' '}
          <button type="button" className="linklike" onClick={() => onLoad(null)}>
            back to the bundled scenarios
          </button>
        </p>
      )}
      {refused && (
        <p role="alert" className="error">
          {refused}
        </p>
      )}
      {name && unshareable && (
        <p role="status" className="muted">
          {TOO_LARGE_TO_SHARE[0].toUpperCase() + TOO_LARGE_TO_SHARE.slice(1)}.
        </p>
      )}
    </div>
  );
}
