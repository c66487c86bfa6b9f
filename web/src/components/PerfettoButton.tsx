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
  return (
    <button type="button" onClick={download} title="Open it at ui.perfetto.dev → Open trace file">
      Download {label} as a Perfetto trace
    </button>
  );
}
