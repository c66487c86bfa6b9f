// Downloads a run (model or recording) as a Chrome JSON trace for ui.perfetto.dev.
import { perfettoChunks } from '../export/perfetto';
import { isRecorded } from '../recording/asRun';
import type { RunResult } from '../sim/run';

export function PerfettoButton({ run, label }: { run: RunResult; label: string }) {
  const download = () => {
    const rec = isRecorded(run) ? run.recording : null;
    const chunks = [
      ...perfettoChunks(run.trace, {
        title: run.title,
        source: rec
          ? `recorded (${rec.format}, ${rec.name})`
          : `predicted by the tlbscope model (${label})`,
        extras: rec?.extras,
      }),
    ];
    const url = URL.createObjectURL(new Blob(chunks, { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    const base = (rec?.name ?? run.title).replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '');
    a.download = `${base || 'tlbscope'}.perfetto.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  // A run kept in its worker is not on the page to export (its rows would be gigabytes of JSON).
  if (run.trace.remote)
    return (
      <button
        type="button"
        disabled
        title="Runs above 2,000,000 rows stay in the simulator's worker and are not exported"
      >
        Download {label} as a Perfetto trace (not for runs above 2 M rows)
      </button>
    );
  return (
    <button type="button" onClick={download} title="Open it at ui.perfetto.dev → Open trace file">
      Download {label} as a Perfetto trace
    </button>
  );
}
