// Run your own scenario file: pick a .toml from disk. It stays in the browser; errors name
// the file, line and field, just as for the bundled scenarios.
interface Props {
  name: string | null;
  onLoad: (file: { name: string; text: string } | null) => void;
}

export function ScenarioFile({ name, onLoad }: Props) {
  return (
    <div className="scenario-file">
      <label htmlFor="scenario-file-input">Your own scenario file (.toml)</label>
      <input
        id="scenario-file-input"
        type="file"
        accept=".toml,text/plain"
        onChange={async (e) => {
          const f = e.target.files?.[0];
          if (f) onLoad({ name: f.name, text: await f.text() });
          e.target.value = '';
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
    </div>
  );
}
