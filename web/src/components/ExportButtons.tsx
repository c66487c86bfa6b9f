// The timeline's export buttons: the picture as SVG (with its state link) or as a 2× PNG.
import { useState } from 'react';
import './export.css';

export function ExportButtons({
  what,
  onExport,
}: {
  what: string;
  onExport: (format: 'svg' | 'png') => Promise<void>;
}) {
  const [problem, setProblem] = useState('');
  const run = (format: 'svg' | 'png') => {
    setProblem('');
    onExport(format).catch((e: unknown) =>
      setProblem(
        `The ${format.toUpperCase()} export failed: ${e instanceof Error ? e.message : String(e)}`,
      ),
    );
  };
  return (
    <span className="export-buttons">
      {problem && (
        <span role="alert" className="export-problem">
          {problem}
        </span>
      )}
      <button type="button" aria-label={`Export ${what} as SVG`} onClick={() => run('svg')}>
        SVG
      </button>
      <button type="button" aria-label={`Export ${what} as PNG`} onClick={() => run('png')}>
        PNG
      </button>
    </span>
  );
}
